package io.troupe.host.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class FailureWindowTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void countsTheFailuresWithinTheWindowOnly() {
        FailureWindow window = new FailureWindow(3, Duration.ofSeconds(10));
        assertEquals(1, window.record(0));
        assertEquals(2, window.record(5 * SECOND));
        assertEquals(2, window.record(12 * SECOND), "the first failure left the window");
        assertEquals(3, window.record(13 * SECOND));
        assertEquals(1, window.record(40 * SECOND), "every earlier failure left the window");
    }

    @Test
    void neverCountsMoreThanItRemembers() {
        FailureWindow window = new FailureWindow(3, Duration.ofSeconds(10));
        for (int i = 0; i < 10; i++) {
            window.record(i);
        }
        assertEquals(3, window.record(11));
    }

    @Test
    void refusesAnEmptyRing() {
        assertThrows(IllegalArgumentException.class, () -> new FailureWindow(0, Duration.ofSeconds(1)));
    }
}
