package io.troupe.host.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.host.supervise.RecordingFatalAction;

/** The timer thread under failures: a throwing action leaves it its queue; a fatal error is handed over. */
@Timeout(30)
class TimerThreadFailuresTest {

    private static final long MILLI = 1_000_000L;

    private TimerThread timer;
    private RecordingFatalAction fatal;

    @BeforeEach
    void start() {
        fatal = RecordingFatalAction.install();
        timer = new TimerThread("failing-timer");
    }

    @AfterEach
    void stop() throws InterruptedException {
        timer.shutdown(5, TimeUnit.SECONDS);
        fatal.close();
    }

    @Test
    void actionsDueWithAndAfterAThrowingOneStillRun() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(3);
        timer.schedule(ran::countDown, 10 * MILLI);
        timer.schedule(() -> {
            throw new IllegalStateException("an action's bug");
        }, 10 * MILLI);
        timer.schedule(ran::countDown, 10 * MILLI);
        timer.schedule(ran::countDown, 50 * MILLI);
        assertTrue(ran.await(5, TimeUnit.SECONDS), "actions left: " + ran.getCount());
        assertEquals(0, fatal.heard().size());
    }

    @Test
    void aStackOverflowInAnActionIsFatal() throws InterruptedException {
        timer.schedule(() -> recurse(0), 0);
        RecordingFatalAction.Fatal heard = fatal.awaitFirst(5);
        assertEquals("failing-timer", heard.thread());
        assertInstanceOf(StackOverflowError.class, heard.error());
        assertEquals("running a timer action", heard.doing());
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }
}
