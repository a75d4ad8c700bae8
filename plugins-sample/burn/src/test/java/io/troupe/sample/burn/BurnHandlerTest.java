package io.troupe.sample.burn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.testkit.ActorHarness;

/**
 * Checks {@link BurnHandler}: the time asked for passes before the reply, and is spent on the CPU
 * (the thread's CPU time grows, which a sleep would not do); bad content is refused by name.
 *
 * <p><b>Threading:</b> JUnit's thread only; the harness runs each turn on it.
 */
class BurnHandlerTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Test
    void burnsTheMicrosecondsAskedOnTheCpuAndRepliesWithTheContent() throws Exception {
        ActorHarness burn = ActorHarness.start(new BurnHandler());
        byte[] content = "40000".getBytes(StandardCharsets.US_ASCII);
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        long wallBefore = System.nanoTime();

        Object reply = burn.deliver(Message.of("burn", "40000")).onlyMessage();

        long wall = System.nanoTime() - wallBefore;
        long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
        assertArrayEquals(content, assertInstanceOf(byte[].class, reply));
        assertTrue(wall >= TimeUnit.MICROSECONDS.toNanos(40_000), "replied after " + wall + " ns");
        // A busy machine may take the core away for part of the time, never for three quarters of it.
        assertTrue(cpu >= TimeUnit.MICROSECONDS.toNanos(10_000), "only " + cpu + " ns of CPU in " + wall + " ns");
    }

    @Test
    void zeroRepliesAtOnce() throws Exception {
        Object reply = ActorHarness.start(new BurnHandler()).deliver(Message.of("burn", "0")).onlyMessage();

        assertArrayEquals("0".getBytes(StandardCharsets.US_ASCII), assertInstanceOf(byte[].class, reply));
    }

    @Test
    void contentThatIsNotMicrosecondsWithinTheBoundsIsABadRequest() throws Exception {
        for (String bad : new String[] {"", "5 ms", "-1", "10000001", "123456789", "1e3"}) {
            Object reply = ActorHarness.start(new BurnHandler()).deliver(Message.of("burn", bad)).onlyMessage();

            Failure failure = assertInstanceOf(Failure.class, reply, bad);
            assertEquals(ErrorCode.BAD_REQUEST, failure.code(), bad);
            assertTrue(failure.detail().contains("'" + bad + "'") && failure.detail().contains("10000000"),
                    failure.detail());
        }
    }

    @Test
    void parsesTheLargestBurnAndNothingAboveIt() {
        assertEquals(BurnHandler.MAX_MICROS, BurnHandler.parseMicros("10000000".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(5000, BurnHandler.parseMicros("00005000".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-1, BurnHandler.parseMicros("10000001".getBytes(StandardCharsets.US_ASCII)));
    }
}
