package io.troupe.server.session;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.api.cluster.Placement;
import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameException;
import io.troupe.protocol.FrameType;
import io.troupe.protocol.Redirect;
import io.troupe.server.auth.Authenticator;
import io.troupe.server.tenant.HandoverPause;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantSession;

/**
 * One client connection speaking protocol v1: decodes its frames, authenticates it, routes its
 * requests to the tenant's handlers and writes the answers. It decodes and forwards only: no handler
 * code runs here.
 *
 * <pre>
 *  onRead ─► FrameDecoder ─► AWAITING_HELLO: HELLO ─► authenticate, admit (quota) ─► WELCOME, OPEN
 *                            OPEN: SessionThrottle (tenant's bytes/s, requests/s, queued messages,
 *                                  pending output over all its connections;
 *                                  a shut gate holds the frame and suspends reading until it opens)
 *                                  REQUEST/SEND ─► handler(tenant, name) ─► awaitDrain?
 *                                     │ no: ask / tell now                  │ yes: keep the frame,
 *                                     ▼                                     │ suspend reading, stop
 *                         ask completes (runtime thread)                    │ decoding; on drain:
 *                         ─► Replies ─► connection.write                    │ route it, resume
 *                                  PING ─► PONG   BYE ─► DRAINING ─► BYE, close
 *            bad frame (after WELCOME) ─► stop reading ─► DRAINING ─► every accepted request answered
 *                                                               ─► ERROR of the fault, close
 * </pre>
 *
 * <p>Guarantees: frames are routed in the order received, from this loop, so one handler sees one
 * connection's messages in order (mailboxes are FIFO per producer); every REQUEST gets exactly one
 * REPLY or ERROR ({@link RequestsInFlight}) unless the connection drops; the decoder refuses a frame
 * longer than the limit from its length field, before its body is read; whatever the client sends
 * can at worst earn it an ERROR and a close: every callback and task catches what it throws and
 * closes this connection alone. A frame that cannot be decoded ends the session gracefully: nothing
 * after it is read, the requests accepted before it are answered (within their request timeout),
 * and only then come the fault's ERROR (its own code) and the close, so that the client knows the
 * outcome of every request it sent ({@link SessionState}).
 *
 * <p>Idle: a session that sends no frame for {@code idleTimeout} is told BYE and closed. Waiting for
 * the server is not idleness: a session with requests in flight or a frame held back by backpressure
 * is never idle, and its quiet time starts again from the last answer.
 *
 * <p>The session owns the state machine ({@link SessionState}), authentication and routing; it leaves
 * the requests in flight and their answers to {@link RequestsInFlight}, the frame held back by the
 * tenant's limits to {@link SessionThrottle}, the frame held back by a handler's full mailbox to
 * {@link HeldFrame}, and its auth, idle and linger timers to {@link SessionTimers}. Where throttling
 * cannot help, a request is refused: {@code tenant.limit.actors} when its handler would be one actor
 * too many for the tenant (the session stays open); a frame above the tenant's {@code maxFrameBytes}
 * is {@code frame.too_large} (the decoder's check, which closes the connection).
 *
 * <p><b>Threading:</b> loop-confined: the {@link ConnectionHandler} callbacks and the tasks this
 * class gives to {@link Connection#execute}/{@link Connection#schedule} run on the connection's IO
 * loop. Two things happen elsewhere: asks complete on runtime threads, inside
 * {@link RequestsInFlight}, which writes the answers (any thread) and hands the end of a drain back
 * to the loop; {@link #push} runs on the session actor's worker and only writes.
 */
public final class Session implements ConnectionHandler, TenantSession {

    private static final Logger LOG = LoggerFactory.getLogger(Session.class);
    /** How long a session reads on after its shutdown BYE, unless the client closes first. */
    static final Duration SHUTDOWN_LINGER = Duration.ofMillis(500);

    private final Connection connection;
    private final Sessions sessions;
    /** The largest frame this connection's input buffer can hold. */
    private final int maxBufferedFrame;
    private final FrameDecoder decoder = new FrameDecoder(FrameDecoder.PRE_AUTH_MAX_FRAME_BYTES);
    private final RequestsInFlight inFlight;
    private final HeldFrame held;
    private final SessionThrottle throttle;
    private final SessionTimers timers;

    // Loop-confined.
    private SessionState state = SessionState.AWAITING_HELLO;
    private boolean readingStopped;
    private boolean inputEnded;
    private Tenant tenant;
    private ActorRef actor;
    private boolean byeSent;
    /** A HELLO is being verified (or its refusal delayed): nothing more is decoded meanwhile. */
    private boolean verifying;
    /** The ERROR of a protocol fault, sent once the requests accepted before it are answered. */
    private Frame fault;
    /** The handover of the tenant to another node this session is paused for, or null. */
    private HandoverPause handover;
    /** The requests in flight when the handover paused the session. */
    private int inFlightAtPause;
    /** BYE tenant.moved was sent: what the client still sends is dropped unread until it closes. */
    private boolean discarding;

    Session(Connection connection, Sessions sessions, int maxInputBuffer) {
        this.connection = connection;
        this.sessions = sessions;
        this.maxBufferedFrame = maxInputBuffer - FrameDecoder.LENGTH_FIELD_BYTES;
        // one clock, one drain waiter (both shared by every session) and one guard for the parts: each method
        // reference evaluated is an object of its own, and an idle session should hold few
        UnaryOperator<Runnable> guard = this::guarded;
        this.inFlight = new RequestsInFlight(connection, sessions.nanoClock(), this::lastAnswered,
                this::outputWritten);
        this.held = new HeldFrame(connection, sessions.drainWaiter(), guard, this::drained);
        this.throttle = new SessionThrottle(connection, sessions.runtime(), guard, this::released);
        this.timers = new SessionTimers(connection, sessions.nanoClock(), guard, new Quietness());
    }

    /** The session id sent in WELCOME: the connection's id, unique within the host's reactor. */
    public String id() {
        return Long.toString(connection.id()); // made when asked: an idle session holds no string for it
    }

    Connection connection() {
        return connection;
    }

    // ---- connection events ------------------------------------------------------------------------

    @Override
    public void onOpen(Connection ignored) {
        assertInLoop();
        if (!sessions.register(this)) {
            closeWithBye();
            return;
        }
        timers.startAuth(sessions.limits().authTimeout(), this::authTimedOut);
    }

    @Override
    public void onRead(Connection ignored, ByteBuffer input) {
        assertInLoop();
        if (discarding) {
            input.position(input.limit()); // after BYE tenant.moved: never read, never run, sent again elsewhere
            return;
        }
        try {
            while (decoding()) {
                Frame frame = decoder.next(input);
                if (frame == null) {
                    break;
                }
                timers.frameReceived();
                if (tenant != null) {
                    tenant.metrics().countBytes(FrameEncoder.encodedSize(frame));
                }
                if (state != SessionState.OPEN || throttle.admit(frame)) {
                    handle(frame);
                }
            }
            stopAtEndOfInput();
        } catch (FrameException e) {
            protocolFault(e);
        } catch (RuntimeException e) {
            failed("onRead", e);
        }
    }

    @Override
    public void onInputShutdown(Connection ignored) {
        assertInLoop();
        try {
            inputEnded = true;
            if (discarding) {
                close(); // the client read BYE tenant.moved and closed: nothing more to drop
                return;
            }
            if (state == SessionState.AWAITING_HELLO && !verifying) {
                close();
            } else {
                stopAtEndOfInput();
            }
        } catch (RuntimeException e) {
            failed("onInputShutdown", e);
        }
    }

    /** The reactor wrote this connection's output down to its low-water mark: the tenant's total hears of it. */
    @Override
    public void onWritable(Connection ignored) {
        assertInLoop();
        outputWritten();
    }

    @Override
    public void onClosed(Connection ignored, Throwable cause) {
        assertInLoop();
        state = SessionState.CLOSED;
        timers.cancelAll();
        held.drop();
        throttle.drop();
        inFlight.abandon();
        reportDrained(); // a paused session closed by its client counts as drained
        try {
            if (tenant != null) {
                tenant.leave(this);
            }
            if (actor != null) {
                sessions.runtime().stop(actor);
            }
        } finally {
            sessions.unregister(this);
        }
        if (cause != null) {
            LOG.debug("Session {} from {} closed: {}", connection.id(), connection.remoteAddress(), cause.toString());
        } else {
            LOG.debug("Session {} from {} closed", connection.id(), connection.remoteAddress());
        }
    }

    // ---- calls from other threads -----------------------------------------------------------------

    @Override
    public void tenantRemoved(Tenant removed, String reason) {
        connection.execute(guarded(() -> {
            if (state != SessionState.CLOSED) {
                LOG.info("Closing session {} from {}: tenant '{}' was removed", connection.id(),
                        connection.remoteAddress(), removed.id());
                closeWithBye(reason);
            }
        }));
    }

    @Override
    public void disconnect(Tenant tenant, String reason) {
        connection.execute(guarded(() -> {
            if (state != SessionState.CLOSED) {
                LOG.info("Closing session {} from {} of tenant '{}': {}", connection.id(), connection.remoteAddress(),
                        tenant.id(), reason);
                closeWithBye(reason);
            }
        }));
    }

    @Override
    public void tenantChanged(Tenant changed) {
        connection.execute(guarded(this::applyLimits));
    }

    @Override
    public void handOver(HandoverPause pause) {
        connection.execute(() -> {
            try {
                pauseForHandover(pause);
            } catch (RuntimeException e) {
                pause.drained(this, 0);
                failed("handOver", e);
            }
        });
    }

    @Override
    public void redirect(String address) {
        connection.execute(guarded(() -> {
            if ((state == SessionState.OPEN || state == SessionState.DRAINING) && !discarding) {
                LOG.debug("Session {} of tenant '{}' from {}: BYE tenant.moved {}", connection.id(), tenant.id(),
                        connection.remoteAddress(), address);
                if (!byeSent) {
                    byeSent = true;
                    write(Redirect.bye(address));
                }
                // Closing with the paused frames unread would reset the connection, and the client might
                // lose the BYE with them. Read on, dropping what comes unread (the client sends it again to
                // the new owner), until the client closes, or the linger ends.
                discarding = true;
                connection.resumeReading();
                timers.linger(SHUTDOWN_LINGER, this::close);
            }
        }));
    }

    /**
     * Stops reading for the tenant's handover and drains as for a BYE, but the BYE waits for the redirect.
     * A session that is not open (still placing its HELLO, closing) has nothing to drain.
     */
    private void pauseForHandover(HandoverPause pause) {
        assertInLoop();
        if (handover != null) {
            pause.drained(this, 0);
            return;
        }
        if (state != SessionState.OPEN && state != SessionState.DRAINING) {
            pause.drained(this, 0);
            return;
        }
        handover = pause;
        inFlightAtPause = inFlight.size();
        readingStopped = true;
        connection.suspendReading();
        if (state == SessionState.OPEN) {
            beginDrain();
        } else {
            finishDrain();
        }
    }

    /** Tells the handover this session has drained; once. */
    private void reportDrained() {
        HandoverPause pause = handover;
        if (pause != null && inFlightAtPause >= 0) {
            int answered = inFlightAtPause;
            inFlightAtPause = -1;
            pause.drained(this, answered);
        }
    }

    /** Pushes {@code message} to the client as a SEND frame with corrId 0. Any thread. */
    void push(Message message) {
        Frame frame;
        try {
            frame = Frame.send(0L, message.name(), message.content());
        } catch (IllegalArgumentException e) {
            LOG.warn("Cannot push {} to session {}: {}", message, connection.id(), e.getMessage());
            return;
        }
        connection.write(FrameEncoder.encode(frame));
    }

    /** Applies changed limits (the frame limit, the server's or the tenant's, and the idle timeout). On the loop. */
    void limitsChanged() {
        guarded(this::applyLimits).run();
    }

    private void applyLimits() {
        assertInLoop();
        if (state == SessionState.OPEN || state == SessionState.DRAINING) {
            decoder.setMaxFrameBytes(frameLimit());
        }
        if (state == SessionState.OPEN) {
            timers.stopIdle();
            if (sessions.limits().closesIdleSessions()) {
                timers.checkIdleAfter(Duration.ZERO); // it works out how long is left
            }
        }
    }

    /**
     * The server is stopping: no new request runs; the requests in flight are answered, then BYE and
     * close. A frame held back by backpressure is answered {@code server.shutdown}. On the loop.
     */
    void beginShutdown() {
        guarded(this::stopTakingRequests).run();
    }

    private void stopTakingRequests() {
        assertInLoop();
        switch (state) {
            case AWAITING_HELLO -> closeWithBye();
            case OPEN, DRAINING -> {
                if (held.isHolding() || throttle.isHolding()) {
                    Frame heldBack = held.isHolding() ? held.takeBack() : throttle.takeBack();
                    refuseForShutdown(heldBack);
                    if (!readingStopped) {
                        connection.resumeReading();
                    }
                }
                beginDrain();
            }
            default -> {
            }
        }
    }

    /** The shutdown's time is up: every request still in flight gets {@code server.shutdown}; BYE; close. */
    void forceShutdown() {
        guarded(this::giveUpWaiting).run();
    }

    private void giveUpWaiting() {
        assertInLoop();
        if (state == SessionState.CLOSED) {
            return;
        }
        inFlight.giveUp();
        if (fault != null) {
            closeWithFault();
        } else {
            closeWithBye();
        }
    }

    /** Requests handed to handlers and not answered yet. Any thread. */
    int requestsInFlight() {
        return inFlight.size();
    }

    /** Requests the session still keeps track of, answered ones not yet dropped included. On the loop; for tests. */
    int requestsTracked() {
        return inFlight.tracked();
    }

    // ---- frames ----------------------------------------------------------------------------------

    private boolean decoding() {
        return !held.isHolding() && !throttle.isHolding() && !readingStopped && !verifying
                && (state == SessionState.AWAITING_HELLO || state == SessionState.OPEN
                    || state == SessionState.DRAINING);
    }

    private void handle(Frame frame) {
        assertInLoop();
        if (state == SessionState.AWAITING_HELLO) {
            if (frame.type() == FrameType.HELLO) {
                hello(frame);
            } else {
                closeWithError(frame.corrId(), ErrorCode.AUTH_REQUIRED,
                        "the first frame must be HELLO, not " + frame.type());
            }
            return;
        }
        switch (frame.type()) {
            case REQUEST, SEND -> route(frame);
            case PING -> write(Frame.pong(frame.corrId(), frame.content()));
            case BYE -> byeFromClient();
            case HELLO -> write(Replies.error(frame.corrId(), ErrorCode.AUTH_ALREADY,
                    "this connection is already session " + id() + " of tenant '" + tenant.id() + "'"));
            default -> write(Replies.error(frame.corrId(), ErrorCode.FRAME_UNEXPECTED,
                    "a client does not send " + frame.type()));
        }
    }

    /**
     * Hands the HELLO to the {@link Authenticator} (the token's slow hash is verified off this loop) and
     * decodes nothing more until its outcome comes back, through {@link Connection#execute}, to
     * {@link #authenticated}.
     */
    private void hello(Frame frame) {
        timers.stopAuth();
        verifying = true;
        connection.suspendReading();
        // A node that is joining its cluster checks credentials once it knows the cluster's tenants.
        sessions.placements().whenJoined(connection::execute, guarded(() -> authenticate(frame)));
    }

    private void authenticate(Frame frame) {
        if (state != SessionState.AWAITING_HELLO) {
            return; // closed meanwhile
        }
        sessions.authenticator().authenticate(connection.remoteAddress().getAddress(), connection.tlsSession(),
                frame.name(), frame.content(), connection::execute,
                outcome -> guarded(() -> authenticated(frame, outcome)).run());
    }

    /**
     * The HELLO's outcome, on the loop: WELCOME; or, refused, ERROR {@code auth.failed} after the guard's
     * delay ({@link Connection#schedule}); blocked, {@code auth.failed} at once; {@code server.busy}.
     */
    private void authenticated(Frame frame, Authenticator.Outcome outcome) {
        assertInLoop();
        if (state != SessionState.AWAITING_HELLO) {
            return; // closed meanwhile (client gone, server stopping)
        }
        switch (outcome.result()) {
            case ACCEPTED -> place(frame, outcome.tenant());
            case REFUSED -> {
                LOG.debug("Connection {} from {}: authentication as tenant '{}' failed ({}); answering in {} ms",
                        connection.id(), connection.remoteAddress(), printable(frame.name()), outcome.reason(),
                        outcome.delay().toMillis());
                Runnable refuse = () -> {
                    if (state == SessionState.AWAITING_HELLO) {
                        closeWithError(frame.corrId(), ErrorCode.AUTH_FAILED,
                                "unknown tenant, wrong token or wrong client certificate");
                    }
                };
                if (outcome.delay().isZero()) {
                    refuse.run();
                } else {
                    connection.schedule(guarded(refuse), outcome.delay());
                }
            }
            case BLOCKED -> closeWithError(frame.corrId(), ErrorCode.AUTH_FAILED, "too many failed HELLOs from "
                    + connection.remoteAddress().getAddress().getHostAddress() + "; refused unchecked for "
                    + Math.max(1, outcome.delay().toSeconds()) + " s more");
            case BUSY -> closeWithError(frame.corrId(), ErrorCode.SERVER_BUSY,
                    "too many HELLOs are waiting to be verified; connect again shortly");
        }
    }

    /**
     * Credentials accepted: asks where the tenant is served ({@link io.troupe.server.cluster.TenantPlacements};
     * standalone, here, at once). In a cluster the answer comes back through the loop: here, admit; another
     * node, ERROR {@code tenant.moved} with its address; nowhere now, {@code server.busy}.
     */
    private void place(Frame frame, Tenant candidate) {
        var placements = sessions.placements();
        long epoch = placements.epoch(candidate.id());
        placements.place(candidate.id(), connection::execute,
                placement -> guarded(() -> placed(frame, candidate, placement, epoch)).run());
    }

    private void placed(Frame frame, Tenant candidate, Placement placement, long epoch) {
        assertInLoop();
        if (state != SessionState.AWAITING_HELLO) {
            return; // closed meanwhile
        }
        switch (placement.kind()) {
            case LOCAL -> admit(frame, candidate, epoch);
            case ELSEWHERE -> {
                LOG.debug("Connection {} from {}: tenant '{}' is served at '{}'; redirected", connection.id(),
                        connection.remoteAddress(), candidate.id(), placement.ownerAddress());
                write(Redirect.error(frame.corrId(), placement.ownerAddress()));
                close();
            }
            case UNAVAILABLE -> {
                LOG.info("Connection {} from {}: tenant '{}' cannot be served now: {}", connection.id(),
                        connection.remoteAddress(), candidate.id(), placement.reason());
                closeWithError(frame.corrId(), ErrorCode.SERVER_BUSY, placement.reason());
            }
        }
    }

    /** The tenant is served here: counts the session against the tenant's quota, WELCOME, and reads on. */
    private void admit(Frame frame, Tenant candidate, long epoch) {
        switch (candidate.admit(this)) {
            case QUOTA_EXCEEDED -> {
                candidate.metrics().countError(ErrorCode.QUOTA_CONNECTIONS.code());
                LOG.info("Connection {} from {}: tenant '{}' is at its limit of {} connections", connection.id(),
                        connection.remoteAddress(), candidate.id(), candidate.config().maxConnections());
                closeWithError(frame.corrId(), ErrorCode.QUOTA_CONNECTIONS, "tenant '" + candidate.id()
                        + "' has reached its limit of " + candidate.config().maxConnections() + " connections");
                return;
            }
            case REMOVED -> {
                closeWithError(frame.corrId(), ErrorCode.AUTH_FAILED, "unknown tenant or wrong token");
                return;
            }
            default -> {
            }
        }
        if (sessions.placements().epoch(candidate.id()) != epoch) {
            // The tenant began to move away after the placement was answered: ask again (the answer now waits
            // for the move's redirect). Counted first, checked after: a handover lists this session or it sees
            // the new epoch here.
            candidate.leave(this);
            place(frame, candidate);
            return;
        }
        tenant = candidate;
        verifying = false;
        connection.markAuthenticated();
        throttle.attach(candidate);
        inFlight.countFor(candidate.metrics());
        state = SessionState.OPEN;
        connection.fairnessGroup(candidate.id()); // the loop reads this tenant's connections in turn with others'
        write(Frame.welcome(frame.corrId(), id()));
        decoder.setMaxFrameBytes(frameLimit());
        SessionLimits limits = sessions.limits();
        if (limits.closesIdleSessions()) {
            timers.checkIdleAfter(limits.idleTimeout());
        }
        LOG.debug("Session {} opened for tenant '{}' from {}", connection.id(), tenant.id(),
                connection.remoteAddress());
        readOn(); // the frames after HELLO, left unread while it was verified
    }

    private void route(Frame frame) {
        tenant.metrics().countRequest();
        if (state != SessionState.OPEN) {
            refuseForShutdown(frame);
            return;
        }
        Optional<ActorRef> handler;
        try {
            handler = sessions.runtime().handler(tenant.id(), frame.name());
        } catch (TroupeException e) {
            if (!io.troupe.api.ErrorCode.TENANT_LIMIT_ACTORS.equals(e.code())) {
                throw e;
            }
            write(Replies.tenantLimitActors(frame.corrId(), frame.name(), tenant.id(), e.detail()));
            return;
        }
        if (handler.isEmpty()) {
            write(Replies.error(frame.corrId(), ErrorCode.NO_HANDLER,
                    "no handler for '" + frame.name() + "' in tenant '" + tenant.id() + "'"));
            return;
        }
        ActorRef target = handler.get();
        if (!held.hold(frame, target)) {
            deliver(frame, target);
        }
    }

    /** The handler's mailbox drained: route the frame held back, and read on. */
    private void drained(Frame frame, ActorRef target) {
        assertInLoop();
        if (state == SessionState.CLOSED) {
            return; // closing: the frame goes unanswered with the connection
        }
        deliver(frame, target);
        readOn();
    }

    /** The tenant's limits let the held frame through: handle it, and read on. */
    private void released(Frame frame) {
        assertInLoop();
        if (state == SessionState.CLOSED) {
            return; // closing: the frame goes unanswered with the connection
        }
        handle(frame);
        readOn();
    }

    /** Resumes reading unless a frame is held (again) or the session no longer reads. */
    private void readOn() {
        if (held.isHolding() || throttle.isHolding() || state == SessionState.CLOSED || readingStopped) {
            return;
        }
        connection.resumeReading(); // the reactor presents the bytes left unconsumed again
        if (inputEnded) {
            connection.execute(guarded(this::stopAtEndOfInput)); // after those bytes are decoded
        }
    }

    private void deliver(Frame frame, ActorRef target) {
        Message message = new Message(frame.name(), frame.content(), client());
        if (frame.type() == FrameType.SEND) {
            target.tell(message);
            return;
        }
        inFlight.ask(target, message, frame.corrId(), sessions.limits().requestTimeout());
    }

    /**
     * The session's actor, which handlers find in {@link Message#client()}: spawned with the first message
     * that carries it, since a session that never sent one cannot be pushed to (an idle connection holds no
     * actor: about 360 bytes of heap less each).
     */
    private ActorRef client() {
        if (actor == null) {
            actor = sessions.runtime().spawn(() -> new SessionActor(this),
                    ActorOptions.defaults().withName("session-" + id()));
        }
        return actor;
    }

    private void refuseForShutdown(Frame frame) {
        if (frame.type() == FrameType.REQUEST || frame.type() == FrameType.SEND) {
            write(Replies.error(frame.corrId(), ErrorCode.SERVER_SHUTDOWN,
                    "the server is stopping; '" + frame.name() + "' was not run"));
        }
    }

    // ---- ending ----------------------------------------------------------------------------------

    private void byeFromClient() {
        readingStopped = true;
        connection.suspendReading();
        beginDrain();
    }

    /** The client sent its last byte: once the frames before it are routed, drain as for BYE. */
    private void stopAtEndOfInput() {
        if (inputEnded && !held.isHolding() && !throttle.isHolding() && !readingStopped
                && (state == SessionState.OPEN || state == SessionState.DRAINING)) {
            readingStopped = true;
            beginDrain();
        }
    }

    private void beginDrain() {
        if (state != SessionState.OPEN && state != SessionState.DRAINING) {
            return;
        }
        state = SessionState.DRAINING;
        inFlight.draining(); // before finishDrain looks at it: see RequestsInFlight
        timers.stopIdle();
        finishDrain();
    }

    /** The last request of a drain was answered: {@link #finishDrain}, guarded as every loop task is. */
    private void lastAnswered() {
        try {
            finishDrain();
        } catch (RuntimeException e) {
            failed("a loop task", e);
        }
    }

    private void finishDrain() {
        assertInLoop();
        if (state != SessionState.DRAINING || held.isHolding() || throttle.isHolding() || !inFlight.isEmpty()) {
            return;
        }
        if (fault != null) {
            closeWithFault();
        } else if (handover != null) {
            reportDrained(); // paused for a handover: the BYE waits for the redirect
        } else if (readingStopped) {
            closeWithBye();
        } else {
            sayByeAndLinger();
        }
    }

    /**
     * Server shutdown, everything answered: BYE, then keep reading until the client closes (or
     * {@link #SHUTDOWN_LINGER}), so that frames already on their way get ERROR {@code server.shutdown}
     * instead of vanishing with the connection.
     */
    private void sayByeAndLinger() {
        if (byeSent) {
            return;
        }
        byeSent = true;
        write(Frame.bye());
        timers.linger(SHUTDOWN_LINGER, this::close);
    }

    /**
     * A frame could not be decoded. Before authentication, or for a fault that does not end the
     * session, the ERROR goes at once. Otherwise the session stops reading, lets the requests it
     * accepted before the fault finish (each within its request timeout, when the sweep answers it
     * {@code handler.timeout}) and write their answers, then sends the ERROR and closes: the client
     * learns the outcome of every request it sent before the bad frame.
     */
    private void protocolFault(FrameException e) {
        LOG.debug("Session {} from {}: {}", connection.id(), connection.remoteAddress(), e.getMessage());
        Frame error = e.toErrorFrame();
        if (!e.code().closesConnection()) {
            write(error);
            return;
        }
        if (state != SessionState.OPEN && state != SessionState.DRAINING) {
            write(error);
            close();
            return;
        }
        fault = error;
        readingStopped = true;
        connection.suspendReading();
        beginDrain();
    }

    /** The fault's ERROR, after every answer queued before it, and close. */
    private void closeWithFault() {
        Frame error = fault;
        fault = null;
        write(error);
        close();
    }

    private void closeWithError(long corrId, ErrorCode code, String detail) {
        write(Replies.error(corrId, code, detail));
        close();
    }

    private void closeWithBye() {
        closeWithBye(null);
    }

    /** BYE, with {@code reason} as its UTF-8 content when there is one, and close. */
    private void closeWithBye(String reason) {
        if (state != SessionState.CLOSED) {
            if (!byeSent) {
                byeSent = true;
                write(reason == null ? Frame.bye() : Replies.bye(reason));
            }
            close();
        }
    }

    /** Closes once pending output is written; nothing more is decoded. */
    private void close() {
        if (state == SessionState.CLOSED) {
            return;
        }
        state = SessionState.CLOSED;
        timers.cancelAll();
        connection.close();
    }

    private void failed(String where, RuntimeException e) {
        LOG.error("Session {} from {} failed in {}; closing its connection", connection.id(),
                connection.remoteAddress(), where, e);
        state = SessionState.CLOSED;
        timers.cancelAll();
        connection.abort();
    }

    // ---- timers ----------------------------------------------------------------------------------

    private void authTimedOut() {
        assertInLoop();
        if (state == SessionState.AWAITING_HELLO) {
            Duration timeout = sessions.limits().authTimeout();
            LOG.debug("Connection {} from {} sent no HELLO within {} s; closing it", connection.id(),
                    connection.remoteAddress(), timeout.toSeconds());
            closeWithError(0L, ErrorCode.AUTH_REQUIRED, "no HELLO within " + timeout.toSeconds() + " s");
        }
    }

    /** What the idle check asks: the session's state, its requests in flight and its held frame. */
    private final class Quietness implements SessionTimers.Idleness {

        @Override
        public Duration idleTimeout() {
            assertInLoop();
            SessionLimits limits = sessions.limits();
            return state == SessionState.OPEN && limits.closesIdleSessions() ? limits.idleTimeout() : Duration.ZERO;
        }

        @Override
        public boolean waitingForServer() {
            return held.isHolding() || throttle.isHolding() || !inFlight.isEmpty();
        }

        @Override
        public long lastAnswerNanos() {
            return inFlight.lastAnswerNanos();
        }

        @Override
        public void idle() {
            LOG.info("Session {} of tenant '{}' from {} sent nothing for {} s; closing it", connection.id(),
                    tenant.id(), connection.remoteAddress(), sessions.limits().idleTimeout().toSeconds());
            closeWithBye();
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** The server's frame limit, lowered by the tenant's, within what the input buffer holds. */
    private int frameLimit() {
        int server = sessions.limits().maxFrameBytes();
        int limit = tenant == null ? server : tenant.config().limits().frameLimit(server);
        return Math.min(limit, maxBufferedFrame);
    }

    private void write(Frame frame) {
        if (tenant != null && frame.type() == FrameType.ERROR) {
            tenant.metrics().countError(frame.name());
        }
        inFlight.flushAnswers(); // answers completed before this frame go first
        connection.write(FrameEncoder.encode(frame));
        outputWritten();
    }

    /** This connection's share of its tenant's pending output is read again. On the loop. */
    private void outputWritten() {
        throttle.outputWritten();
    }

    /** Runs {@code task}, closing this connection alone if it throws. */
    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                failed("a loop task", e);
            }
        };
    }

    private void assertInLoop() {
        assert connection.inLoop() : "session " + id() + " used on " + Thread.currentThread().getName()
                + ", not on its connection's loop";
    }

    /** At most 64 characters of a client-chosen string, for log lines. */
    private static String printable(String text) {
        String shown = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }

    @Override
    public String toString() {
        return "Session[" + id() + (tenant == null ? "" : " of " + tenant.id()) + ", " + state + "]";
    }
}
