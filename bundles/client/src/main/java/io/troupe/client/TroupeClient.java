package io.troupe.client;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongUnaryOperator;

import javax.net.ssl.SSLContext;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * A connection to a Troupe message server for one tenant: requests with replies, one-way sends,
 * pushes from the server, automatic reconnection.
 *
 * <pre>{@code
 * try (TroupeClient client = TroupeClient.builder().tenant("demo").token("s3cret").build()) {
 *     client.connect().get(10, TimeUnit.SECONDS);
 *     byte[] reply = client.request("echo", "hi".getBytes(UTF_8)).get(30, TimeUnit.SECONDS);
 * }
 * }</pre>
 *
 * <h2>Requests</h2>
 * Any number of requests may be in flight; each gets the next corrId (1, 2, 3, ... for the
 * client's life) and answers are matched by it, whatever their order. A request's future
 * <ul>
 * <li>completes with the REPLY's content;</li>
 * <li>fails with {@link TroupeClientException} (code and detail) when the server answers ERROR;</li>
 * <li>fails with {@link java.util.concurrent.TimeoutException} when no answer came within the
 *     request timeout (30 s by default); the request is forgotten, a late answer ignored;</li>
 * <li>fails with {@link ConnectionLostException} when the connection ends before the answer, or at
 *     once when the client is not connected. Requests are never replayed on a new connection: they
 *     may not be idempotent, and whether one reached its handler is unknown.</li>
 * </ul>
 *
 * <h2>Connection</h2>
 * {@link #connect()} makes one attempt and tells how it went. Once a session has been established,
 * an unexpected end (network failure, server closing, server BYE) is followed by automatic
 * reconnection: the delays are drawn with full jitter below a ceiling that starts at 100 ms and
 * doubles up to 30 s, and reset after a successful attempt; each attempt sends HELLO again. While
 * not connected, requests fail fast rather than wait: the caller decides whether and when to retry.
 * A BYE from the server means it is closing: answers still on their way are delivered, new requests
 * fail fast, and once the server has closed (or the close timeout has passed) the requests left
 * unanswered fail with {@link ConnectionLostException} and reconnection starts.
 * {@link ConnectionListener} observes all of it. {@link #close()} ends it for good.
 *
 * <h2>Threading</h2>
 * Every method may be called from any thread, concurrently. The client runs on one thread of a
 * {@link ClientLoop} (its own, or one shared with other clients), which does all network IO. That
 * thread completes every future, so dependent stages added without an executor
 * ({@code thenApply}, {@code whenComplete}, ...) run on it, as do the {@link PushListener} and the
 * {@link ConnectionListener}: none of them may block, or every client on that thread stalls. Use
 * the {@code ...Async} variants or an executor for blocking work. Blocking on a future
 * ({@code get}, {@code join}) from a callback deadlocks.
 *
 * <p>Frames from one thread go out in the order of the calls. Content arrays are encoded before
 * {@code request} and {@code send} return, so the caller may reuse them at once; a reply's or
 * push's array belongs to its receiver. There is no write backpressure: the number of requests in
 * flight is the caller's to bound.
 *
 * <p>Failures reach the caller through the futures; the client itself logs only what no future
 * can carry (an ERROR no request waits for, a listener that threw) through {@link System.Logger},
 * under the names of its classes.
 */
public final class TroupeClient implements AutoCloseable {

    /** What {@link #close()} waits for beyond the close timeout before giving up. */
    private static final Duration CLOSE_SLACK = Duration.ofSeconds(1);

    private final ClientSettings settings;
    private final Connector connector;

    private TroupeClient(ClientSettings settings, ClientLoop sharedLoop) {
        this.settings = settings;
        if (sharedLoop != null) {
            connector = new Connector(settings, sharedLoop.nextLoop(), () -> { });
        } else {
            ClientLoop own = ClientLoop.create("troupe-client-" + settings.tenant(), 1);
            connector = new Connector(settings, own.nextLoop(), own::shutdown);
        }
    }

    /** A builder with the defaults: 127.0.0.1:7878, 30 s request timeout, reconnection on. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Connects and says HELLO, unless connected already.
     *
     * @return completes with the session id when the server answered WELCOME; fails with
     *         {@link TroupeClientException} when it answered ERROR (code {@code auth.failed},
     *         {@code quota.connections}, ...), with an {@link java.io.IOException} when the connection
     *         could not be made or ended first ({@link java.net.ConnectException},
     *         {@link java.net.SocketTimeoutException} after the connect timeout,
     *         {@link ConnectionLostException}), and with {@link ConnectionLostException} after
     *         {@link #close()}. While the client waits to reconnect, it attempts at once.
     */
    public CompletableFuture<String> connect() {
        return connector.connect();
    }

    /**
     * Sends a REQUEST to the handler {@code name}.
     *
     * @param content the payload; encoded before this method returns
     * @return the reply's content, or a failure as described in the class documentation; a request
     *         whose frame would exceed {@link Builder#maxFrameBytes(int)} fails with code
     *         {@code frame.too_large} without being sent
     * @throws NullPointerException     if {@code name} or {@code content} is null
     * @throws IllegalArgumentException if {@code name} takes more than 65535 bytes in UTF-8 or holds
     *                                  an unpaired surrogate
     */
    public CompletableFuture<byte[]> request(String name, byte[] content) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(content, "content");
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        Throwable refusal = connector.refusal();
        if (refusal != null) {
            answer.completeExceptionally(refusal);
            return answer;
        }
        Frame frame = Frame.request(connector.nextCorrId(), name, content);
        ByteBuffer bytes = encode(frame, answer);
        if (bytes != null) {
            connector.submit(new OutboundFrame(FrameType.REQUEST, frame.corrId(), name, bytes, answer, null));
        }
        return answer;
    }

    /**
     * Sends a one-way SEND to the handler {@code name}. The server answers only if it fails (with an
     * ERROR, which is logged since nothing waits for it).
     *
     * @return completes once the frame is in the socket's send buffer, which says nothing of its
     *         delivery; fails like a request when it cannot be sent
     * @throws NullPointerException     if {@code name} or {@code content} is null
     * @throws IllegalArgumentException for a name that cannot be encoded, as {@link #request}
     */
    public CompletableFuture<Void> send(String name, byte[] content) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(content, "content");
        CompletableFuture<Void> written = new CompletableFuture<>();
        Throwable refusal = connector.refusal();
        if (refusal != null) {
            written.completeExceptionally(refusal);
            return written;
        }
        Frame frame = Frame.send(connector.nextCorrId(), name, content);
        ByteBuffer bytes = encode(frame, written);
        if (bytes != null) {
            connector.submit(new OutboundFrame(FrameType.SEND, frame.corrId(), name, bytes, null, written));
        }
        return written;
    }

    /**
     * Sends a PING.
     *
     * @return the round-trip time once the PONG arrived; fails like a request
     */
    public CompletableFuture<Duration> ping() {
        CompletableFuture<byte[]> pong = new CompletableFuture<>();
        Throwable refusal = connector.refusal();
        if (refusal != null) {
            pong.completeExceptionally(refusal);
            return pong.thenApply(content -> Duration.ZERO);
        }
        long start = System.nanoTime();
        Frame frame = Frame.ping(connector.nextCorrId(), ByteBuffer.allocate(Long.BYTES).putLong(start).array());
        connector.submit(new OutboundFrame(FrameType.PING, frame.corrId(), "", FrameEncoder.encode(frame), pong,
                null));
        return pong.thenApply(content -> Duration.ofNanos(System.nanoTime() - start));
    }

    /** Whether the client has a session now: requests made now are sent. */
    public boolean isConnected() {
        return connector.phase() == Connector.Phase.CONNECTED;
    }

    /** Whether {@link #close()} has completed. */
    public boolean isClosed() {
        return connector.closedFuture().isDone();
    }

    /**
     * Starts closing, as {@link #close()}, without waiting.
     *
     * @return completes once the connection is closed and every future of this client is complete
     */
    public CompletableFuture<Void> closeAsync() {
        return connector.closeAsync();
    }

    /**
     * Ends the client for good: sends BYE, lets the server answer the requests in flight and close
     * the connection, waiting at most the close timeout (5 s by default) before closing it anyway;
     * requests still unanswered then fail with {@link ConnectionLostException}, as does every
     * request made from the moment close is called. Stops reconnection and the client's own loop
     * (not a shared one).
     *
     * <p>Blocks until done (close timeout + 1 s at most), except on a loop thread, where it only
     * starts closing. Idempotent; never throws; keeps the interrupt status.
     */
    @Override
    public void close() {
        CompletableFuture<Void> done = closeAsync();
        if (connector.loop().inLoop()) {
            return;
        }
        try {
            done.get(settings.closeTimeout().plus(CLOSE_SLACK).toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // closeAsync never fails; a timeout leaves the loop to finish on its own.
        }
    }

    /** The number of requests and pings waiting for an answer (for tests). */
    CompletableFuture<Integer> inFlight() {
        return connector.inFlight();
    }

    @Override
    public String toString() {
        return "TroupeClient[" + settings.tenant() + "@" + settings.address() + " " + connector.phase() + "]";
    }

    /** @return the encoded frame, or null after failing {@code future} because it is too large */
    private ByteBuffer encode(Frame frame, CompletableFuture<?> future) {
        long length = FrameEncoder.encodedSize(frame) - (long) FrameDecoder.LENGTH_FIELD_BYTES;
        if (length > settings.maxFrameBytes()) {
            future.completeExceptionally(new TroupeClientException(ErrorCode.FRAME_TOO_LARGE.code(),
                    frame.type() + " '" + frame.name() + "' takes " + length + " bytes, more than the limit of "
                            + settings.maxFrameBytes()));
            return null;
        }
        return FrameEncoder.encode(frame);
    }

    /**
     * Configures a {@link TroupeClient}. Only {@link #tenant} and {@link #token} have no default.
     *
     * <p><b>Threading:</b> not thread-safe; use from one thread, then {@link #build()}.
     */
    public static final class Builder {

        private String host = "127.0.0.1";
        private int port = 7878;
        private InetSocketAddress localAddress;
        private String tenant;
        private String token;
        private Duration requestTimeout = Duration.ofSeconds(30);
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration closeTimeout = Duration.ofSeconds(5);
        private Duration backoffInitial = Duration.ofMillis(100);
        private Duration backoffCap = Duration.ofSeconds(30);
        private LongUnaryOperator backoffJitter = Backoff.FULL_JITTER;
        private boolean reconnect = true;
        private Duration keepAlive = Duration.ZERO;
        private int maxFrameBytes = FrameDecoder.DEFAULT_MAX_FRAME_BYTES;
        private PushListener pushListener;
        private ConnectionListener connectionListener;
        private ClientLoop loop;
        private SSLContext tlsContext;
        private boolean verifyHostname = true;

        private Builder() {
        }

        /**
         * The server's host name or address; default {@code 127.0.0.1}. A name is resolved at each
         * connection attempt, on the loop thread: where many clients share a loop, prefer an address
         * or a name the local resolver answers at once.
         */
        public Builder host(String host) {
            Objects.requireNonNull(host, "host");
            if (host.isBlank()) {
                throw new IllegalArgumentException("host is blank");
            }
            this.host = host;
            return this;
        }

        /** The server's port, 1 to 65535; default 7878. */
        public Builder port(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be between 1 and 65535: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * The local address and port each connection is bound to before it connects; default none
         * (the system chooses both). Port 0 lets the system choose the port for the address given.
         * One local address has about 28 000 ephemeral ports per server address: a process holding
         * more connections to one server spreads them over several local addresses (127.0.0.1,
         * 127.0.0.2, ... on loopback). Binding to port 0 makes the kernel search for a port unused on
         * that address, which grows slow when tens of thousands are taken: such a process gives each
         * client its own port. A fixed port suits a client that does not reconnect (the old
         * connection's port may still be in TIME_WAIT).
         */
        public Builder localAddress(InetSocketAddress localAddress) {
            this.localAddress = Objects.requireNonNull(localAddress, "localAddress");
            return this;
        }

        /** The tenant id sent in HELLO. Required. */
        public Builder tenant(String tenant) {
            Objects.requireNonNull(tenant, "tenant");
            if (tenant.isEmpty()) {
                throw new IllegalArgumentException("tenant is empty");
            }
            this.tenant = tenant;
            return this;
        }

        /** The tenant's token sent in HELLO. Required. */
        public Builder token(String token) {
            this.token = Objects.requireNonNull(token, "token");
            return this;
        }

        /** How long a request or ping waits for its answer; default 30 s. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive(timeout, "requestTimeout");
            return this;
        }

        /** How long one attempt may take from the TCP connect to WELCOME; default 10 s. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        /** How long {@link TroupeClient#close()} waits for the server after BYE; default 5 s. */
        public Builder closeTimeout(Duration timeout) {
            this.closeTimeout = positive(timeout, "closeTimeout");
            return this;
        }

        /**
         * The reconnect delays: drawn from [0, ceiling], where the ceiling starts at
         * {@code initial} and doubles after each failed attempt up to {@code cap}; defaults 100 ms
         * and 30 s.
         *
         * @throws IllegalArgumentException unless 0 &lt; initial &lt;= cap
         */
        public Builder reconnectBackoff(Duration initial, Duration cap) {
            positive(initial, "initial");
            positive(cap, "cap");
            if (cap.compareTo(initial) < 0) {
                throw new IllegalArgumentException("cap " + cap + " is below initial " + initial);
            }
            this.backoffInitial = initial;
            this.backoffCap = cap;
            return this;
        }

        /** Whether to reconnect after the connection drops; default true. */
        public Builder reconnect(boolean reconnect) {
            this.reconnect = reconnect;
            return this;
        }

        /**
         * Sends a PING whenever nothing was sent for {@code interval}, so that an idle client
         * outlives the server's idle timeout (60 s by default; 20-30 s is a good interval). A PING
         * without PONG within the request timeout closes the connection, which then reconnects.
         * {@link Duration#ZERO}, the default, turns it off.
         */
        public Builder keepAlive(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.isNegative()) {
                throw new IllegalArgumentException("keepAlive is negative: " + interval);
            }
            this.keepAlive = interval;
            return this;
        }

        /**
         * The largest frame, by its length field, this client sends: match the server's limit
         * (1 MiB, the default). Frames received may exceed it by 64 KiB + 22 bytes.
         */
        public Builder maxFrameBytes(int maxFrameBytes) {
            if (maxFrameBytes < FrameDecoder.MIN_LENGTH
                    || maxFrameBytes > FrameDecoder.MAX_LENGTH - Connector.INBOUND_MARGIN) {
                throw new IllegalArgumentException("maxFrameBytes out of range: " + maxFrameBytes);
            }
            this.maxFrameBytes = maxFrameBytes;
            return this;
        }

        /** Receives the server's pushes, on the loop thread; default none (pushes are dropped). */
        public Builder pushListener(PushListener listener) {
            this.pushListener = listener;
            return this;
        }

        /** Observes connects, drops and reconnection attempts, on the loop thread; default none. */
        public Builder connectionListener(ConnectionListener listener) {
            this.connectionListener = listener;
            return this;
        }

        /**
         * Runs the client on a thread of {@code loop}, which the caller closes after its clients;
         * by default the client has a one-thread loop of its own, which {@link TroupeClient#close()}
         * stops (a daemon thread: an unclosed client does not keep the JVM alive, but its thread
         * lingers).
         */
        public Builder loop(ClientLoop loop) {
            this.loop = loop;
            return this;
        }

        /**
         * Speaks TLS with {@code context} (since 1.1): its trust managers decide which server certificates
         * are accepted, its key managers (if any) present the client's certificate for mutual TLS.
         * {@link TlsContexts#of} builds one from PKCS#12 files. The server's certificate must also name
         * the {@link #host} connected to, unless {@link #hostnameVerification(boolean)} turns that off.
         * Default: plaintext.
         */
        public Builder tls(SSLContext context) {
            this.tlsContext = Objects.requireNonNull(context, "context");
            return this;
        }

        /**
         * Whether the server's TLS certificate must name the host connected to, by a DNS name or IP
         * address in its subject alternative names (since 1.1); default true. Turning it off accepts any
         * certificate the trust store vouches for, whoever it was issued to: only for trying things out.
         */
        public Builder hostnameVerification(boolean verify) {
            this.verifyHostname = verify;
            return this;
        }

        /** Replaces full jitter, for deterministic tests: given the ceiling, returns the delay. */
        Builder backoffJitter(LongUnaryOperator jitter) {
            this.backoffJitter = Objects.requireNonNull(jitter, "jitter");
            return this;
        }

        /**
         * A new client, not yet connected.
         *
         * @throws IllegalStateException if the tenant or the token is missing, or the loop is closed
         */
        public TroupeClient build() {
            if (tenant == null) {
                throw new IllegalStateException("tenant is not set");
            }
            if (token == null) {
                throw new IllegalStateException("token is not set");
            }
            if (loop != null && loop.isClosed()) {
                throw new IllegalStateException(loop + " is closed");
            }
            ClientSettings settings = new ClientSettings(host, port, localAddress, tenant, token, requestTimeout,
                    connectTimeout, closeTimeout, backoffInitial, backoffCap, backoffJitter, reconnect, keepAlive,
                    maxFrameBytes, pushListener, connectionListener,
                    tlsContext == null ? null : new ClientTls(tlsContext, verifyHostname));
            return new TroupeClient(settings, loop);
        }

        private static Duration positive(Duration duration, String what) {
            Objects.requireNonNull(duration, what);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(what + " must be positive: " + duration);
            }
            return duration;
        }
    }
}
