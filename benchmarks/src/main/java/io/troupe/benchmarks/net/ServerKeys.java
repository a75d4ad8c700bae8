package io.troupe.benchmarks.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The benchmark servers' TLS key: a self-signed EC P-256 certificate for {@code localhost} and
 * {@code 127.0.0.1} in a PKCS#12 keystore, made with the JDK's {@code keytool}, and the client
 * context that trusts it (host names verified).
 *
 * @param keystore the PKCS#12 file
 * @param password its password
 */
record ServerKeys(Path keystore, String password) {

    /** Runs keytool to make {@code dir/server.p12}. */
    static ServerKeys create(Path dir) throws IOException, InterruptedException {
        Path store = dir.resolve("server.p12");
        String password = "bench-" + Long.toHexString(System.nanoTime());
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "server",
                "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext",
                "SAN=dns:localhost,ip:127.0.0.1", "-validity", "7", "-storetype", "PKCS12", "-keystore",
                store.toString(), "-storepass", password)).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool could not make a keystore: " + output);
        }
        return new ServerKeys(store, password);
    }

    /** A client context (TLS 1.3) that trusts this certificate and nothing else. */
    SSLContext clientContext() throws IOException, GeneralSecurityException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, password.toCharArray());
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("server", keys.getCertificate("server"));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
