package io.troupe.server.tls;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.UnrecoverableKeyException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * One built server {@link SSLContext} (the JDK's provider) with the parameters every engine gets: the
 * configured protocols and client-certificate policy. Building reads and checks the stores, so that a bad
 * keystore is found here, off the IO loops, and never in a handshake.
 *
 * <p><b>Threading:</b> immutable after {@link #build}; {@link #newEngine} from any thread (the IO loops
 * call it), it reads no file and does not block.
 */
public final class ServerTlsContext {

    private final SSLContext context;
    private final List<String> protocols;
    private final ClientAuth clientAuth;
    private final X509Certificate certificate;
    private final List<Path> files;

    private ServerTlsContext(SSLContext context, List<String> protocols, ClientAuth clientAuth,
            X509Certificate certificate, List<Path> files) {
        this.context = context;
        this.protocols = protocols;
        this.clientAuth = clientAuth;
        this.certificate = certificate;
        this.files = files;
    }

    /**
     * Loads the stores {@code settings} names (relative paths against {@code home}, which may be
     * {@code null}: the working directory) and builds the context.
     *
     * @throws TlsConfigurationException naming the key, the file and the reason
     */
    public static ServerTlsContext build(TlsSettings settings, Path home) throws TlsConfigurationException {
        if (!settings.enabled()) {
            throw new TlsConfigurationException("tls.keystore is not set");
        }
        StoreFile keystore = StoreFile.of("tls.keystore", settings.keystore(), settings.keystorePassword(),
                "tls.keystorePasswordFile", settings.keystorePasswordFile(), home);
        StoreFile truststore = null;
        if (!settings.truststore().isBlank()) {
            truststore = StoreFile.of("tls.truststore", settings.truststore(), settings.truststorePassword(),
                    "tls.truststorePasswordFile", settings.truststorePasswordFile(), home);
        } else if (settings.clientAuth() != ClientAuth.NONE) {
            throw new TlsConfigurationException("tls.clientAuth = " + settings.clientAuth().key()
                    + " needs tls.truststore: the certificates client certificates must chain to");
        }
        List<Path> files = new ArrayList<>(keystore.files());
        if (truststore != null) {
            files.addAll(truststore.files());
        }
        KeyStore keys = keystore.load();
        X509Certificate certificate = serverCertificate(keystore, keys);
        TrustManager[] trustManagers = truststore == null ? null : trustManagers(truststore, truststore.load());
        try {
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keys, keystore.secret());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), trustManagers, null);
            List<String> supported = List.of(context.getSupportedSSLParameters().getProtocols());
            for (String protocol : settings.protocols()) {
                if (!supported.contains(protocol)) {
                    throw new TlsConfigurationException("tls.protocols: " + protocol + " is not supported by this "
                            + "Java runtime (it supports " + supported + ")");
                }
            }
            return new ServerTlsContext(context, settings.protocols(), settings.clientAuth(), certificate,
                    List.copyOf(files));
        } catch (UnrecoverableKeyException e) {
            throw new TlsConfigurationException(keystore.describe() + ": the private key's password differs from "
                    + "the keystore's (Troupe needs them equal, as keytool makes them)", e);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigurationException(keystore.describe() + ": cannot make a TLS context: " + e, e);
        }
    }

    /**
     * The files a context of {@code settings} is built from (the stores and their password files), resolved
     * against {@code home}; those that are not paths are left out.
     */
    public static List<Path> files(TlsSettings settings, Path home) {
        List<Path> files = new ArrayList<>();
        try {
            if (settings.enabled()) {
                files.addAll(StoreFile.of("tls.keystore", settings.keystore(), settings.keystorePassword(),
                        "tls.keystorePasswordFile", settings.keystorePasswordFile(), home).files());
            }
            if (!settings.truststore().isBlank()) {
                files.addAll(StoreFile.of("tls.truststore", settings.truststore(), settings.truststorePassword(),
                        "tls.truststorePasswordFile", settings.truststorePasswordFile(), home).files());
            }
        } catch (TlsConfigurationException e) {
            // not a path: nothing there to watch; building says why
        }
        return List.copyOf(files);
    }

    private static X509Certificate serverCertificate(StoreFile keystore, KeyStore keys)
            throws TlsConfigurationException {
        try {
            for (String alias : Collections.list(keys.aliases())) {
                if (keys.isKeyEntry(alias) && keys.getCertificate(alias) instanceof X509Certificate x509) {
                    return x509;
                }
            }
        } catch (KeyStoreException e) {
            throw new TlsConfigurationException(keystore.describe() + ": cannot be listed: " + e, e);
        }
        throw new TlsConfigurationException(keystore.describe() + ": holds no private key with a certificate "
                + "(a trust store given as the keystore?)");
    }

    private static TrustManager[] trustManagers(StoreFile truststore, KeyStore trusted)
            throws TlsConfigurationException {
        try {
            boolean anyCertificate = false;
            for (String alias : Collections.list(trusted.aliases())) {
                anyCertificate |= trusted.getCertificate(alias) != null;
            }
            if (!anyCertificate) {
                throw new TlsConfigurationException(truststore.describe() + ": holds no certificate to trust");
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new TlsConfigurationException(truststore.describe() + ": cannot be used as a trust store: " + e, e);
        }
    }

    /** A server-mode engine for a connection from {@code peer}, with the configured protocols and policy. */
    public SSLEngine newEngine(InetSocketAddress peer) {
        SSLEngine engine = context.createSSLEngine(peer.getHostString(), peer.getPort());
        engine.setUseClientMode(false);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(protocols.toArray(String[]::new));
        clientAuth.applyTo(parameters);
        engine.setSSLParameters(parameters);
        return engine;
    }

    /** The server's certificate (the first key entry's). */
    public X509Certificate certificate() {
        return certificate;
    }

    /** The files this context was built from: the stores and their password files. */
    public List<Path> files() {
        return files;
    }

    /** For the log: protocols, client certificates, and the certificate's subject and validity. */
    public String describe() {
        Instant notAfter = certificate.getNotAfter().toInstant();
        return String.join(", ", protocols) + ", client certificates " + clientAuth.key() + ", certificate '"
                + certificate.getSubjectX500Principal().getName() + "' valid until " + notAfter;
    }
}
