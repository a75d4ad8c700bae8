package io.troupe.server.session;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

import io.troupe.api.net.Cancellable;
import io.troupe.api.net.Connection;

/**
 * The timers of one session, all on its connection's loop ({@link Connection#schedule}):
 *
 * <ul>
 *   <li><b>auth</b>: from the connection's open until HELLO; when it fires first, the session refuses
 *       the connection;</li>
 *   <li><b>idle</b>: while the session is open, one check at a time, set for when the session would have
 *       been quiet for the idle timeout. Quiet time runs from the last frame received or the last answer
 *       sent, whichever is later; a session waiting for the server (a request in flight, a frame held
 *       back) is never idle, and is checked again a full timeout later;</li>
 *   <li><b>linger</b>: after the BYE of a server shutdown, how long the session reads on before it
 *       closes.</li>
 * </ul>
 *
 * <p>The session says what the idle check needs to know through {@link Idleness}; this class keeps the
 * time of the last frame, decides, and re-arms.
 *
 * <p><b>Threading:</b> confined to the connection's loop, like the session, and so are the timers' tasks.
 */
final class SessionTimers {

    /** The shortest delay a timer is set for, so that a check "now" still runs as a task of its own. */
    static final Duration MIN_DELAY = Duration.ofMillis(1);

    /** What the idle check asks the session. On the loop. */
    interface Idleness {

        /** The idle timeout in force, or zero when the session is not open or idle sessions are kept. */
        Duration idleTimeout();

        /** Whether the session waits for the server: a request in flight or a frame held back. */
        boolean waitingForServer();

        /** When the last answer was sent ({@link RequestsInFlight#lastAnswerNanos()}). */
        long lastAnswerNanos();

        /** The session has been quiet for the idle timeout: close it. */
        void idle();
    }

    private final Connection connection;
    private final LongSupplier nanoClock;
    private final UnaryOperator<Runnable> guard;
    private final Idleness idleness;

    // Loop-confined.
    private Cancellable auth;
    private Cancellable idle;
    private Cancellable linger;
    private long lastFrameNanos;

    /**
     * @param connection the session's connection, whose loop runs the timers
     * @param nanoClock  the monotonic clock quiet time is measured with
     * @param guard      wraps every timer task, so that a failure closes this connection alone
     * @param idleness   what the idle check needs from the session
     */
    SessionTimers(Connection connection, LongSupplier nanoClock, UnaryOperator<Runnable> guard, Idleness idleness) {
        this.connection = connection;
        this.nanoClock = nanoClock;
        this.guard = guard;
        this.idleness = idleness;
    }

    /** Starts the wait for HELLO: {@code onTimeout} runs unless {@link #stopAuth()} comes within {@code timeout}. */
    void startAuth(Duration timeout, Runnable onTimeout) {
        auth = connection.schedule(guard.apply(() -> {
            auth = null;
            onTimeout.run();
        }), timeout);
    }

    /** HELLO arrived. */
    void stopAuth() {
        cancel(auth);
        auth = null;
    }

    /** A frame arrived: quiet time starts again. */
    void frameReceived() {
        lastFrameNanos = nanoClock.getAsLong();
    }

    /** Sets the idle check for {@code delay} from now (at least {@link #MIN_DELAY}), replacing one that is set. */
    void checkIdleAfter(Duration delay) {
        cancel(idle);
        Duration atLeast = delay.compareTo(MIN_DELAY) < 0 ? MIN_DELAY : delay;
        idle = connection.schedule(guard.apply(this::checkIdle), atLeast);
    }

    /** No more idle checks (until {@link #checkIdleAfter} again). */
    void stopIdle() {
        cancel(idle);
        idle = null;
    }

    /** After the shutdown's BYE: {@code then} runs in {@code delay}, unless {@link #cancelAll()} runs first. */
    void linger(Duration delay, Runnable then) {
        linger = connection.schedule(guard.apply(then), delay);
    }

    /** The session closes: no timer fires any more. */
    void cancelAll() {
        stopAuth();
        stopIdle();
        cancel(linger);
        linger = null;
    }

    private void checkIdle() {
        idle = null;
        Duration timeout = idleness.idleTimeout();
        if (timeout.isZero()) {
            return;
        }
        if (idleness.waitingForServer()) {
            checkIdleAfter(timeout); // waiting for the server is not idleness
            return;
        }
        long lastAnswer = idleness.lastAnswerNanos();
        long lastActivity = lastAnswer - lastFrameNanos > 0 ? lastAnswer : lastFrameNanos;
        long quiet = nanoClock.getAsLong() - lastActivity;
        long idleNanos = timeout.toNanos();
        if (quiet >= idleNanos) {
            idleness.idle();
        } else {
            checkIdleAfter(Duration.ofNanos(idleNanos - quiet));
        }
    }

    private static void cancel(Cancellable timer) {
        if (timer != null) {
            timer.cancel();
        }
    }
}
