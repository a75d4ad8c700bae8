package io.troupe.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.Version;

import io.troupe.testsupport.Await;

/**
 * The counter sample swapped between 1.0.0 and 2.0.0 by writing its jar into the deploy folder, as
 * an operator would, while the runtime is in use: no request is lost or reordered, each total moves
 * to the next revision, and the revisions left behind can be collected.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class, with
 * its own deploy folder. The load runs on sender threads of its own ({@link CounterLoad}).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class CounterHotSwapIT extends HotSwapTest {

    private static final String COUNTER_JAR = "counter.jar";
    private static final int SWAPS = 20;
    private static final int SENDERS = 4;
    private static final Duration WARM_UP = Duration.ofSeconds(1);
    private static final Duration STEADY_STATE = Duration.ofSeconds(3);

    @Test
    public void swappingTheCounterTwentyTimesUnderLoadLosesNoAdd() throws Exception {
        String tenant = "swap-under-load";
        folder.deploy(COUNTER_JAR, jars.counter("1.0.0"));
        Counters.awaitVersion(runtime, tenant, "1.0.0");
        Bundle counter = Bundles.find(context, PluginJars.COUNTER);

        List<String> swaps = new ArrayList<>();
        long longestSwap = 0;
        CounterLoad.Result result;
        try (CounterLoad load = CounterLoad.start(runtime, tenant, SENDERS)) {
            DeployFolder.pause(WARM_UP);
            load.phase(CounterLoad.Phase.STEADY);
            DeployFolder.pause(STEADY_STATE); // the load alone: the latencies to compare the swaps with
            load.phase(CounterLoad.Phase.SWAPS);
            for (int i = 1; i <= SWAPS; i++) {
                String version = i % 2 == 1 ? "2.0.0" : "1.0.0";
                folder.deploy(COUNTER_JAR, jars.counter(version));
                Duration took = Counters.awaitVersion(runtime, tenant, version);
                longestSwap = Math.max(longestSwap, took.toMillis());
                swaps.add(version + " after " + took.toMillis() + " ms");
                assertEquals("swap " + i + ": the bundle's version", Version.parseVersion(version),
                        counter.getVersion());
                assertEquals("swap " + i + ": the counter bundle", Bundle.ACTIVE, counter.getState());
            }
            result = load.stop();
        }

        System.out.println("[hot swap under load] " + SENDERS + " senders, " + SWAPS + " swaps (file written"
                + " until counter.version answered): " + swaps + "; longest " + longestSwap + " ms");
        System.out.println("[hot swap under load] latency steady state (" + STEADY_STATE.toSeconds()
                + " s without swaps, after " + WARM_UP.toSeconds() + " s of warm-up): " + result.steady().summary());
        System.out.println("[hot swap under load] latency during swaps: " + result.swapping().summary());

        assertEquals(result.problems(), 0, result.failed());
        assertTrue(result.problems(), result.orderViolations().isEmpty());
        assertTrue("the load should have run through the swaps: " + result.swapping().summary(),
                result.swapping().count() > SWAPS);
        assertEquals("counter.get: every successful add counted once, across " + SWAPS + " swaps",
                result.adds(), Counters.get(runtime, tenant));
        assertEquals("2 swaps a round: the counter ends where it started", "1.0.0",
                Counters.version(runtime, tenant));
        assertTrue("dead letters: " + deadLetters, deadLetters.isEmpty());
    }

    @Test
    public void oldRevisionsAreCollectableAfterSwapsAndARefresh() throws Exception {
        String tenant = "collectable";
        String other = "collectable-too";
        folder.deploy(COUNTER_JAR, jars.counter("1.0.0"));
        Counters.awaitVersion(runtime, tenant, "1.0.0");
        Bundle counter = Bundles.find(context, PluginJars.COUNTER);
        long expected = Counters.add(runtime, tenant, 1);
        Counters.add(runtime, other, 100);

        Map<String, WeakReference<ClassLoader>> oldLoaders = new LinkedHashMap<>();
        try (LogCapture log = LogCapture.start()) {
            for (int i = 1; i <= 6; i++) {
                WeakReference<ClassLoader> before = OldRevisions.classLoaderOf(counter);
                oldLoaders.put("revision " + i + " (" + counter.getVersion() + ")", before);
                String version = i % 2 == 1 ? "2.0.0" : "1.0.0";
                folder.deploy(COUNTER_JAR, jars.counter(version));
                Counters.awaitVersion(runtime, tenant, version);
                assertNotSame("update " + i + " made a new revision, with a class loader of its own", before.get(),
                        OldRevisions.classLoaderOf(counter).get());
                // the deployer's last word on this update: the adds below race no part of it
                int updates = i;
                Await.until("the deployer reports update " + i, Counters.DEPLOY_TIMEOUT,
                        () -> log.text().split("io.troupe.sample.counter updated from ", -1).length - 1 >= updates,
                        log::text);
                expected = Counters.add(runtime, tenant, 1);
                Counters.add(runtime, other, 1);
            }
        }
        OldRevisions.refreshPendingBundles(context);

        assertEquals("the totals survive the swaps and the refresh", expected, Counters.get(runtime, tenant));
        assertEquals(106, Counters.get(runtime, other));
        List<String> leaked = OldRevisions.collect(oldLoaders);
        assertTrue("class loaders of old revisions still reachable after the collections: " + leaked
                + " (of " + oldLoaders.keySet() + ")", leaked.isEmpty());
    }
}
