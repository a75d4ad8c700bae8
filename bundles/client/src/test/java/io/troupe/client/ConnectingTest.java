package io.troupe.client;

import static io.troupe.testsupport.Await.failure;
import static io.troupe.testsupport.Await.result;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

class ConnectingTest {

    private TestServer server;
    private TroupeClient client;

    @BeforeEach
    void startServer() throws IOException {
        server = TestServer.start("s3cret");
    }

    @AfterEach
    void stop() throws IOException {
        if (client != null) {
            client.close();
        }
        server.close();
    }

    private TroupeClient.Builder builder() {
        return TroupeClient.builder().port(server.port()).tenant("acme").token("s3cret");
    }

    @Test
    void connectCompletesWithTheSessionIdOnceTheServerSaysWelcome() throws Exception {
        client = builder().build();

        assertEquals("session-1", result(client.connect()));

        Frame hello = TestServer.poll(server.hellos, "HELLO");
        assertEquals(FrameType.HELLO, hello.type());
        assertEquals("acme", hello.name());
        assertEquals("s3cret", hello.text());
        assertEquals(1, hello.corrId());
        assertTrue(client.isConnected());
    }

    @Test
    void connectFailsWithTheServersCodeAndDetailWhenTheTokenIsWrong() throws Exception {
        client = builder().token("wrong").build();

        TroupeClientException e = assertInstanceOf(TroupeClientException.class, failure(client.connect()));

        assertEquals("auth.failed", e.code());
        assertEquals(Optional.of(ErrorCode.AUTH_FAILED), e.errorCode());
        assertTrue(e.detail().contains("acme"), e.detail());
        assertFalse(client.isConnected());
        assertInstanceOf(ConnectionLostException.class, failure(client.request("echo", new byte[0])));
    }

    @Test
    void connectFailsWithConnectExceptionWhenNothingListens() throws Exception {
        int port = server.port();
        server.stopListening();
        client = TroupeClient.builder().port(port).tenant("acme").token("s3cret").build();

        assertInstanceOf(ConnectException.class, failure(client.connect()));
        assertFalse(client.isConnected());
    }

    @Test
    void connectTimesOutWhenTheServerNeverSaysWelcome() throws Exception {
        // The kernel completes the TCP handshake from the backlog; nobody ever reads the HELLO.
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            client = TroupeClient.builder().port(silent.getLocalPort()).tenant("acme").token("s3cret")
                    .connectTimeout(Duration.ofMillis(200)).build();

            Throwable failure = failure(client.connect());

            assertInstanceOf(SocketTimeoutException.class, failure);
            assertTrue(failure.getMessage().contains("WELCOME"), failure.getMessage());
        }
    }

    @Test
    void requestsBeforeConnectFailFastWithConnectionLost() throws Exception {
        client = builder().build();

        Throwable failure = failure(client.request("echo", "hi".getBytes(UTF_8)));

        assertInstanceOf(ConnectionLostException.class, failure);
        assertTrue(failure.getMessage().contains("connect()"), failure.getMessage());
        assertInstanceOf(ConnectionLostException.class, failure(client.send("log", new byte[0])));
        assertInstanceOf(ConnectionLostException.class, failure(client.ping()));
    }

    @Test
    void connectingTwiceYieldsTheSameSession() throws Exception {
        client = builder().build();
        CompletableFuture<String> first = client.connect();
        CompletableFuture<String> second = client.connect();

        assertEquals(result(first), result(second));
        assertEquals(result(first), result(client.connect()));
        assertEquals(1, server.hellos.size());
    }

    @Test
    void theBuilderRejectsAClientWithoutCredentials() {
        assertThrows(IllegalStateException.class, () -> TroupeClient.builder().token("x").build());
        assertThrows(IllegalStateException.class, () -> TroupeClient.builder().tenant("acme").build());
        assertThrows(IllegalArgumentException.class, () -> TroupeClient.builder().port(0));
        assertThrows(IllegalArgumentException.class,
                () -> TroupeClient.builder().reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    }
}
