package io.troupe.host.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class LoopFailuresTest {

    @Test
    void anOrdinaryFailureIsLoggedAndTheLoopGoesOn() {
        try (RecordingFatalAction action = RecordingFatalAction.install()) {
            LoopFailures failures = new LoopFailures("IO loop test-1");
            for (int i = 0; i < LoopFailures.MAX_FAILURES - 1; i++) {
                failures.failed("running an iteration", new IllegalStateException("bug " + i));
            }
            assertEquals(0, action.heard().size());
        }
    }

    @Test
    void aFatalErrorGoesToTheActionAndIsThrownOn() {
        try (RecordingFatalAction action = RecordingFatalAction.install()) {
            LoopFailures failures = new LoopFailures("IO loop test-1");
            OutOfMemoryError error = new OutOfMemoryError("Java heap space");
            Error thrown = assertThrows(Error.class, () -> failures.failed("running an iteration", error));
            assertSame(error, thrown);
            assertEquals(1, action.heard().size());
            assertEquals("running an iteration", action.heard().get(0).doing());
        }
    }

    @Test
    void oneFailureTooManyWithinTheWindowIsFatal() {
        try (RecordingFatalAction action = RecordingFatalAction.install()) {
            LoopFailures failures = new LoopFailures("Timer thread t", new FailureWindow(3, Duration.ofMinutes(1)));
            failures.failed("waiting", new IllegalStateException("1"));
            failures.failed("waiting", new IllegalStateException("2"));
            IllegalStateException third = new IllegalStateException("3");
            Error thrown = assertThrows(Error.class, () -> failures.failed("waiting", third));
            assertInstanceOf(LoopFailures.RestartIntensityError.class, thrown);
            assertSame(third, thrown.getCause());
            assertTrue(thrown.getMessage().startsWith("Timer thread t failed 3 times within 60 s"), thrown::getMessage);
            assertEquals(1, action.heard().size());
        }
    }
}
