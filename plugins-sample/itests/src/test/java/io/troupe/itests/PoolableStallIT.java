package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.composite;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.options;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

import io.troupe.api.ActorFactory;
import io.troupe.api.Handler;
import io.troupe.api.Message;
import io.troupe.api.Poolable;
import io.troupe.api.TroupeRuntime;
import io.troupe.api.monitor.PoolStats;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.testsupport.Await;

/**
 * Issue 5's "done when", in a real framework: a poolable plugin handler that blocks for 10 s in
 * {@code receive} is reported as a stall within 3 s (default stall threshold, 2 s); meanwhile its
 * actor pool grows, so other requests to the same handler are answered, and the worker pool, started
 * with a single worker, grows, so the echo plugin's actor is served too; once the block is over both
 * pools shrink back to their minimum. Everything is observed through the host's
 * {@link RuntimeStats} service and its log, never through test doubles of the runtime.
 *
 * <p>The framework runs with {@code troupe.workers=1} (so that the blocked turn takes the only
 * worker), {@code troupe.workers.idleSeconds=2} and {@code troupe.pool.idleSeconds=2} (so that the
 * pools shrink within seconds) and {@code troupe.pool.cooldownMillis=500}.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PoolableStallIT extends FrameworkTest {

    private static final String NAME = "itest.blocking";
    private static final Duration ASK = Duration.ofSeconds(30);
    private static final Duration STALL_DEADLINE = Duration.ofSeconds(3);
    private static final Duration SHRINK_TIMEOUT = Duration.ofSeconds(30);

    @Inject
    private TroupeRuntime runtime;

    @Inject
    private RuntimeStats stats;

    @Inject
    private BundleContext context;

    private final BlockingPoolable factory = new BlockingPoolable();
    private ServiceRegistration<ActorFactory> registration;

    @Override
    @Configuration
    public Option[] configuration() {
        return options(
                composite(TroupeFramework.configuration()),
                frameworkProperty("troupe.workers").value("1"),
                frameworkProperty("troupe.workers.max").value("4"),
                frameworkProperty("troupe.workers.idleSeconds").value("2"),
                frameworkProperty("troupe.pool.idleSeconds").value("2"),
                frameworkProperty("troupe.pool.cooldownMillis").value("500"));
    }

    @After
    public void unregister() {
        factory.unblock(); // a failed test must not leave a worker blocked
        if (registration != null) {
            registration.unregister();
        }
    }

    @Test
    public void aBlockedTurnIsReportedWhileBothPoolsGrowAndTheyShrinkBackAfterwards() throws Exception {
        Requests.awaitHandler(runtime, "echo");
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Handler.PROPERTY, NAME);
        properties.put(Poolable.MIN, 1);
        properties.put(Poolable.MAX, 4);
        registration = context.registerService(ActorFactory.class, factory, properties);
        Requests.awaitHandler(runtime, NAME);
        assertEquals("hello", text(Requests.ask(runtime, Message.of(NAME, "hello"))));
        PoolStats before = pool(stats.snapshot());
        assertNotNull("the handler is served by an actor pool", before);
        assertEquals(1, before.size());
        assertEquals(1, before.min());
        assertEquals(4, before.max());
        assertEquals(1, stats.snapshot().workers().current());
        long stallsBefore = stats.snapshot().stalls();

        try (LogCapture log = LogCapture.start()) {
            long start = System.nanoTime();
            CompletableFuture<Object> blocked = ask(NAME, BlockingPoolable.BLOCK);
            assertTrue("the block began", factory.blocking.await(5, TimeUnit.SECONDS));
            List<CompletableFuture<Object>> queued = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                queued.add(ask(NAME, "queued-" + i)); // behind the blocked member: the backlog
            }
            CompletableFuture<Object> echo = ask("echo", "served while blocked"); // waits for a worker

            Duration left = STALL_DEADLINE.minusNanos(System.nanoTime() - start);
            Await.until("the stall is reported, within " + STALL_DEADLINE + " of the blocking request", left,
                    () -> stats.snapshot().stalls() > stallsBefore, () -> describe(stats.snapshot()));
            log.awaitLine(Duration.ofSeconds(5), "has been running actor", "handler:" + NAME,
                    "Message '" + NAME + "'");

            assertEquals("served while blocked", text(echo.get(5, TimeUnit.SECONDS)));
            Await.until("the actor pool grew", () -> pool(stats.snapshot()).size() >= 2,
                    () -> describe(stats.snapshot()));
            assertEquals("fresh", text(ask(NAME, "fresh").get(5, TimeUnit.SECONDS)));
            assertFalse("answered while the other member still blocks", blocked.isDone());
            RuntimeSnapshot during = stats.snapshot();
            assertTrue("the worker pool grew: " + describe(during), during.workers().current() >= 2);
            assertTrue("the blocked worker is reported stalled: " + describe(during),
                    during.workers().stalled() >= 1);
            Await.until("the pool knows its blocked member is stalled", () -> pool(stats.snapshot()).stalled() == 1,
                    () -> describe(stats.snapshot())); // published at the end of the monitor's look

            assertEquals(BlockingPoolable.BLOCK, text(blocked.get(BlockingPoolable.BLOCK_SECONDS + 5, TimeUnit.SECONDS)));
            for (int i = 0; i < queued.size(); i++) {
                assertEquals("queued-" + i, text(queued.get(i).get(5, TimeUnit.SECONDS)));
            }

            Await.until("the actor pool shrank back to its minimum", SHRINK_TIMEOUT,
                    () -> pool(stats.snapshot()).size() == 1, () -> describe(stats.snapshot()));
            Await.until("the worker pool shrank back to troupe.workers", SHRINK_TIMEOUT,
                    () -> stats.snapshot().workers().current() == 1, () -> describe(stats.snapshot()));
            log.awaitLine(Duration.ofSeconds(5), "Growing the actor pool of '" + NAME + "'");
            log.awaitLine(Duration.ofSeconds(5), "Shrinking the actor pool of '" + NAME + "'", "idle");
            log.awaitLine(Duration.ofSeconds(5), "Growing the worker pool from 1");
            log.awaitLine(Duration.ofSeconds(5), "Shrinking the worker pool");
        }
        assertEquals("after", text(Requests.ask(runtime, Message.of(NAME, "after"))));
        assertEquals(0, pool(stats.snapshot()).stalled());
    }

    private CompletableFuture<Object> ask(String name, String text) {
        return runtime.ask(TroupeRuntime.DEFAULT_TENANT, Message.of(name, text), ASK).toCompletableFuture();
    }

    private static PoolStats pool(RuntimeSnapshot snapshot) {
        return snapshot.pools().stream()
                .filter(pool -> pool.handler().equals(NAME) && pool.tenant().equals(TroupeRuntime.DEFAULT_TENANT))
                .findFirst().orElse(null);
    }

    private static String text(Object reply) {
        assertTrue("reply should be bytes, was " + reply, reply instanceof byte[]);
        return new String((byte[]) reply, UTF_8);
    }

    private static String describe(RuntimeSnapshot snapshot) {
        return "workers " + snapshot.workers().current() + " (stalled " + snapshot.workers().stalled() + ", queued "
                + snapshot.workers().queued() + "), stalls " + snapshot.stalls() + ", pools " + snapshot.pools();
    }
}
