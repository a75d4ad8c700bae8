package io.troupe.host.reactor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.troupe.testsupport.KeyTool;

/**
 * A self-signed server key and certificate (EC P-256, SAN localhost and 127.0.0.1) made by the JDK's
 * {@code keytool} in a temporary directory, and the SSL contexts of a server holding it and of a
 * client trusting it. <b>Threading:</b> build once per test class, then read-only.
 */
final class TestCertificates {

    static final char[] PASSWORD = "test-password".toCharArray();

    private final KeyStore keys;

    private TestCertificates(KeyStore keys) {
        this.keys = keys;
    }

    /** Runs keytool to create {@code dir/server.p12}. */
    static TestCertificates create(Path dir) throws IOException, InterruptedException, GeneralSecurityException {
        Path store = dir.resolve("server.p12");
        KeyTool.run(List.of("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", new String(PASSWORD)));
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        return new TestCertificates(keys);
    }

    SSLContext server() throws GeneralSecurityException {
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
    }

    SSLContext client() throws GeneralSecurityException, IOException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("server", keys.getCertificate("server"));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
