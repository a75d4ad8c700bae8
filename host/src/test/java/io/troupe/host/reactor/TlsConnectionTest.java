package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;
import io.troupe.api.net.ListenerOptions;
import io.troupe.api.net.TlsEngines;

/**
 * TLS on the reactor over real sockets, against the JDK's own {@link SSLSocket} as the client: the
 * handshake and an echo, records split and merged every way, renegotiation refused, an untrusted
 * certificate, and the server's plaintext handler seeing the TLS session.
 */
@Timeout(120)
class TlsConnectionTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @TempDir
    static Path keys;
    private static TestCertificates certificates;

    private NioReactor reactor;
    private Listener listener;
    private final CompletableFuture<SSLSession> seenSession = new CompletableFuture<>();
    private final CompletableFuture<Throwable> closedBy = new CompletableFuture<>();

    @BeforeAll
    static void makeKeys() throws Exception {
        certificates = TestCertificates.create(keys);
    }

    @BeforeEach
    void start() throws Exception {
        reactor = new NioReactor(2);
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (listener != null) {
            listener.close();
        }
        assertTrue(reactor.shutdown(Duration.ofSeconds(5)), "reactor threads did not end");
    }

    /** Listens with TLS over {@code protocols}; the handler echoes every byte and records the session. */
    private int listenEcho(String... protocols) throws Exception {
        SSLContext context = certificates.server();
        TlsEngines engines = peer -> {
            SSLEngine engine = context.createSSLEngine();
            engine.setEnabledProtocols(protocols);
            return engine;
        };
        listener = reactor.listen(ANY_PORT, connection -> new ConnectionHandler() {
            @Override
            public void onRead(Connection reading, ByteBuffer input) {
                seenSession.complete(reading.tlsSession());
                ByteBuffer copy = ByteBuffer.allocate(input.remaining());
                copy.put(input).flip();
                reading.write(copy);
            }

            @Override
            public void onClosed(Connection closed, Throwable cause) {
                closedBy.complete(cause);
            }
        }, ListenerOptions.of(ConnectionOptions.DEFAULTS).withTls(engines));
        return listener.address().getPort();
    }

    private SSLSocket connect(int port, SSLContext context, String... protocols) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("localhost", port);
        socket.setSoTimeout(30_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setProtocols(protocols);
        socket.setSSLParameters(parameters);
        return socket;
    }

    @Test
    void aTls13ClientIsEchoedAndTheHandlerSeesTheSession() throws Exception {
        int port = listenEcho("TLSv1.3");
        try (SSLSocket socket = connect(port, certificates.client(), "TLSv1.3")) {
            byte[] hello = "hello over TLS".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            socket.getOutputStream().write(hello);
            byte[] back = new byte[hello.length];
            new DataInputStream(socket.getInputStream()).readFully(back);
            assertArrayEquals(hello, back);
            assertEquals("TLSv1.3", socket.getSession().getProtocol());
        }
        SSLSession session = seenSession.get(10, TimeUnit.SECONDS);
        assertNotNull(session, "the handler's connection has no TLS session");
        assertEquals("TLSv1.3", session.getProtocol());
    }

    @Test
    void tinyRecordsAndRecordsLargerThanOneReadComeThroughWhole() throws Exception {
        int port = listenEcho("TLSv1.3");
        byte[] sent = new byte[2 * 1024 * 1024 + 7 * 3000];
        new Random(42).nextBytes(sent);
        try (SSLSocket socket = connect(port, certificates.client(), "TLSv1.3")) {
            socket.startHandshake();
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> readFully(socket, sent.length));
            OutputStream out = socket.getOutputStream();
            int at = 0;
            for (int i = 0; i < 3000; i++, at += 7) {
                out.write(sent, at, 7); // one record of 7 bytes each
            }
            out.write(sent, at, sent.length - at); // 2 MiB at once: 128 full records
            out.flush();
            assertArrayEquals(sent, received.get(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void tls12RenegotiationIsRefusedAndTheConnectionClosed() throws Exception {
        int port = listenEcho("TLSv1.2");
        try (SSLSocket socket = connect(port, certificates.client(), "TLSv1.2")) {
            socket.getOutputStream().write(1);
            assertEquals(1, socket.getInputStream().read());
            assertThrows(IOException.class, () -> {
                socket.startHandshake(); // a second handshake: renegotiation
                socket.getOutputStream().write(2);
                if (socket.getInputStream().read() < 0) {
                    throw new IOException("closed by the server");
                }
            });
        }
        Throwable cause = closedBy.get(10, TimeUnit.SECONDS);
        assertTrue(cause instanceof SSLException && cause.getMessage().contains("renegotiation refused"),
                "closed by " + cause);
    }

    @Test
    void aClientThatDoesNotTrustTheCertificateFailsAndOthersAreStillServed() throws Exception {
        int port = listenEcho("TLSv1.3");
        SSLContext trustsNothingOfOurs = SSLContext.getInstance("TLS");
        trustsNothingOfOurs.init(null, null, null); // the JDK's default trust store
        try (SSLSocket socket = connect(port, trustsNothingOfOurs, "TLSv1.3")) {
            assertThrows(SSLException.class, socket::startHandshake);
        }
        assertNotNull(closedBy.get(10, TimeUnit.SECONDS), "the server did not close the failed handshake");
        try (SSLSocket socket = connect(port, certificates.client(), "TLSv1.3")) {
            socket.getOutputStream().write(9);
            assertEquals(9, socket.getInputStream().read());
        }
    }

    @Test
    void aPlaintextClientIsClosedWithoutReachingTheHandler() throws Exception {
        int port = listenEcho("TLSv1.3");
        try (java.net.Socket socket = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("HELLO plaintext\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            try {
                while (in.read() >= 0) {
                    // an alert, perhaps, then the end
                }
            } catch (IOException reset) {
                // closed with a reset: as good as the end
            }
        }
        assertTrue(closedBy.get(10, TimeUnit.SECONDS) instanceof SSLException);
        assertTrue(!seenSession.isDone(), "the handler was given bytes of a connection that never shook hands");
    }

    private static byte[] readFully(SSLSocket socket, int length) {
        byte[] all = new byte[length];
        try {
            new DataInputStream(socket.getInputStream()).readFully(all);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return all;
    }
}
