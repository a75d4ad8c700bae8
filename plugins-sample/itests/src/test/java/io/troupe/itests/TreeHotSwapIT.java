package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.Version;
import org.osgi.framework.wiring.BundleWiring;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.itests.plugins.TreeEphemeral;
import io.troupe.itests.plugins.TreeNode;
import io.troupe.itests.plugins.TreeRoot;
import io.troupe.testsupport.Await;

/**
 * The tree plugin (a handler actor per tenant, with children spawned from a lambda, an anonymous
 * factory, a method reference and a factory name, three levels deep) swapped by writing its jar into
 * the deploy folder: every actor moves to each new revision with its state, id, name, place and
 * mailbox, under load, a hundred times; a swap that cannot move an actor is refused with nothing
 * changed; the revisions left behind can be collected.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class, with
 * its own deploy folder. The load runs on sender threads of its own.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class TreeHotSwapIT extends HotSwapTest {

    private static final String TREE_JAR = "tree.jar";
    private static final int SWAPS = 100;
    private static final int SENDERS = 2;
    private static final int ACTORS_PER_TREE = 5;
    private static final int PUTS_PER_NEWCOMER = 1000;
    private static final Duration OUTCOME_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(30);

    @Test
    public void everyActorOfTheTreeMovesAHundredTimesUnderLoadKeepingItsState() throws Exception {
        List<String> tenants = List.of("tree-a", "tree-b");
        assertOutcome("running", deploy("1.0.0"));
        Map<String, AtomicLong> puts = new ConcurrentHashMap<>();
        for (String tenant : tenants) {
            put(tenant);
            puts.put(tenant, new AtomicLong(1));
        }
        Map<Long, String> tree = awaitTree(tenants, tenants.size() * ACTORS_PER_TREE);
        Bundle bundle = Bundles.find(context, PluginJars.TREE);

        Map<String, WeakReference<ClassLoader>> oldLoaders = new LinkedHashMap<>();
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(SENDERS + 1);
        Map<String, AtomicLong> newcomers = new ConcurrentHashMap<>();
        Thread arrivals = new Thread(() -> { // a new tenant every few puts: trees that grow during swaps
            try {
                for (int i = 0; !stop.get(); i++) {
                    String tenant = "tree-new-" + i / PUTS_PER_NEWCOMER;
                    try {
                        put(tenant);
                        newcomers.computeIfAbsent(tenant, key -> new AtomicLong()).incrementAndGet();
                    } catch (Exception e) {
                        failures.add(tenant + ": " + e);
                    }
                }
            } finally {
                done.countDown();
            }
        }, "tree-arrivals");
        arrivals.setDaemon(true);
        arrivals.start();
        for (int i = 0; i < SENDERS; i++) {
            String tenant = tenants.get(i % tenants.size());
            Thread sender = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        try {
                            put(tenant);
                            puts.get(tenant).incrementAndGet();
                        } catch (Exception e) {
                            failures.add(tenant + ": " + e);
                        }
                    }
                } finally {
                    done.countDown();
                }
            }, "tree-sender-" + i);
            sender.setDaemon(true);
            sender.start();
        }
        long longest = 0;
        try {
            for (int i = 1; i <= SWAPS; i++) {
                String version = i % 2 == 1 ? "2.0.0" : "1.0.0";
                if (i <= 6) {
                    oldLoaders.put("revision " + i + " (" + bundle.getVersion() + ")",
                            OldRevisions.classLoaderOf(bundle));
                }
                long began = System.nanoTime();
                assertOutcome("running", deploy(version));
                longest = Math.max(longest, (System.nanoTime() - began) / 1_000_000);
                assertEquals("swap " + i, Version.parseVersion(version), bundle.getVersion());
            }
        } finally {
            stop.set(true);
            assertTrue("the senders stop", done.await(ASK_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS));
        }
        System.out.println("[tree hot swap] " + SWAPS + " swaps under the load of " + SENDERS + " senders: "
                + puts + " puts; longest swap (jar written to outcome reported) " + longest + " ms");

        assertTrue("requests failed: " + failures, failures.isEmpty());
        assertEquals("the same actors, ids, names and places after " + SWAPS + " swaps", tree, tree(tenants));
        for (String tenant : tenants) {
            awaitReports(tenant, puts.get(tenant).get(), "1.0.0");
        }
        System.out.println("[tree hot swap] " + newcomers.size() + " tenants arrived during the swaps");
        assertTrue("tenants arrived during the swaps: " + newcomers.size(), newcomers.size() > 1);
        for (Map.Entry<String, AtomicLong> newcomer : newcomers.entrySet()) {
            awaitReports(newcomer.getKey(), newcomer.getValue().get(), "1.0.0");
        }
        assertTrue("dead letters: " + deadLetters, deadLetters.isEmpty());

        OldRevisions.refreshPendingBundles(context);
        List<String> leaked = OldRevisions.collect(oldLoaders);
        assertTrue("class loaders of old revisions still reachable: " + leaked, leaked.isEmpty());
    }

    @Test
    public void aSwapThatCannotCarryATimerIsRefusedAndNothingChanges() throws Exception {
        String tenant = "pinned";
        assertOutcome("running", deploy("1.0.0"));
        put(tenant);
        put(tenant);
        request(tenant, TreeRoot.PIN);
        Map<Long, String> tree = awaitTree(List.of(tenant), ACTORS_PER_TREE);
        Bundle bundle = Bundles.find(context, PluginJars.TREE);
        ClassLoader before = bundle.adapt(BundleWiring.class).getClassLoader();
        RuntimeSnapshot beforeRefusal = statistics();

        Properties refused = deploy("2.0.0");
        assertOutcome("rolled-back", refused);
        RuntimeSnapshot afterRefusal = statistics();
        assertEquals("a refused update is a rollback", beforeRefusal.pluginRollbacks() + 1,
                afterRefusal.pluginRollbacks());
        assertEquals("and no swap", beforeRefusal.pluginSwaps(), afterRefusal.pluginSwaps());
        String reason = refused.getProperty("reason");
        assertTrue(reason, reason.contains("nothing changed") && reason.contains("timer 'pin'")
                && reason.contains("TreeTick"));
        assertEquals("1.0.0", refused.getProperty("runningVersion"));
        String marker = Files.readString(folder.path(TREE_JAR + ".failed"), UTF_8);
        assertTrue(marker, marker.startsWith(PluginJars.TREE + " 2.0.0 was rejected: ")
                && marker.contains("running: " + PluginJars.TREE + " 1.0.0"));
        assertEquals(Version.parseVersion("1.0.0"), bundle.getVersion());
        assertSame("the bundle was not even updated", before, bundle.adapt(BundleWiring.class).getClassLoader());
        assertEquals(tree, tree(List.of(tenant)));
        awaitReports(tenant, 2, "1.0.0");
        put(tenant);

        request(tenant, TreeRoot.UNPIN);
        assertOutcome("running", deploy("2.0.0"));
        RuntimeSnapshot afterSwap = statistics();
        assertEquals("the update that ran is a swap", afterRefusal.pluginSwaps() + 1, afterSwap.pluginSwaps());
        assertEquals(afterRefusal.pluginRollbacks(), afterSwap.pluginRollbacks());
        assertFalse("the marker goes once the jar runs", Files.exists(folder.path(TREE_JAR + ".failed")));
        assertEquals(tree, tree(List.of(tenant)));
        awaitReports(tenant, 3, "2.0.0");
    }

    @Test
    public void aLambdaActorCannotBeCreatedAgainSoTheSwapIsRefusedAndNothingChanges() throws Exception {
        String tenant = "lambda";
        assertOutcome("running", deploy("1.0.0"));
        put(tenant);
        request(tenant, TreeRoot.LAMBDA);
        Map<Long, String> tree = awaitTree(List.of(tenant), ACTORS_PER_TREE + 1);

        Properties refused = deploy("2.0.0");
        assertOutcome("rolled-back", refused);
        String reason = refused.getProperty("reason");
        assertTrue(reason, reason.contains("is a lambda") && reason.contains("TreeRoot"));
        assertEquals(Version.parseVersion("1.0.0"), Bundles.find(context, PluginJars.TREE).getVersion());
        assertEquals(tree, tree(List.of(tenant)));
        put(tenant);
        assertEquals("TreeRoot 2 1.0.0", report(rootOf(tenant)));
    }

    @Test
    public void aRevisionThatRefusesTheStateIsRolledBackAndLeavesNothingBehind() throws Exception {
        String tenant = "refused";
        assertOutcome("running", deploy("1.0.0"));
        put(tenant);
        put(tenant);
        Map<Long, String> tree = awaitTree(List.of(tenant), ACTORS_PER_TREE);
        Map<String, WeakReference<ClassLoader>> refusedLoaders = new ConcurrentHashMap<>();
        ServiceListener watch = event -> {
            Bundle from = event.getServiceReference().getBundle();
            if (from != null && from.getVersion().getMajor() == TreeNode.REFUSING_MAJOR) {
                refusedLoaders.putIfAbsent("the refused revision " + from.getVersion(),
                        OldRevisions.classLoaderOf(from));
            }
        };
        context.addServiceListener(watch, "(objectClass=" + ActorFactory.class.getName() + ")");
        Properties refused;
        try {
            refused = deploy(TreeNode.REFUSING_MAJOR + ".0.0");
        } finally {
            context.removeServiceListener(watch);
        }
        assertOutcome("rolled-back", refused);
        assertTrue(refused.getProperty("reason"), refused.getProperty("reason").contains("refuses every state"));
        assertEquals("1.0.0", refused.getProperty("runningVersion"));
        assertEquals(tree, tree(List.of(tenant)));
        awaitReports(tenant, 2, "1.0.0");
        put(tenant);
        awaitReports(tenant, 3, "1.0.0");

        assertEquals("the refused revision registered its services", 1, refusedLoaders.size());
        OldRevisions.refreshPendingBundles(context);
        List<String> leaked = OldRevisions.collect(refusedLoaders);
        assertTrue("still reachable: " + leaked, leaked.isEmpty());
    }

    // ---------------------------------------------------------------- helpers

    private Properties deploy(String version) throws Exception {
        byte[] jar = jars.treePlugin(version);
        Instant since = Instant.now();
        folder.deploy(TREE_JAR, jar);
        return folder.awaitOutcome(TREE_JAR, jar, since, OUTCOME_TIMEOUT);
    }

    /** The runtime statistics now (the host registers them while its monitor runs). */
    private RuntimeSnapshot statistics() {
        ServiceReference<RuntimeStats> reference = context.getServiceReference(RuntimeStats.class);
        assertNotNull("the RuntimeStats service", reference);
        RuntimeStats stats = context.getService(reference);
        try {
            return stats.snapshot();
        } finally {
            context.ungetService(reference);
        }
    }

    private static void assertOutcome(String expected, Properties status) {
        assertEquals("outcome: " + status, expected, status.getProperty("outcome"));
    }

    private String request(String tenant, String name) throws Exception {
        Object reply = runtime.ask(tenant, Message.of(name, ""), ASK_TIMEOUT).toCompletableFuture()
                .get(ASK_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
        assertTrue(name + " answered " + reply, reply instanceof byte[]);
        return new String((byte[]) reply, UTF_8);
    }

    private void put(String tenant) throws Exception {
        request(tenant, TreeRoot.PUT);
    }

    /** The tenants' lasting actors (not the short-lived ones each put spawns): id to parent, name and origin. */
    private Map<Long, String> tree(List<String> tenants) {
        Map<Long, String> tree = new TreeMap<>();
        for (ActorInfo info : runtime.actors()) {
            if (tenants.contains(info.tenant()) && !info.name().equals(TreeEphemeral.NAME)) {
                tree.put(info.id(), "parent " + info.parentId() + ", " + info.name() + ", " + info.origin());
            }
        }
        return tree;
    }

    /** Waits until the tenants' trees have grown to {@code size} actors (children start asynchronously). */
    private Map<Long, String> awaitTree(List<String> tenants, int size) {
        Await.until(tenants + " grow " + size + " actors", () -> tree(tenants).size() == size,
                () -> tree(tenants).toString());
        return tree(tenants);
    }

    private ActorRef rootOf(String tenant) {
        return runtime.handler(tenant, TreeRoot.PUT).orElseThrow();
    }

    private static String report(ActorRef actor) throws Exception {
        return (String) actor.ask(TreeNode.REPORT, ASK_TIMEOUT).toCompletableFuture()
                .get(ASK_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
    }

    /** Waits until every actor of the tenant's tree reports {@code count} and runs {@code version}'s code. */
    private void awaitReports(String tenant, long count, String version) {
        List<String> reports = new ArrayList<>();
        Await.until(tenant + ": every actor counts " + count + " on " + version, Duration.ofSeconds(30), () -> {
            reports.clear();
            for (Map.Entry<Long, String> actor : tree(List.of(tenant)).entrySet()) {
                try {
                    reports.add(report(runtime.lookup(actor.getKey()).orElseThrow()));
                } catch (Exception e) {
                    reports.add(actor.getValue() + ": " + e);
                }
            }
            return reports.size() == ACTORS_PER_TREE
                    && reports.stream().allMatch(report -> report.endsWith(" " + count + " " + version));
        }, reports::toString);
    }
}
