package io.troupe.server.tls;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The TLS keys of the server's configuration ({@code tls.*}), checked for form: the protocols are a
 * non-empty subset of {@link #ALLOWED_PROTOCOLS}. Whether the files exist and open is
 * {@link ServerTlsContext#build}'s to find out.
 *
 * <p>Paths are as written; relative ones are resolved against the installation directory when the
 * context is built. A password file wins over the password written in the configuration.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param keystore                the PKCS#12 keystore, or empty for plaintext
 * @param keystorePassword        its password (empty when not given)
 * @param keystorePasswordFile    a file whose first line is its password, or empty
 * @param protocols               the protocols enabled, in order of preference
 * @param clientAuth              whether client certificates are asked for
 * @param truststore              the PKCS#12 trust store for client certificates, or empty
 * @param truststorePassword      its password (empty when not given)
 * @param truststorePasswordFile  a file whose first line is its password, or empty
 */
public record TlsSettings(String keystore, String keystorePassword, String keystorePasswordFile,
                          List<String> protocols, ClientAuth clientAuth, String truststore,
                          String truststorePassword, String truststorePasswordFile) {

    /** The protocols the server may be configured with. */
    public static final Set<String> ALLOWED_PROTOCOLS = Set.of("TLSv1.3", "TLSv1.2");
    /** Plaintext: no keystore. */
    public static final TlsSettings PLAINTEXT = new TlsSettings("", "", "", List.of("TLSv1.3"), ClientAuth.NONE,
            "", "", "");

    public TlsSettings {
        Objects.requireNonNull(keystore, "keystore");
        Objects.requireNonNull(keystorePassword, "keystorePassword");
        Objects.requireNonNull(keystorePasswordFile, "keystorePasswordFile");
        Objects.requireNonNull(clientAuth, "clientAuth");
        Objects.requireNonNull(truststore, "truststore");
        Objects.requireNonNull(truststorePassword, "truststorePassword");
        Objects.requireNonNull(truststorePasswordFile, "truststorePasswordFile");
        protocols = List.copyOf(protocols);
        String refusal = protocolsRefusal(protocols);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
    }

    /** Whether the server speaks TLS: a keystore is named. */
    public boolean enabled() {
        return !keystore.isBlank();
    }

    /**
     * The protocols of a {@code tls.protocols} value ({@code "TLSv1.3, TLSv1.2"}), or throws with the reason
     * when one is not allowed.
     */
    public static List<String> parseProtocols(String text) {
        List<String> protocols = List.of(text.split(",")).stream().map(String::trim).filter(p -> !p.isEmpty())
                .distinct().toList();
        String refusal = protocolsRefusal(protocols);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        return protocols;
    }

    private static String protocolsRefusal(List<String> protocols) {
        if (protocols.isEmpty()) {
            return "no protocol: give TLSv1.3, or TLSv1.3, TLSv1.2";
        }
        for (String protocol : protocols) {
            if (!ALLOWED_PROTOCOLS.contains(protocol)) {
                return "'" + protocol + "' is not allowed: only TLSv1.3 and TLSv1.2 (older versions are broken)";
            }
        }
        return null;
    }

    @Override
    public String toString() {
        // Never the passwords.
        return "TlsSettings[keystore=" + keystore + ", protocols=" + protocols + ", clientAuth=" + clientAuth.key()
                + ", truststore=" + truststore + "]";
    }
}
