package io.troupe.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@link SessionTimers} on an in-memory connection with a manual clock: the auth timeout fires unless
 * stopped; the idle check closes a session quiet for the timeout, counts quiet time from the later of
 * the last frame and the last answer, re-arms for what is left, waits a full timeout while the session
 * waits for the server, and does nothing once the session is no longer watched; linger runs its task;
 * {@code cancelAll} silences everything.
 */
class SessionTimersTest {

    private static final Duration IDLE = Duration.ofSeconds(60);

    private final ManualConnection connection = new ManualConnection();
    private final long start = connection.nanoTime();
    private final List<String> events = new ArrayList<>();
    private Duration idleTimeout = IDLE;
    private boolean waitingForServer;
    private long lastAnswerNanos;
    private final SessionTimers timers = new SessionTimers(connection, connection::nanoTime, task -> task,
            new SessionTimers.Idleness() {

                @Override
                public Duration idleTimeout() {
                    return idleTimeout;
                }

                @Override
                public boolean waitingForServer() {
                    return waitingForServer;
                }

                @Override
                public long lastAnswerNanos() {
                    return lastAnswerNanos;
                }

                @Override
                public void idle() {
                    events.add("idle at " + seconds());
                }
            });

    @Test
    void theAuthTimeoutFiresAtItsDeadlineUnlessHelloStopsIt() {
        timers.startAuth(Duration.ofSeconds(5), () -> events.add("auth at " + seconds()));
        connection.advance(Duration.ofMillis(4_999));
        assertTrue(events.isEmpty());
        connection.advance(Duration.ofMillis(1));
        assertEquals(List.of("auth at 5"), events);

        events.clear();
        timers.startAuth(Duration.ofSeconds(5), () -> events.add("auth again"));
        timers.stopAuth();
        connection.advance(Duration.ofSeconds(10));
        assertTrue(events.isEmpty());
    }

    @Test
    void aSessionQuietForTheIdleTimeoutIsIdleAndAFrameStartsItsQuietTimeAgain() {
        timers.frameReceived();
        timers.checkIdleAfter(IDLE);
        connection.advance(Duration.ofSeconds(30));
        timers.frameReceived();
        connection.advance(Duration.ofSeconds(59));
        assertTrue(events.isEmpty(), "the check at 60 s found 30 s of quiet and re-armed for the other 30");
        connection.advance(Duration.ofSeconds(1));
        assertEquals(List.of("idle at 90"), events);
    }

    @Test
    void quietTimeCountsFromTheLastAnswerWhenItCameAfterTheLastFrame() {
        timers.frameReceived();
        timers.checkIdleAfter(IDLE);
        connection.advance(Duration.ofSeconds(50));
        lastAnswerNanos = connection.nanoTime();
        connection.advance(Duration.ofSeconds(59));
        assertTrue(events.isEmpty());
        connection.advance(Duration.ofSeconds(1));
        assertEquals(List.of("idle at 110"), events);
    }

    @Test
    void aSessionWaitingForTheServerIsCheckedAgainAFullTimeoutLater() {
        timers.frameReceived();
        timers.checkIdleAfter(IDLE);
        waitingForServer = true;
        connection.advance(Duration.ofSeconds(150));
        assertTrue(events.isEmpty());

        waitingForServer = false;
        connection.advance(Duration.ofSeconds(30)); // the check set at 120 s runs at 180 s
        assertEquals(List.of("idle at 180"), events);
    }

    @Test
    void aCheckSetForNowRunsAsATaskOfItsOwnAndReplacesTheOneSet() {
        timers.frameReceived();
        timers.checkIdleAfter(IDLE);
        connection.advance(IDLE);
        assertEquals(List.of("idle at 60"), events);

        events.clear();
        timers.checkIdleAfter(Duration.ofSeconds(30));
        timers.checkIdleAfter(Duration.ZERO);
        assertTrue(events.isEmpty(), "not inside the call");
        connection.advance(SessionTimers.MIN_DELAY);
        connection.advance(Duration.ofSeconds(30));
        assertEquals(1, events.size(), "one check: the first was replaced");
    }

    @Test
    void aSessionNoLongerWatchedIsNeverIdle() {
        timers.frameReceived();
        timers.checkIdleAfter(IDLE);
        idleTimeout = Duration.ZERO; // draining, closed, or idle sessions kept
        connection.advance(Duration.ofMinutes(10));
        assertTrue(events.isEmpty());
    }

    @Test
    void stopIdleAndCancelAllSilenceTheirTimersAndLingerRunsItsTask() {
        timers.frameReceived();
        timers.checkIdleAfter(IDLE);
        timers.stopIdle();
        connection.advance(Duration.ofMinutes(5));
        assertTrue(events.isEmpty());

        timers.linger(Duration.ofMillis(500), () -> events.add("linger"));
        connection.advance(Duration.ofMillis(499));
        assertTrue(events.isEmpty());
        connection.advance(Duration.ofMillis(1));
        assertEquals(List.of("linger"), events);

        events.clear();
        timers.startAuth(Duration.ofSeconds(5), () -> events.add("auth"));
        timers.checkIdleAfter(IDLE);
        timers.linger(Duration.ofMillis(500), () -> events.add("linger"));
        timers.cancelAll();
        connection.advance(Duration.ofMinutes(5));
        assertTrue(events.isEmpty());
    }

    /** Seconds since the test began, by the manual clock. */
    private long seconds() {
        return Duration.ofNanos(connection.nanoTime() - start).toSeconds();
    }
}
