package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.Test;

import io.troupe.client.ClientLoop;
import io.troupe.client.ConnectionListener;
import io.troupe.client.ConnectionLostException;
import io.troupe.client.PushListener;
import io.troupe.client.TlsContexts;
import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;
import io.troupe.protocol.ErrorCode;

/**
 * Compile-only test of the exported package {@code io.troupe.client} (1.2.0), after Pekko's
 * {@code ActorCompile}: the listeners are implemented (as a lambda too), and every public method of the
 * client, its builder, its loop and its exceptions is used with its declared types, from outside the
 * package, as an application using the library does.
 *
 * <p>Its value is that it compiles: a change that breaks a user's source fails the build here, even where
 * no behaviour test notices. bnd's baseline check (see {@code baseline/README.md}) guards the binary API
 * against the last release; this class guards the source. None of the methods below is ever called: the
 * single test only lets the runner count the class. When the package gains a public signature, add a use
 * of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class ClientCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheClientLibrary() {
        // Nothing to run: the class compiled. This names the package it covers, for the report.
        assertEquals("io.troupe.client", TroupeClient.class.getPackageName());
    }

    /** A listener with one abstract method stays a functional interface. */
    static final PushListener LAMBDA_PUSH = (name, content) -> { };

    /** Overrides every callback of {@link ConnectionListener} with its exact signature. */
    static final class EveryCallback implements ConnectionListener {

        @Override
        public void connected(String sessionId) {
            ConnectionListener.super.connected(sessionId);
        }

        @Override
        public void disconnected(Throwable cause) {
            ConnectionListener.super.disconnected(cause);
        }

        @Override
        public void reconnecting(int attempt, Duration delay, Throwable cause) {
            ConnectionListener.super.reconnecting(attempt, delay, cause);
        }

        @Override
        public void redirected(String from, String to, Duration delay) {
            ConnectionListener.super.redirected(from, to, delay);
        }
    }

    static void useClient() {
        try (ClientLoop loop = ClientLoop.create(); ClientLoop named = ClientLoop.create("compile", 2)) {
            TroupeClient.Builder builder = TroupeClient.builder()
                    .host("127.0.0.1")
                    .port(7878)
                    .localAddress(new InetSocketAddress("127.0.0.1", 0))
                    .tenant("demo")
                    .token("token")
                    .requestTimeout(Duration.ofSeconds(30))
                    .connectTimeout(Duration.ofSeconds(5))
                    .closeTimeout(Duration.ofSeconds(5))
                    .reconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(10))
                    .reconnect(true)
                    .keepAlive(Duration.ofSeconds(20))
                    .maxFrameBytes(1 << 20)
                    .pushListener(LAMBDA_PUSH)
                    .connectionListener(new EveryCallback())
                    .loop(loop)
                    .hostnameVerification(true)
                    .idempotent("kv.get", "kv.put")
                    .maxRedirects(8);
            TroupeClient.Builder cluster = TroupeClient.builder().servers("127.0.0.1:7878", "[::1]:7879", "node3")
                    .tenant("demo").token("token");
            use(cluster);
            try (TroupeClient client = builder.build()) {
                CompletableFuture<String> session = client.connect();
                CompletableFuture<byte[]> reply = client.request("echo", new byte[0]);
                CompletableFuture<Void> sent = client.send("chat.say", new byte[0]);
                CompletableFuture<Duration> roundTrip = client.ping();
                boolean connected = client.isConnected();
                boolean closed = client.isClosed();
                CompletableFuture<Void> closing = client.closeAsync();
                use(session, reply, sent, roundTrip, connected, closed, closing);
            }
            use(loop.threads(), loop.isClosed(), named);
        }
    }

    static void useTls() throws IOException {
        SSLContext context = TlsContexts.of(Path.of("trust.p12"), "password".toCharArray(), Path.of("client.p12"),
                "password".toCharArray());
        TroupeClient.Builder builder = TroupeClient.builder().tls(context).hostnameVerification(false);
        use(builder);
    }

    static void useExceptions(Throwable cause) {
        IOException lost = new ConnectionLostException("connection lost");
        IOException lostWithCause = new ConnectionLostException("connection lost", cause);
        TroupeClientException failure = new TroupeClientException("no.handler", "no handler 'x'");
        String code = failure.code();
        String detail = failure.detail();
        Optional<ErrorCode> errorCode = failure.errorCode();
        use(lost, lostWithCause, code, detail, errorCode);
    }

    private static void use(Object... values) {
        // a sink, so that every value above is used
    }
}
