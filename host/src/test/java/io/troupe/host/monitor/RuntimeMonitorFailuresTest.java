package io.troupe.host.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.host.actor.ActorSystem;
import io.troupe.host.deploy.SwapCounts;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.plugin.ActorPools;
import io.troupe.host.reactor.EventLoop;
import io.troupe.host.supervise.LoopFailures;
import io.troupe.host.supervise.RecordingFatalAction;
import io.troupe.host.timer.TimerThread;

/**
 * The monitor thread under failures: ticks that throw are logged and the next tick comes; a fatal error, or
 * one failure too many within the window, goes to the process's fatal action.
 */
@Timeout(30)
class RuntimeMonitorFailuresTest {

    private static final MonitorSettings FAST = MonitorSettings.defaults()
            .withPeriod(Duration.ofMillis(10))
            .withSummaryInterval(Duration.ZERO)
            .withStatsWindow(Duration.ofMillis(50));

    private final RecordingFatalAction fatal = RecordingFatalAction.install();
    private final TimerThread timer = new TimerThread("monitor-test-timer");
    private final WorkerPool pool = new WorkerPool(1, 1, "monitor-test-worker",
            RuntimeMonitorFailuresTest.class.getClassLoader());
    private final ActorSystem system = new ActorSystem(pool, timer, name -> Optional.empty(),
            ActorSystem.DEFAULT_THROUGHPUT);
    private RuntimeMonitor monitor;

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(monitor.stop(Duration.ofSeconds(5)));
        assertTrue(system.shutdown(Duration.ofSeconds(5)));
        assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        timer.shutdown(5, TimeUnit.SECONDS);
        fatal.close();
    }

    private void start(Supplier<List<EventLoop>> loops) {
        monitor = new RuntimeMonitor(FAST, pool, system, loops, new HostCounts(() -> 0, () -> 0, new SwapCounts()),
                MonitorListener.NONE, new ActorPools(), ActorPoolSettings.defaults());
        monitor.start("failing-monitor");
    }

    @Test
    void ticksThatThrowAreLoggedAndTheMonitorGoesOn() throws InterruptedException {
        AtomicInteger asked = new AtomicInteger();
        CountDownLatch healthyTicks = new CountDownLatch(5);
        start(() -> {
            if (asked.incrementAndGet() <= 3) {
                throw new IllegalStateException("a bug in tick " + asked.get());
            }
            healthyTicks.countDown();
            return List.of();
        });
        assertTrue(healthyTicks.await(5, TimeUnit.SECONDS), "the monitor stopped ticking after failing ticks");
        assertEquals(List.of(), fatal.heard());
    }

    @Test
    void failingAtEveryTickIsFatalOnceTheRestartIntensityIsExceeded() throws InterruptedException {
        start(() -> {
            throw new IllegalStateException("a bug in every tick");
        });
        RecordingFatalAction.Fatal heard = fatal.awaitFirst(5);
        assertEquals("failing-monitor", heard.thread());
        assertTrue(heard.error().getMessage().startsWith("Monitor failing-monitor failed " + LoopFailures.MAX_FAILURES
                + " times within " + LoopFailures.WINDOW_SECONDS + " s"), heard.error().getMessage());
        assertInstanceOf(IllegalStateException.class, heard.error().getCause());
    }

    @Test
    void aStackOverflowInATickIsFatal() throws InterruptedException {
        start(() -> {
            throw new StackOverflowError();
        });
        RecordingFatalAction.Fatal heard = fatal.awaitFirst(5);
        assertInstanceOf(StackOverflowError.class, heard.error());
        assertEquals("looking at the runtime (a tick)", heard.doing());
    }
}
