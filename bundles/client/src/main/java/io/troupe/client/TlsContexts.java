package io.troupe.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the {@link SSLContext} a {@link TroupeClient} speaks TLS with (since 1.1) from PKCS#12 files: a
 * trust store with the certificates the server's must chain to (for a self-signed server, its own
 * certificate), and optionally a keystore with the client's key and certificate for mutual TLS. Give
 * the result to {@link TroupeClient.Builder#tls(SSLContext)}.
 *
 * <p><b>Threading:</b> stateless; any thread. Reads files: not on a client loop.
 */
public final class TlsContexts {

    private TlsContexts() {
    }

    /**
     * A context trusting the certificates of {@code truststore} ({@code null}: the Java runtime's default
     * trusted authorities), presenting the key of {@code keystore} when the server asks for a client
     * certificate ({@code null}: none).
     *
     * @throws IOException naming the file and the reason: missing, not PKCS#12, wrong password, no key or
     *                     no certificate where one is needed
     */
    public static SSLContext of(Path truststore, char[] truststorePassword, Path keystore, char[] keystorePassword)
            throws IOException {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (truststore == null) {
                trust.init((KeyStore) null);
            } else {
                KeyStore trusted = load("trust store", truststore, truststorePassword);
                if (trusted.size() == 0) {
                    throw new IOException("trust store " + truststore + ": holds no certificate");
                }
                trust.init(trusted);
            }
            KeyManagerFactory keys = null;
            if (keystore != null) {
                KeyStore own = load("keystore", keystore, keystorePassword);
                boolean hasKey = false;
                for (String alias : Collections.list(own.aliases())) {
                    hasKey |= own.isKeyEntry(alias);
                }
                if (!hasKey) {
                    throw new IOException("keystore " + keystore + ": holds no private key (a trust store?)");
                }
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(own, keystorePassword);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (UnrecoverableKeyException e) {
            throw new IOException("keystore " + keystore + ": the key's password differs from the keystore's", e);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot make a TLS context: " + e, e);
        }
    }

    private static KeyStore load(String what, Path file, char[] password) throws IOException,
            GeneralSecurityException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IOException(what + " " + file + ": no such file", e);
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(new ByteArrayInputStream(bytes), password);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new IOException(what + " " + file + ": wrong password", e);
            }
            throw new IOException(what + " " + file + ": not a PKCS#12 keystore (" + e.getMessage() + ")", e);
        }
        return store;
    }
}
