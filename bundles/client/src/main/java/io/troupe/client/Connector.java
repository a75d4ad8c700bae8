package io.troupe.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;
import io.troupe.protocol.Redirect;

/**
 * Keeps one client connected: opens {@link Connection}s, routes the frames that come back, expires
 * requests, reconnects after a drop with {@link Backoff}, sends keep-alive PINGs and runs the close
 * sequence.
 *
 * <pre>
 *            connect()                WELCOME                  drop / server BYE + close
 *   IDLE ────────────► CONNECTING ───────────► CONNECTED ─────────────────────────────┐
 *    ▲  attempt failed,    ▲   │ attempt failed          │ server BYE                 │
 *    │  never connected    │   └──────────┐              ▼                            │
 *    └─────────────────────┤              │          DRAINING ── close ──┐            │
 *                          │ delay over   ▼                              │            │
 *                          └───────── WAITING ◄──────────────────────────┼────────────┘
 *   close(): CONNECTED ─BYE─► CLOSING ─server closes or timeout─► CLOSED ◄┘ (from any phase)
 * </pre>
 * CONNECTED sends frames. In any other phase a frame is held for the next session or fails at once with
 * {@link ConnectionLostException}, as {@link Holding} says; held frames go out first on the next WELCOME.
 *
 * <p>{@link AttemptRoute} says where each attempt goes. A round tries every address once, moving on at
 * once after a failed attempt; when a round fails, {@code connect()} fails, or (once a session was
 * established) the backoff delay precedes the next round. A redirect ({@code tenant.moved}, protocol 1.4)
 * starts a new round at the owner it names, or after a backoff delay at the next seed when it names none,
 * at most {@link ClientSettings#maxRedirects()} times in a row.
 *
 * <p><b>Threading:</b> {@link #connect()}, {@link #submit}, {@link #closeAsync()},
 * {@link #phase()} and {@link #nextCorrId()} from any thread: they hand work to the loop through the
 * outbox (a lock-free queue drained by one task at a time) or {@link SelectorLoop#execute}. All
 * other state is confined to the loop thread, where every future is completed and every listener
 * called.
 */
final class Connector implements Connection.Events, SelectorLoop.Member {

    enum Phase { IDLE, CONNECTING, CONNECTED, DRAINING, WAITING, CLOSING, CLOSED }

    /** What becomes of a frame made while the client has no session. */
    enum Holding {
        /** It fails at once: no session, and none is coming on the client's own. */
        NONE,
        /** Idempotent requests and pings are held for the next session, the rest fail: reconnecting after a loss. */
        IDEMPOTENT,
        /** Every frame is held: following a redirect, the owner gets them all (the old node read none). */
        ALL
    }

    /**
     * How much larger than the outbound limit an inbound frame may be: a reply can carry a longer
     * name than the request, and a server may be configured a little above the client.
     */
    static final int INBOUND_MARGIN = Frame.MAX_NAME_BYTES + FrameDecoder.MIN_LENGTH;

    private static final System.Logger LOG = System.getLogger(Connector.class.getName());
    private static final byte[] EMPTY = new byte[0];

    private final ClientSettings settings;
    private final SelectorLoop loop;
    private final Runnable afterClose;
    private final long requestTimeoutNanos;
    private final long closeTimeoutNanos;
    private final long keepAliveNanos;
    private final AtomicLong corrIds = new AtomicLong();
    private final ConcurrentLinkedQueue<OutboundFrame> outbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final AtomicBoolean closeRequested = new AtomicBoolean();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final Runnable drainTask = this::drainOutbox;
    private volatile Phase phase = Phase.IDLE;
    /** Written on the loop; read by callers for an early refusal. */
    private volatile Holding holding = Holding.NONE;

    // Loop-confined from here on.
    private final PendingRequests pending = new PendingRequests();
    private final AttemptRoute route;
    private Connection connection;
    /** Automatic attempts since the last WELCOME, for {@link ConnectionListener#reconnecting}. */
    private int reconnectAttempts;
    /** The address a redirecting BYE named, until its connection is closed; null otherwise. */
    private String byeRedirect;
    private CompletableFuture<String> connectResult;
    private String sessionId;
    /** Between WELCOME and the end of that connection: disconnected() is owed. */
    private boolean sessionOpen;
    /** A session was established: drops lead to reconnecting (when enabled). */
    private boolean reconnectArmed;
    /** An ERROR for no request (corrId 0 or unknown): the likely reason for the coming close. */
    private TroupeClientException serverError;
    /** The reason a server's BYE carried in its content (e.g. "tenant removed"), or null. */
    private String byeReason;
    private SelectorLoop.Timer reconnectTimer;
    private SelectorLoop.Timer expiryTimer;
    private SelectorLoop.Timer keepAliveTimer;
    private SelectorLoop.Timer closeTimer;
    private long lastWriteNanos;
    private boolean listenerFailureLogged;

    /**
     * @param afterClose run on the loop once the client is closed (stops a loop of its own)
     */
    Connector(ClientSettings settings, SelectorLoop loop, Runnable afterClose) {
        this.settings = settings;
        this.loop = loop;
        this.afterClose = afterClose;
        this.requestTimeoutNanos = settings.requestTimeout().toNanos();
        this.closeTimeoutNanos = settings.closeTimeout().toNanos();
        this.keepAliveNanos = settings.keepAlive().toNanos();
        this.route = new AttemptRoute(settings);
    }

    // ---- any thread ----------------------------------------------------------------------------

    Phase phase() {
        return phase;
    }

    /** The next corrId: 1, 2, 3, ... for the client's whole life, across reconnects. */
    long nextCorrId() {
        return corrIds.incrementAndGet();
    }

    SelectorLoop loop() {
        return loop;
    }

    CompletableFuture<String> connect() {
        CompletableFuture<String> result = new CompletableFuture<>();
        if (closeRequested.get()) {
            result.completeExceptionally(closedException());
        } else if (!loop.execute(() -> startConnect(result))) {
            result.completeExceptionally(loopClosedException());
        }
        return result;
    }

    /**
     * Why a frame submitted now would be refused, or null if it may go (or be held). A cheap early check:
     * the loop checks again when it takes the frame.
     */
    ConnectionLostException refusal() {
        if (closeRequested.get()) {
            return closedException();
        }
        Phase now = phase;
        return now == Phase.CONNECTED || holding != Holding.NONE ? null : notConnected(now);
    }

    /** Hands an encoded frame to the loop. Its futures fail if it cannot be sent. */
    void submit(OutboundFrame frame) {
        outbox.add(frame);
        if (drainScheduled.compareAndSet(false, true) && !loop.execute(drainTask)) {
            failOutbox(loopClosedException());
        }
    }

    CompletableFuture<Void> closeAsync() {
        if (closeRequested.compareAndSet(false, true) && !loop.execute(this::beginClose)) {
            // The loop has terminated, and closed every connection on its way out.
            phase = Phase.CLOSED;
            failOutbox(closedException());
            closed.complete(null);
        }
        return closed;
    }

    CompletableFuture<Void> closedFuture() {
        return closed;
    }

    /** The number of frames waiting for an answer, read on the loop. */
    CompletableFuture<Integer> inFlight() {
        CompletableFuture<Integer> size = new CompletableFuture<>();
        if (!loop.execute(() -> size.complete(pending.size()))) {
            size.complete(0);
        }
        return size;
    }

    // ---- loop thread: connecting ---------------------------------------------------------------

    private void startConnect(CompletableFuture<String> result) {
        switch (phase) {
            case IDLE -> {
                loop.addMember(this);
                addConnectResult(result);
                route.startRound();
                openConnection();
            }
            case CONNECTING, DRAINING -> addConnectResult(result);
            case WAITING -> {
                // An explicit connect() does not wait out the backoff.
                cancel(reconnectTimer);
                reconnectTimer = null;
                addConnectResult(result);
                route.startRound();
                openConnection();
            }
            case CONNECTED -> result.complete(sessionId);
            case CLOSING, CLOSED -> result.completeExceptionally(closedException());
        }
    }

    private void addConnectResult(CompletableFuture<String> result) {
        if (connectResult == null) {
            connectResult = result;
        } else {
            connectResult.whenComplete((id, failure) -> {
                if (failure == null) {
                    result.complete(id);
                } else {
                    result.completeExceptionally(failure);
                }
            });
        }
    }

    private void openConnection() {
        phase = Phase.CONNECTING;
        ServerAddress attempted = route.begin();
        Frame hello = Frame.hello(nextCorrId(), settings.tenant(), settings.token());
        connection = new Connection(loop, attempted.host(), attempted.port(), settings.localAddress(), hello,
                settings.connectTimeout().toNanos(), settings.maxFrameBytes() + INBOUND_MARGIN, settings.tls(), this);
        connection.start();
    }

    @Override
    public void onWelcome(Connection welcomed, String id) {
        sessionId = id;
        sessionOpen = true;
        reconnectArmed = settings.reconnect();
        serverError = null;
        byeReason = null;
        route.welcomed();
        reconnectAttempts = 0;
        phase = Phase.CONNECTED;
        holding = Holding.NONE;
        lastWriteNanos = loop.nanoTime();
        sendHeld(welcomed);
        scheduleKeepAlive();
        CompletableFuture<String> result = connectResult;
        connectResult = null;
        if (result != null) {
            result.complete(id);
        }
        notifyListener(listener -> listener.connected(id));
    }

    @Override
    public void onClosed(Connection closedConnection, Throwable cause) {
        if (closedConnection != connection) {
            return;
        }
        connection = null;
        Phase was = phase;
        cancel(keepAliveTimer);
        cancel(closeTimer);
        keepAliveTimer = null;
        closeTimer = null;
        ServerAddress from = route.attempted();
        TroupeClientException reported = serverError;
        String moved = takeRedirect(cause);
        Throwable reason = explain(cause);
        ConnectionLostException lost = new ConnectionLostException(
                "the connection to " + from + " ended before the answer came: " + reason.getMessage(), reason);
        if (was == Phase.CLOSING) {
            failPending(lost);
            endSession(reason);
            finishClose();
            return;
        }
        if (moved != null) {
            if (sessionOpen) {
                fail(pending.holdAllForRedirect(), lost);
            }
            boolean hadSession = sessionOpen || holding != Holding.NONE;
            endSession(reason);
            followRedirect(from, moved, reason, hadSession);
            return;
        }
        if (sessionOpen) {
            for (PendingRequests.Pending dropped : pending.holdRetriable()) {
                dropped.answer.completeExceptionally(dropped.request == null ? lost : outcomeUnknown(dropped, from,
                        reason));
            }
        }
        endSession(reason);
        switch (was) {
            case CONNECTING -> attemptFailed(reason);
            case CONNECTED, DRAINING -> {
                redirectedInSession(reported);
                afterDrop(reason);
            }
            default -> LOG.log(Level.DEBUG, "connection closed in phase {0}", was);
        }
    }

    /** Tells the listener that the session ended, if one was open. */
    private void endSession(Throwable reason) {
        if (sessionOpen) {
            sessionOpen = false;
            notifyListener(listener -> listener.disconnected(reason));
        }
    }

    /**
     * The owner a redirect named ({@code ""}: not known yet), or null when {@code cause} is no redirect: the
     * BYE of a session whose tenant moved, or the ERROR answering HELLO on a node that does not serve it.
     */
    private String takeRedirect(Throwable cause) {
        String target = byeRedirect;
        byeRedirect = null;
        if (target != null) {
            return target;
        }
        if (cause instanceof TroupeClientException refused && ErrorCode.TENANT_MOVED.code().equals(refused.code())) {
            return refused.detail().strip();
        }
        return null;
    }

    /** An ERROR tenant.moved for no request, before a plain close: no promise about requests, but an owner. */
    private void redirectedInSession(TroupeClientException reported) {
        if (reported != null && ErrorCode.TENANT_MOVED.code().equals(reported.code())) {
            route.ownerNamed(reported.detail().strip());
        }
    }

    private Throwable explain(Throwable cause) {
        TroupeClientException error = serverError;
        serverError = null;
        String bye = byeReason;
        byeReason = null;
        if (bye != null && !(cause instanceof TroupeClientException)) {
            return new ConnectionLostException(cause.getMessage() + " after the server said BYE: " + bye, cause);
        }
        if (error == null || cause instanceof TroupeClientException) {
            return cause;
        }
        return new ConnectionLostException(cause.getMessage() + " after reporting " + error.getMessage(), error);
    }

    /** An attempt failed before WELCOME: the next address of the round at once, or the round has failed. */
    private void attemptFailed(Throwable reason) {
        if (route.nextInRound(reason)) {
            nextAttempt(0, reason, false);
            return;
        }
        failConnectResult(reason);
        afterDrop(reason);
    }

    /** No session now: reconnect after the backoff when a session was established, else give up. */
    private void afterDrop(Throwable reason) {
        if (!reconnectArmed) {
            phase = Phase.IDLE;
            giveUp(reason);
            return;
        }
        holding = Holding.IDEMPOTENT;
        nextAttempt(route.newRoundDelayNanos(), reason, true);
    }

    /** Attempts again after {@code delayNanos}; a new round, or the next address of the current one. */
    private void nextAttempt(long delayNanos, Throwable cause, boolean newRound) {
        phase = Phase.WAITING;
        if (reconnectArmed) {
            int attempt = ++reconnectAttempts;
            notifyListener(listener -> listener.reconnecting(attempt, Duration.ofNanos(delayNanos), cause));
        }
        reconnectTimer = loop.schedule(delayNanos, () -> attemptAfterDelay(newRound));
    }

    private void attemptAfterDelay(boolean newRound) {
        reconnectTimer = null;
        if (phase == Phase.WAITING) {
            if (newRound) {
                route.startRound();
            }
            openConnection();
        }
    }

    /**
     * {@code from} redirected the client to {@code target}: follow it (at once to a named owner, after a
     * backoff delay to the next seed otherwise), unless that makes too many redirects in a row.
     *
     * @param hadSession whether requests may wait for the next session: held ones are, new ones will be
     */
    private void followRedirect(ServerAddress from, String target, Throwable reason, boolean hadSession) {
        AttemptRoute.Redirection redirection = route.redirect(target);
        TroupeClientException tooMany = redirection.tooMany();
        if (tooMany != null) {
            LOG.log(Level.WARNING, tooMany.getMessage());
            giveUp(tooMany);
            failConnectResult(tooMany);
            afterDrop(tooMany);
            return;
        }
        phase = Phase.WAITING;
        if (hadSession) {
            holding = Holding.ALL;
        }
        String to = redirection.to().toString();
        long delay = redirection.delayNanos();
        Duration wait = Duration.ofNanos(delay);
        LOG.log(Level.DEBUG, "{0} redirected tenant {1} ({2}) to {3}, after {4}", from, settings.tenant(),
                reason.getMessage(), to, wait);
        notifyListener(listener -> listener.redirected(from.toString(), to, wait));
        reconnectTimer = loop.schedule(delay, () -> attemptAfterDelay(true));
    }

    /** No attempt will follow on the client's own: what was held fails. */
    private void giveUp(Throwable reason) {
        holding = Holding.NONE;
        Throwable failure = reason instanceof TroupeClientException ? reason : new ConnectionLostException(
                "no connection to " + route.attempted() + " to send it on: " + reason.getMessage(), reason);
        failPending(failure);
        for (OutboundFrame send : pending.removeHeldSends()) {
            send.fail(failure);
        }
    }

    private static ConnectionLostException outcomeUnknown(PendingRequests.Pending request, ServerAddress from,
            Throwable reason) {
        return new ConnectionLostException("the outcome of " + request + " is unknown: it was sent to " + from
                + ", and the connection was lost before its answer (" + reason.getMessage() + "); it is not sent"
                + " again since '" + request.name + "' is not idempotent (TroupeClient.Builder.idempotent)", reason);
    }

    /** Puts the held frames on the new session's wire, first. */
    private void sendHeld(Connection welcomed) {
        List<OutboundFrame> held = pending.takeHeld();
        if (held.isEmpty()) {
            return;
        }
        LOG.log(Level.DEBUG, "sending {0} held frames to {1}", held.size(), route.attempted());
        for (OutboundFrame frame : held) {
            welcomed.enqueue(frame);
        }
        welcomed.flush();
    }

    private void failConnectResult(Throwable cause) {
        CompletableFuture<String> result = connectResult;
        connectResult = null;
        if (result != null) {
            result.completeExceptionally(cause);
        }
    }

    // ---- loop thread: frames -------------------------------------------------------------------

    private void drainOutbox() {
        drainScheduled.set(false);
        long now = loop.nanoTime();
        OutboundFrame frame;
        while ((frame = outbox.poll()) != null) {
            dispatch(frame, now);
        }
        if (connection != null) {
            connection.flush();
        }
    }

    private void dispatch(OutboundFrame frame, long now) {
        if (phase == Phase.CONNECTED) {
            send(frame, now);
        } else if (closeRequested.get()) {
            frame.fail(closedException());
        } else if (holding == Holding.ALL || (holding == Holding.IDEMPOTENT && idempotent(frame))) {
            hold(frame, now);
        } else {
            frame.fail(notConnected(phase));
        }
    }

    private void send(OutboundFrame frame, long now) {
        if (frame.answer != null) {
            PendingRequests.Pending waiting = waiting(frame, now);
            waiting.wire = frame.wireCopy();
            connection.enqueue(waiting.wire);
        } else {
            connection.enqueue(frame);
        }
        lastWriteNanos = now;
    }

    private void hold(OutboundFrame frame, long now) {
        if (frame.answer != null) {
            waiting(frame, now);
        } else {
            pending.holdSend(frame);
        }
    }

    private PendingRequests.Pending waiting(OutboundFrame frame, long now) {
        PendingRequests.Pending waiting = new PendingRequests.Pending(frame.corrId, frame.type, frame.name,
                now + requestTimeoutNanos, frame.answer, frame, idempotent(frame));
        pending.add(waiting);
        armExpiry();
        return waiting;
    }

    /** A PING, or a REQUEST whose name the application declared idempotent. */
    private boolean idempotent(OutboundFrame frame) {
        return frame.type == FrameType.PING
                || (frame.type == FrameType.REQUEST && settings.idempotent().contains(frame.name));
    }

    @Override
    public void onFrame(Connection from, Frame frame) {
        switch (frame.type()) {
            case REPLY, PONG -> answer(frame);
            case ERROR -> error(frame);
            case SEND -> push(frame);
            case BYE -> serverBye(from, frame);
            default -> LOG.log(Level.WARNING, "{0} sent {1}, which a server must not send; ignored",
                    route.attempted(), frame);
        }
    }

    private void answer(Frame frame) {
        PendingRequests.Pending waiting = pending.remove(frame.corrId());
        if (waiting == null) {
            LOG.log(Level.DEBUG, "{0} for no waiting request (timed out?); ignored", frame);
        } else if (frame.type() != waiting.expectedAnswer()) {
            waiting.answer.completeExceptionally(new TroupeClientException(ErrorCode.FRAME_UNEXPECTED.code(),
                    "the server answered " + waiting + " with " + frame.type()));
        } else {
            waiting.answer.complete(frame.content());
        }
    }

    private void error(Frame frame) {
        TroupeClientException error = new TroupeClientException(frame.name(), frame.text());
        PendingRequests.Pending waiting = frame.corrId() == 0 ? null : pending.remove(frame.corrId());
        if (waiting != null) {
            waiting.answer.completeExceptionally(error);
        } else {
            serverError = error;
            LOG.log(Level.WARNING, "{0} reported {1} (corrId {2}: no request waits for it)", route.attempted(),
                    error.getMessage(), Long.toUnsignedString(frame.corrId()));
        }
    }

    private void push(Frame frame) {
        PushListener listener = settings.pushListener();
        if (listener == null) {
            LOG.log(Level.DEBUG, "push {0} dropped: no push listener", frame);
            return;
        }
        try {
            listener.onPush(frame.name(), frame.content());
        } catch (RuntimeException e) {
            listenerFailed("push listener", e);
        }
    }

    private void serverBye(Connection from, Frame frame) {
        Optional<String> moved = Redirect.target(frame);
        if (moved.isPresent() && (phase == Phase.CONNECTED || phase == Phase.DRAINING)) {
            // Every request the server read has been answered before this BYE: nothing more will come.
            byeRedirect = moved.get();
            LOG.log(Level.INFO, "{0} says tenant {1} moved to {2}", route.attempted(), settings.tenant(),
                    byeRedirect.isEmpty() ? "an owner not known yet" : byeRedirect);
            from.close(new ConnectionLostException(route.attempted() + " said BYE: " + frame.text()));
            return;
        }
        if (frame.content().length > 0) {
            byeReason = frame.text();
            LOG.log(Level.WARNING, "{0} ends the session: {1}", route.attempted(), byeReason);
        }
        if (phase == Phase.CONNECTED) {
            phase = Phase.DRAINING;
            holding = reconnectArmed ? Holding.IDEMPOTENT : Holding.NONE;
            armCloseTimer(from, route.attempted() + " said BYE but did not close the connection");
        }
        // CLOSING: the close timer already bounds the wait.
    }

    // ---- loop thread: timers -------------------------------------------------------------------

    private void armExpiry() {
        if (expiryTimer == null && !pending.isEmpty()) {
            expiryTimer = loop.scheduleAt(pending.firstDeadline(), this::expire);
        }
    }

    private void expire() {
        expiryTimer = null;
        List<PendingRequests.Pending> expired = pending.expire(loop.nanoTime());
        for (PendingRequests.Pending request : expired) {
            request.answer.completeExceptionally(new TimeoutException(
                    "no answer to " + request + " within " + settings.requestTimeout().toMillis() + " ms"));
        }
        armExpiry();
    }

    private void scheduleKeepAlive() {
        if (keepAliveNanos > 0) {
            keepAliveTimer = loop.scheduleAt(lastWriteNanos + keepAliveNanos, this::keepAlive);
        }
    }

    private void keepAlive() {
        keepAliveTimer = null;
        if (phase != Phase.CONNECTED) {
            return;
        }
        long now = loop.nanoTime();
        if (now - lastWriteNanos >= keepAliveNanos) {
            sendKeepAlivePing(now);
        }
        scheduleKeepAlive();
    }

    /** A PING nobody waits for; if its PONG does not come in time, the connection is presumed dead. */
    private void sendKeepAlivePing(long now) {
        Connection current = connection;
        long corrId = nextCorrId();
        CompletableFuture<byte[]> pong = new CompletableFuture<>();
        pong.whenComplete((content, failure) -> {
            if (failure instanceof TimeoutException && current == connection) {
                current.close(new ConnectionLostException("no PONG from " + route.attempted() + " within "
                        + settings.requestTimeout().toMillis() + " ms: the connection is presumed dead", failure));
            }
        });
        PendingRequests.Pending waiting = new PendingRequests.Pending(corrId, FrameType.PING, "",
                now + requestTimeoutNanos, pong, null, true);
        waiting.wire = new OutboundFrame(FrameType.PING, corrId, "", FrameEncoder.encode(Frame.ping(corrId, EMPTY)),
                null, null);
        pending.add(waiting);
        armExpiry();
        current.enqueue(waiting.wire);
        current.flush();
        lastWriteNanos = now;
    }

    private void armCloseTimer(Connection target, String message) {
        cancel(closeTimer);
        closeTimer = loop.schedule(closeTimeoutNanos, () -> {
            closeTimer = null;
            if (target == connection) {
                target.close(new ConnectionLostException(message + " within "
                        + settings.closeTimeout().toMillis() + " ms"));
            }
        });
    }

    // ---- loop thread: closing ------------------------------------------------------------------

    private void beginClose() {
        switch (phase) {
            case CONNECTED -> {
                phase = Phase.CLOSING;
                Connection current = connection;
                armCloseTimer(current, "sent BYE, but " + route.attempted() + " did not close the connection");
                Frame bye = Frame.bye();
                current.enqueue(new OutboundFrame(FrameType.BYE, 0, "", FrameEncoder.encode(bye), null, null));
                current.flush();
            }
            case DRAINING -> phase = Phase.CLOSING;
            case CONNECTING -> {
                phase = Phase.CLOSING;
                connection.close(closedException());
            }
            case IDLE, WAITING -> finishClose();
            case CLOSING, CLOSED -> LOG.log(Level.DEBUG, "close requested twice");
        }
    }

    @Override
    public void loopClosed() {
        closeRequested.set(true);
        if (connection != null) {
            phase = Phase.CLOSING;
            connection.close(new ConnectionLostException("the client loop " + loop.name() + " was closed"));
        } else {
            finishClose();
        }
    }

    private void finishClose() {
        if (phase == Phase.CLOSED) {
            return;
        }
        phase = Phase.CLOSED;
        cancel(reconnectTimer);
        cancel(expiryTimer);
        cancel(keepAliveTimer);
        cancel(closeTimer);
        ConnectionLostException closedNow = closedException();
        holding = Holding.NONE;
        failPending(closedNow);
        for (OutboundFrame send : pending.removeHeldSends()) {
            send.fail(closedNow);
        }
        failConnectResult(closedNow);
        failOutbox(closedNow);
        loop.removeMember(this);
        closed.complete(null);
        afterClose.run();
    }

    // ---- helpers -------------------------------------------------------------------------------

    private void failPending(Throwable cause) {
        fail(pending.removeAll(), cause);
    }

    private static void fail(List<PendingRequests.Pending> requests, Throwable cause) {
        for (PendingRequests.Pending waiting : requests) {
            waiting.answer.completeExceptionally(cause);
        }
    }

    private void failOutbox(Throwable cause) {
        OutboundFrame frame;
        while ((frame = outbox.poll()) != null) {
            frame.fail(cause);
        }
    }

    private void notifyListener(Consumer<ConnectionListener> event) {
        ConnectionListener listener = settings.connectionListener();
        if (listener == null) {
            return;
        }
        try {
            event.accept(listener);
        } catch (RuntimeException e) {
            listenerFailed("connection listener", e);
        }
    }

    private void listenerFailed(String which, RuntimeException e) {
        // Logged in full once per client, so that a listener failing on every push cannot flood the log.
        Level level = listenerFailureLogged ? Level.DEBUG : Level.WARNING;
        listenerFailureLogged = true;
        LOG.log(level, "the " + which + " of the client for " + settings.tenant() + "@" + settings.address()
                + " threw; ignored (later failures are logged at DEBUG)", e);
    }

    private static void cancel(SelectorLoop.Timer timer) {
        if (timer != null) {
            timer.cancel();
        }
    }

    private ConnectionLostException notConnected(Phase now) {
        String why = switch (now) {
            case IDLE -> "connect() has not succeeded";
            case CONNECTING -> "still connecting";
            case DRAINING -> "the server is closing the connection";
            case WAITING -> "waiting to reconnect";
            case CLOSING, CLOSED -> "the client is closed";
            case CONNECTED -> "connected";
        };
        return new ConnectionLostException("not connected to " + settings.address() + ": " + why);
    }

    private ConnectionLostException closedException() {
        return new ConnectionLostException("the client for " + settings.address() + " is closed");
    }

    private ConnectionLostException loopClosedException() {
        return new ConnectionLostException("the client loop " + loop.name() + " is closed");
    }
}
