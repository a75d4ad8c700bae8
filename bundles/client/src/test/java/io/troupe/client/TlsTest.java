package io.troupe.client;

import static io.troupe.testsupport.Await.failure;
import static io.troupe.testsupport.Await.result;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client over TLS against the JDK's own TLS server socket: handshake, host name verification, trust,
 * mutual TLS, frames spread over many records, and a server that never answers the handshake.
 *
 * <p><b>Threading:</b> JUnit's thread, the client's loop and the test server's threads; results are
 * awaited with bounded timeouts.
 */
class TlsTest {

    @TempDir
    static Path dir;
    private static Path serverKeys;
    private static Path serverTrust;
    private static Path otherTrust;
    private static Path wrongNameKeys;
    private static Path clientKeys;
    private static Path clientTrust;

    private TestServer server;
    private TroupeClient client;

    @BeforeAll
    static void makeStores() throws IOException, InterruptedException {
        serverKeys = TestCertificates.keystore(dir.resolve("server.p12"), "troupe", "dns:localhost,ip:127.0.0.1");
        serverTrust = TestCertificates.truststore(serverKeys, dir.resolve("server-trust.p12"));
        Path other = TestCertificates.keystore(dir.resolve("other.p12"), "other", "dns:localhost,ip:127.0.0.1");
        otherTrust = TestCertificates.truststore(other, dir.resolve("other-trust.p12"));
        wrongNameKeys = TestCertificates.keystore(dir.resolve("wrong-name.p12"), "elsewhere", "dns:elsewhere.example");
        clientKeys = TestCertificates.keystore(dir.resolve("client.p12"), "client", "dns:client.example");
        clientTrust = TestCertificates.truststore(clientKeys, dir.resolve("client-trust.p12"));
    }

    @AfterEach
    void stop() throws IOException {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void requestsAreAnsweredOverTlsWithTheHostNameVerified() throws Exception {
        server = TestServer.startTls("s3cret", context(serverKeys, null), false);
        for (String host : List.of("localhost", "127.0.0.1")) {
            try (TroupeClient each = builder(host, context(null, serverTrust)).build()) {
                assertEquals("session", result(each.connect()).substring(0, 7));
                assertArrayEquals("hello".getBytes(UTF_8), result(each.request("echo", "hello".getBytes(UTF_8))));
            }
        }
    }

    @Test
    void framesLargerThanATlsRecordAndManyPipelinedFramesArriveWhole() throws Exception {
        server = TestServer.startTls("s3cret", context(serverKeys, null), false);
        client = builder("localhost", context(null, serverTrust)).build();
        result(client.connect());
        byte[] large = new byte[1_000_000];
        new Random(7).nextBytes(large);
        List<CompletableFuture<byte[]>> answers = new ArrayList<>();
        answers.add(client.request("echo", large));
        for (int i = 0; i < 500; i++) {
            answers.add(client.request("echo", ("n" + i).getBytes(UTF_8)));
        }
        assertArrayEquals(large, result(answers.get(0)), "a frame over ~62 records");
        for (int i = 0; i < 500; i++) {
            assertEquals("n" + i, new String(result(answers.get(i + 1)), UTF_8));
        }
    }

    @Test
    void anUntrustedCertificateFailsTheConnectAndSaysWhy() throws Exception {
        server = TestServer.startTls("s3cret", context(serverKeys, null), false);
        client = builder("localhost", context(null, otherTrust)).reconnect(false).build();
        Throwable failure = failure(client.connect());
        assertInstanceOf(SSLHandshakeException.class, failure);
        assertTrue(failure.getMessage().startsWith("TLS handshake with localhost:" + server.port() + " failed: "),
                failure.getMessage());
        assertTrue(failure.getMessage().contains("PKIX path"), failure.getMessage());
    }

    @Test
    void aCertificateForAnotherHostFailsUnlessVerificationIsTurnedOff() throws Exception {
        server = TestServer.startTls("s3cret", context(wrongNameKeys, null), false);
        Path trust = TestCertificates.truststore(wrongNameKeys, dir.resolve("wrong-name-trust.p12"));
        client = builder("127.0.0.1", context(null, trust)).reconnect(false).build();
        Throwable failure = failure(client.connect());
        assertInstanceOf(SSLHandshakeException.class, failure);
        assertTrue(failure.getMessage().contains("No subject alternative names matching IP address 127.0.0.1"),
                failure.getMessage());
        client.close();

        client = builder("127.0.0.1", context(null, trust)).hostnameVerification(false).build();
        result(client.connect());
        assertArrayEquals("x".getBytes(UTF_8), result(client.request("echo", "x".getBytes(UTF_8))));
    }

    @Test
    void aServerNeedingAClientCertificateAdmitsOnlyAClientWithATrustedOne() throws Exception {
        server = TestServer.startTls("s3cret", context(serverKeys, clientTrust), true);
        client = builder("localhost", context(null, serverTrust)).reconnect(false).build();
        Throwable failure = failure(client.connect());
        assertTrue(failure instanceof IOException, String.valueOf(failure));
        client.close();

        client = builder("localhost", context(clientKeys, serverTrust)).build();
        result(client.connect());
        assertArrayEquals("x".getBytes(UTF_8), result(client.request("echo", "x".getBytes(UTF_8))));
    }

    @Test
    void aServerThatNeverAnswersTheHandshakeTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            client = TroupeClient.builder().host("localhost").port(silent.getLocalPort()).tenant("acme")
                    .token("s3cret").tls(context(null, serverTrust)).reconnect(false)
                    .connectTimeout(Duration.ofMillis(500)).build();
            Throwable failure = failure(client.connect());
            assertInstanceOf(SocketTimeoutException.class, failure);
            assertEquals("the TLS handshake with localhost:" + silent.getLocalPort() + " timed out after 500 ms",
                    failure.getMessage());
        }
    }

    @Test
    void storesAreCheckedWithPreciseErrors() throws IOException {
        Path missing = dir.resolve("missing.p12");
        IOException notThere = assertThrows(IOException.class,
                () -> TlsContexts.of(missing, TestCertificates.PASSWORD.toCharArray(), null, null));
        assertEquals("trust store " + missing + ": no such file", notThere.getMessage());
        IOException wrong = assertThrows(IOException.class,
                () -> TlsContexts.of(serverTrust, "nope".toCharArray(), null, null));
        assertEquals("trust store " + serverTrust + ": wrong password", wrong.getMessage());
        Path text = Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\n");
        IOException pem = assertThrows(IOException.class,
                () -> TlsContexts.of(text, TestCertificates.PASSWORD.toCharArray(), null, null));
        assertTrue(pem.getMessage().startsWith("trust store " + text + ": not a PKCS#12 keystore"), pem.getMessage());
        IOException noKey = assertThrows(IOException.class, () -> TlsContexts.of(serverTrust,
                TestCertificates.PASSWORD.toCharArray(), serverTrust, TestCertificates.PASSWORD.toCharArray()));
        assertEquals("keystore " + serverTrust + ": holds no private key (a trust store?)", noKey.getMessage());
    }

    private TroupeClient.Builder builder(String host, SSLContext context) {
        return TroupeClient.builder().host(host).port(server.port()).tenant("acme").token("s3cret").tls(context);
    }

    private static SSLContext context(Path keys, Path trust) throws IOException {
        char[] password = TestCertificates.PASSWORD.toCharArray();
        return TlsContexts.of(trust, password, keys, password);
    }
}
