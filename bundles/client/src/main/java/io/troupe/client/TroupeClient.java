package io.troupe.client;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
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
 * <li>fails with {@link ConnectionLostException} when the connection ends before the answer and the
 *     request cannot be sent again (below), or at once when the client is not connected and will not
 *     hold it.</li>
 * </ul>
 *
 * <h2>Requests across connections</h2>
 * A request is <em>idempotent</em> when the application says so: its name is one of
 * {@link Builder#idempotent(String...)}; a PING always is. When a session ends, each request still
 * waiting for its answer is, by this rule:
 * <ol>
 * <li>sent again to the new node when the server redirected the session (BYE {@code tenant.moved},
 *     protocol 1.4): before that BYE the server answered every request it had read, so the others were
 *     never read, whatever their kind;</li>
 * <li>after a loss with no such word from the server (a crash, the network, a plain BYE), sent again on
 *     the next session when it is idempotent or was never wholly written to the socket; a request that
 *     may have reached the server and is not idempotent fails with {@link ConnectionLostException} saying
 *     that its outcome is unknown;</li>
 * <li>failed with {@link ConnectionLostException} when no next session will come on the client's own
 *     (reconnection off, or the redirect bound reached: then with that {@link TroupeClientException}).</li>
 * </ol>
 * A request sent again keeps its corrId, its future and its deadline (the request timeout runs from the
 * call). While the client follows a redirect it holds every request, send and ping made meanwhile for the
 * new session; while it reconnects after a loss it holds idempotent requests and pings, and fails the
 * others at once. Held frames go out first on the next session, in the order they were made.
 *
 * <h2>Servers and redirects</h2>
 * A client knows one server ({@link Builder#host}, {@link Builder#port}) or several
 * ({@link Builder#servers(String...)}: nodes of one cluster, any of which may be asked). In a cluster each
 * tenant is served by one node at a time; a node that does not serve it answers HELLO with ERROR
 * {@code tenant.moved} naming the owner's address, and a session whose tenant moves away ends with
 * BYE {@code tenant.moved} naming the new one. The client follows at once to the address named, or when
 * the node could not name one (the tenant is moving), to the next of its servers after a backoff delay;
 * {@link ConnectionListener#redirected} tells the application. More than {@link Builder#maxRedirects(int)}
 * redirects in a row without a WELCOME (8 by default) end the attempt with {@link TroupeClientException}
 * {@code tenant.moved}, whose detail names every address on the way. Redirects are followed whether or
 * not reconnection is on; a server older than protocol 1.4 never sends one.
 *
 * <h2>Connection</h2>
 * {@link #connect()} tries each server once, in order (following redirects), and tells how it went.
 * Once a session has been established, an unexpected end (network failure, server closing, server
 * BYE) is followed by automatic reconnection, first to the same server, then to the next ones in
 * turn: each round of attempts is preceded by a delay drawn with full jitter below a ceiling that
 * starts at 100 ms and doubles up to 30 s, reset after a successful attempt; each attempt sends HELLO
 * again. While not connected, requests that are not held (above) fail fast rather than wait: the caller
 * decides whether and when to retry. A BYE from the server means it is closing: answers still on their
 * way are delivered, new requests fail fast (idempotent ones are held when the client will reconnect),
 * and once the server has closed (or the close timeout has passed) the requests left unanswered are
 * treated as after a loss and reconnection starts.
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

    /** How many redirects in a row are followed by default. */
    static final int DEFAULT_MAX_REDIRECTS = 8;
    /** The highest {@link Builder#maxRedirects(int)}: beyond, a cluster is not settling. */
    static final int MAX_REDIRECTS_LIMIT = 100;

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

    /**
     * A builder with the defaults: 127.0.0.1:7878, 30 s request timeout, reconnection on, up to 8 redirects
     * followed in a row, no request idempotent.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Connects and says HELLO, unless connected already.
     *
     * Tries the servers in turn, each once, and follows redirects, until one says WELCOME.
     *
     * @return completes with the session id when a server answered WELCOME; fails with
     *         {@link TroupeClientException} when it answered ERROR (code {@code auth.failed},
     *         {@code quota.connections}, ..., or {@code tenant.moved} after too many redirects), with an
     *         {@link java.io.IOException} when no server could be reached or the connection ended first
     *         ({@link java.net.ConnectException}, {@link java.net.SocketTimeoutException} after the connect
     *         timeout, {@link ConnectionLostException}: the last server's failure, the others' as suppressed
     *         exceptions), and with {@link ConnectionLostException} after {@link #close()}. While the client
     *         waits to reconnect, it attempts at once.
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
        private boolean hostSet;
        private int port = 7878;
        private List<String> servers;
        private Set<String> idempotent = Set.of();
        private int maxRedirects = DEFAULT_MAX_REDIRECTS;
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
            this.hostSet = true;
            return this;
        }

        /**
         * The servers to connect to, as {@code HOST:PORT} ({@code [IPv6]:PORT}), or {@code HOST} for the
         * {@link #port} (since 1.2): the nodes of a cluster, or a server and its stand-ins.
         * {@link TroupeClient#connect()} tries them in this order, and reconnection goes through them in turn;
         * redirects may lead elsewhere.
         * Instead of {@link #host}: giving both is an error at {@link #build()}. Names are resolved at each
         * attempt, as for {@link #host}.
         *
         * @throws IllegalArgumentException if none is given, or one is blank, has a bad port or is not
         *                                  {@code HOST[:PORT]}
         */
        public Builder servers(String... addresses) {
            Objects.requireNonNull(addresses, "addresses");
            if (addresses.length == 0) {
                throw new IllegalArgumentException("no server address");
            }
            List<String> checked = new ArrayList<>();
            for (String address : addresses) {
                ServerAddress.parse(address, 1);
                checked.add(address.strip());
            }
            this.servers = List.copyOf(checked);
            return this;
        }

        /**
         * The names of the requests that are idempotent (since 1.2): sending one twice has the effect of
         * sending it once (a read, a put of a whole value, an operation the handler deduplicates). After a
         * connection lost without a word from the server, such a request is sent again on the next session
         * and, while the client reconnects, held rather than failed; any other request that may have reached
         * the server then fails with {@link ConnectionLostException}, its outcome unknown. Redirects resend
         * unanswered requests of every name (see the class documentation). Replaces the names given before;
         * default none.
         *
         * @throws IllegalArgumentException if a name is empty
         */
        public Builder idempotent(String... names) {
            Objects.requireNonNull(names, "names");
            Set<String> checked = new HashSet<>();
            for (String name : names) {
                Objects.requireNonNull(name, "name");
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("an idempotent request name is empty");
                }
                checked.add(name);
            }
            this.idempotent = Set.copyOf(checked);
            return this;
        }

        /**
         * How many redirects ({@code tenant.moved}) are followed in a row without a WELCOME, 0 to 100
         * (since 1.2); default 8. One more ends the attempt with {@link TroupeClientException}
         * {@code tenant.moved} naming the addresses tried; 0 follows none.
         */
        public Builder maxRedirects(int max) {
            if (max < 0 || max > MAX_REDIRECTS_LIMIT) {
                throw new IllegalArgumentException("maxRedirects must be between 0 and " + MAX_REDIRECTS_LIMIT
                        + ": " + max);
            }
            this.maxRedirects = max;
            return this;
        }

        /** The server's port, 1 to 65535; default 7878. Also the port of a {@link #servers} entry without one. */
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
         * @throws IllegalStateException if the tenant or the token is missing, both {@link #host} and
         *                               {@link #servers} are set, or the loop is closed
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
            if (servers != null && hostSet) {
                throw new IllegalStateException("both host and servers are set: give the servers only");
            }
            List<ServerAddress> addresses = new ArrayList<>();
            if (servers == null) {
                addresses.add(new ServerAddress(host, port));
            } else {
                for (String address : servers) {
                    addresses.add(ServerAddress.parse(address, port));
                }
            }
            ClientSettings settings = new ClientSettings(addresses, localAddress, tenant, token, requestTimeout,
                    connectTimeout, closeTimeout, backoffInitial, backoffCap, backoffJitter, reconnect, keepAlive,
                    maxFrameBytes, pushListener, connectionListener,
                    tlsContext == null ? null : new ClientTls(tlsContext, verifyHostname), idempotent, maxRedirects);
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
