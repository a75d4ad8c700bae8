package io.troupe.server.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's TLS context built from real PKCS#12 files made by keytool, checked by real handshakes
 * between engines (no socket).
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class ServerTlsContextTest {

    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 40000);

    @TempDir
    static Path dir;
    private static Path keystore;
    private static Path truststore;
    private static Path clientKeystore;
    private static Path clientTruststore;

    @BeforeAll
    static void makeStores() throws IOException, InterruptedException {
        keystore = KeyTool.keystore(dir.resolve("server.p12"), "troupe-server");
        truststore = KeyTool.truststore(keystore, dir.resolve("trust.p12"));
        clientKeystore = KeyTool.keystore(dir.resolve("client.p12"), "client-one");
        clientTruststore = KeyTool.truststore(clientKeystore, dir.resolve("clients.p12"));
    }

    @Test
    void aClientTrustingTheCertificateCompletesAHandshakeOverTls13() throws Exception {
        ServerTlsContext context = ServerTlsContext.build(settings(keystore.toString(), KeyTool.PASSWORD, ""), null);
        SSLEngine server = context.newEngine(PEER);
        assertArrayEquals(new String[] {"TLSv1.3"}, server.getEnabledProtocols());
        assertFalse(server.getUseClientMode());
        EnginePair pair = new EnginePair(client(truststore, null), server);
        assertEquals("CN=troupe-server", pair.handshake().getSubjectX500Principal().getName());
        assertEquals("TLSv1.3", server.getSession().getProtocol());
        assertTrue(context.describe().contains("TLSv1.3, client certificates none, certificate 'CN=troupe-server'"),
                context.describe());
    }

    @Test
    void relativePathsAreResolvedAgainstTheInstallationAndThePasswordFileWins() throws Exception {
        Path passwordFile = dir.resolve("server.pass");
        Files.writeString(passwordFile, KeyTool.PASSWORD + "\n", StandardCharsets.UTF_8);
        ServerTlsContext context = ServerTlsContext.build(new TlsSettings("server.p12", "not the password",
                "server.pass", List.of("TLSv1.3", "TLSv1.2"), ClientAuth.NONE, "", "", ""), dir);
        assertEquals(List.of(keystore, passwordFile), context.files());
        assertArrayEquals(new String[] {"TLSv1.3", "TLSv1.2"}, context.newEngine(PEER).getEnabledProtocols());
    }

    @Test
    void aWrongPasswordIsNamedWithTheKeyAndTheFile() {
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(settings(keystore.toString(), "wrong-password", ""), null));
        assertEquals("tls.keystore " + keystore + ": wrong password (tls.keystorePassword)", e.getMessage());
    }

    @Test
    void aWrongPasswordInAPasswordFileNamesThatFile() throws IOException {
        Path passwordFile = Files.writeString(dir.resolve("wrong.pass"), "nope-nope\n");
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(settings(keystore.toString(), "", passwordFile.toString()), null));
        assertEquals("tls.keystore " + keystore + ": wrong password (tls.keystorePasswordFile " + passwordFile + ")",
                e.getMessage());
    }

    @Test
    void anEmptyPasswordFileIsRefused() throws IOException {
        Path passwordFile = Files.writeString(dir.resolve("empty.pass"), "\n");
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(settings(keystore.toString(), "", passwordFile.toString()), null));
        assertTrue(e.getMessage().startsWith("tls.keystorePasswordFile " + passwordFile + ": empty"), e.getMessage());
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.p12");
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(settings(missing.toString(), KeyTool.PASSWORD, ""), null));
        assertEquals("tls.keystore " + missing + ": no such file", e.getMessage());
    }

    @Test
    void aJksKeystoreIsRefusedWithHowToConvertIt() throws Exception {
        Path jks = KeyTool.keystore(dir.resolve("server.jks"), "jks", "JKS", null, 30);
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(settings(jks.toString(), KeyTool.PASSWORD, ""), null));
        assertTrue(e.getMessage().startsWith("tls.keystore " + jks + ": a JKS keystore, not PKCS#12; convert it"),
                e.getMessage());
    }

    @Test
    void aPemFileIsNotAKeystore() throws IOException {
        Path pem = Files.writeString(dir.resolve("server.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n");
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(settings(pem.toString(), KeyTool.PASSWORD, ""), null));
        assertTrue(e.getMessage().startsWith("tls.keystore " + pem + ": not a PKCS#12 keystore"), e.getMessage());
    }

    @Test
    void aTruncatedKeystoreIsNotReadable() throws IOException {
        byte[] bytes = Files.readAllBytes(keystore);
        Path truncated = Files.write(dir.resolve("truncated.p12"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(settings(truncated.toString(), KeyTool.PASSWORD, ""), null));
        assertTrue(e.getMessage().startsWith("tls.keystore " + truncated + ": not a readable PKCS#12 keystore"),
                e.getMessage());
    }

    @Test
    void aTrustStoreGivenAsTheKeystoreHasNoKey() {
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(settings(truststore.toString(), KeyTool.PASSWORD, ""), null));
        assertEquals("tls.keystore " + truststore + ": holds no private key with a certificate (a trust store given "
                + "as the keystore?)", e.getMessage());
    }

    @Test
    void clientCertificatesNeedATrustStore() {
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(new TlsSettings(keystore.toString(), KeyTool.PASSWORD, "",
                        List.of("TLSv1.3"), ClientAuth.NEED, "", "", ""), null));
        assertEquals("tls.clientAuth = need needs tls.truststore: the certificates client certificates must chain to",
                e.getMessage());
    }

    @Test
    void aBadTrustStoreIsNamedAsTheTrustStore() {
        Path missing = dir.resolve("no-trust.p12");
        TlsConfigurationException e = assertThrows(TlsConfigurationException.class,
                () -> ServerTlsContext.build(new TlsSettings(keystore.toString(), KeyTool.PASSWORD, "",
                        List.of("TLSv1.3"), ClientAuth.WANT, missing.toString(), KeyTool.PASSWORD, ""), null));
        assertEquals("tls.truststore " + missing + ": no such file", e.getMessage());
    }

    @Test
    void needRefusesAClientWithoutACertificateAndAdmitsOneWithATrustedCertificate() throws Exception {
        ServerTlsContext context = ServerTlsContext.build(new TlsSettings(keystore.toString(), KeyTool.PASSWORD, "",
                List.of("TLSv1.3"), ClientAuth.NEED, clientTruststore.toString(), KeyTool.PASSWORD, ""), null);
        SSLEngine server = context.newEngine(PEER);
        assertTrue(server.getNeedClientAuth());
        assertThrows(SSLException.class, () -> new EnginePair(client(truststore, null), server).handshake());

        SSLEngine second = context.newEngine(PEER);
        new EnginePair(client(truststore, clientKeystore), second).handshake();
        assertEquals("CN=client-one", ((java.security.cert.X509Certificate) second.getSession()
                .getPeerCertificates()[0]).getSubjectX500Principal().getName());
    }

    @Test
    void wantAsksForACertificateButAdmitsAClientWithout() throws Exception {
        ServerTlsContext context = ServerTlsContext.build(new TlsSettings(keystore.toString(), KeyTool.PASSWORD, "",
                List.of("TLSv1.3"), ClientAuth.WANT, clientTruststore.toString(), KeyTool.PASSWORD, ""), null);
        SSLEngine server = context.newEngine(PEER);
        assertTrue(server.getWantClientAuth());
        new EnginePair(client(truststore, null), server).handshake();
    }

    @Test
    void aTls12OnlyClientIsRefusedByTheTls13Default() throws Exception {
        ServerTlsContext context = ServerTlsContext.build(settings(keystore.toString(), KeyTool.PASSWORD, ""), null);
        SSLEngine client = client(truststore, null);
        client.setEnabledProtocols(new String[] {"TLSv1.2"});
        assertThrows(SSLException.class, () -> new EnginePair(client, context.newEngine(PEER)).handshake());
    }

    private static TlsSettings settings(String keystore, String password, String passwordFile) {
        return new TlsSettings(keystore, password, passwordFile, List.of("TLSv1.3"), ClientAuth.NONE, "", "", "");
    }

    /** A client engine for localhost trusting {@code trusted}, with host name verification. */
    static SSLEngine client(Path trusted, Path keys) throws IOException, GeneralSecurityException {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(trusted));
        KeyManagerFactory keyManagers = null;
        if (keys != null) {
            keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(load(keys), KeyTool.PASSWORD.toCharArray());
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers == null ? null : keyManagers.getKeyManagers(), trust.getTrustManagers(), null);
        SSLEngine engine = context.createSSLEngine("localhost", 7878);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        return engine;
    }

    private static KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, KeyTool.PASSWORD.toCharArray());
        }
        return store;
    }
}
