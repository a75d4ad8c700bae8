package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.Version;

import io.troupe.api.ActorInfo;
import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.api.TroupeRuntime;
import io.troupe.itests.plugins.GatedActivator;
import io.troupe.itests.plugins.HoldingActor;
import io.troupe.itests.plugins.StateRefusingActor;
import io.troupe.testsupport.Await;

/**
 * The deploy folder as the source of truth for plugins: a jar is installed only once it is whole, a
 * corrupt one is reported and retried when it changes, a deleted one is uninstalled (requests still
 * queued for it answered with {@code no.handler}), and a new revision that does not work is rolled
 * back to the last good jar, whose actors keep their state.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class, with
 * its own deploy folder, and swapped actors waiting {@value #GRACE_SECONDS} s for a revision.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeployFolderIT extends FrameworkTest {

    private static final int GRACE_SECONDS = 2;
    private static final String COUNTER_JAR = "counter.jar";
    private static final Duration LOG_TIMEOUT = Counters.DEPLOY_TIMEOUT;

    @Inject
    private TroupeRuntime runtime;

    @Inject
    private BundleContext context;

    private DeployFolder folder;
    private PluginJars jars;
    private LogCapture log;

    @Override
    @Configuration
    public Option[] configuration() {
        return TroupeFramework.withDeployFolder(GRACE_SECONDS);
    }

    @Before
    public void startWithAnEmptyDeployFolder() throws Exception {
        folder = DeployFolder.of(context);
        jars = PluginJars.of(context);
        folder.clear(context);
        log = LogCapture.start();
    }

    @After
    public void removeWhatWasDeployed() throws Exception {
        log.close();
        folder.clear(context);
    }

    @Test
    public void aSlowlyWrittenJarIsInstalledOnlyWhenComplete() throws Exception {
        String tenant = "slow-copy";
        try (BundleEvents events = BundleEvents.record(context, PluginJars.COUNTER)) {
            // the writer stalls for three polls with half the jar written
            folder.writeSlowly(COUNTER_JAR, jars.counter("1.0.0"), DeployFolder.POLL.multipliedBy(3), () -> {
                assertEquals("half a jar is not installed", List.of(), folder.installedFromHere(context));
                assertTrue("half a jar serves nothing: " + runtime.handlerNames(),
                        !runtime.handlerNames().contains(Counters.VERSION));
            });

            Counters.awaitVersion(runtime, tenant, "1.0.0");
            Bundle counter = Bundles.find(context, PluginJars.COUNTER);
            assertEquals(Bundle.ACTIVE, counter.getState());
            assertEquals("installed once, from the whole jar: " + events.events(),
                    List.of("INSTALLED 1.0.0"), events.events("INSTALLED"));
            assertEquals(List.of(), events.events("UPDATED"));
            assertEquals(3, Counters.add(runtime, tenant, 3));
        }
        System.out.println("[slow copy] the host " + (log.contains("Plugin deploy/counter.jar is not usable")
                ? "looked at the half-written jar, reported it unusable and waited for it to change"
                : "never took the half-written jar for a finished one"));
    }

    @Test
    public void aCorruptJarIsReportedAndFixingItRetries() throws Exception {
        String tenant = "corrupt";
        Set<Long> bundlesBefore = bundleIds();
        folder.deploy("x.jar", "this is not a jar".getBytes(UTF_8));

        String report = log.awaitLine(LOG_TIMEOUT, "Plugin deploy/x.jar is not usable");
        assertTrue(report, report.contains("not a readable jar"));
        Object echoed = Requests.ask(runtime, Message.of("echo", "still here"));
        assertArrayEquals("echo still answers", "still here".getBytes(UTF_8), (byte[]) echoed);
        assertEquals("nothing installed or removed", bundlesBefore, bundleIds());
        assertTrue("echo and wordcount still served: " + runtime.handlerNames(),
                runtime.handlerNames().containsAll(List.of("echo", "wordcount")));

        folder.overwrite("x.jar", jars.counter("1.0.0"));
        Counters.awaitVersion(runtime, tenant, "1.0.0");
        Bundle counter = Bundles.find(context, PluginJars.COUNTER);
        assertTrue(counter.getLocation(), counter.getLocation().endsWith("/x.jar"));
        assertEquals(Bundle.ACTIVE, counter.getState());
        assertEquals("the corrupt jar was reported once, not at every poll:\n" + log.text(), 1,
                occurrences(log.text(), "Plugin deploy/x.jar is not usable"));
    }

    @Test
    public void removingAPluginWithQueuedRequestsAnswersEachWithNoHandler() throws Exception {
        String tenant = "removal";
        folder.deploy("holding.jar", jars.holdingPlugin());
        Requests.awaitHandler(runtime, HoldingActor.WAIT);

        CompletableFuture<Object> held = ask(tenant, HoldingActor.WAIT);
        List<CompletableFuture<Object>> queued = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            queued.add(ask(tenant, HoldingActor.QUICK));
        }
        Await.until("the requests queue behind the held one", () -> queuedAtHoldingActor() >= queued.size(),
                () -> "mailbox depth " + queuedAtHoldingActor() + ", held done: " + held.isDone());
        assertTrue("nothing ran past the held request", queued.stream().noneMatch(CompletableFuture::isDone));

        folder.delete("holding.jar");

        Object heldReply = outcome(held);
        assertTrue("the held request either ran before the plugin went (released) or got no.handler: "
                + heldReply, "released".equals(heldReply) || ErrorCode.NO_HANDLER.equals(heldReply));
        List<Object> outcomes = new ArrayList<>();
        for (CompletableFuture<Object> reply : queued) {
            outcomes.add(outcome(reply));
        }
        assertEquals("every queued request answered with no.handler: " + summary(outcomes),
                List.of(ErrorCode.NO_HANDLER), outcomes.stream().distinct().toList());
        assertEquals("asked afterwards", ErrorCode.NO_HANDLER, outcome(ask(tenant, HoldingActor.QUICK)));
        Await.until("the holding actor is gone", () -> queuedAtHoldingActor() < 0,
                () -> runtime.actors().toString());
    }

    @Test
    public void aNewRevisionThatFailsToStartIsRolledBack() throws Exception {
        assertRolledBack("rollback-start", jars.counterThatFailsToStart(), null);
    }

    @Test
    public void aNewRevisionThatCannotImportStateIsRolledBack() throws Exception {
        assertRolledBack("rollback-import", jars.counterThatRefusesState(), StateRefusingActor.MESSAGE);
    }

    /**
     * The jar kept for rollbacks must be the one installed, not what the file holds once the install
     * is over: the gated plugin's start is held while the test puts a broken revision in its place,
     * and that revision's failure must bring back 1.0.0.
     */
    @Test
    public void theJarKeptForRollbacksIsTheOneInstalledWhenTheFileChangesDuringTheInstall() throws Exception {
        String file = "gated.jar";
        CountDownLatch gate = new CountDownLatch(1);
        ServiceRegistration<CountDownLatch> registration = context.registerService(CountDownLatch.class, gate,
                new Hashtable<>(Map.of(GatedActivator.GATE, PluginJars.GATED)));
        try (BundleEvents events = BundleEvents.record(context, PluginJars.GATED)) {
            folder.deploy(file, jars.gatedPlugin());
            Await.until("the deployer is starting the gated plugin", LOG_TIMEOUT,
                    () -> events.events().contains("STARTING 1.0.0"), () -> events.events().toString());
            folder.deploy(file, jars.gatedThatFailsToStart());
            gate.countDown();

            String outcome = awaitRollbackOutcome(file);
            assertTrue("the host put back the jar it had installed, but logged: " + outcome + "\n" + log.text(),
                    outcome.contains("rolled back to " + PluginJars.GATED + " 1.0.0"));
            Bundle gated = Bundles.find(context, PluginJars.GATED);
            assertEquals(Version.parseVersion("1.0.0"), gated.getVersion());
            assertEquals(Bundle.ACTIVE, gated.getState());
            assertEquals("the bundle went to " + PluginJars.BROKEN_VERSION + " and back: " + events.events(),
                    List.of("UPDATED " + PluginJars.BROKEN_VERSION, "UPDATED 1.0.0"), events.events("UPDATED"));
        } finally {
            gate.countDown();
            registration.unregister();
        }
    }

    /**
     * Deploys counter 1.0.0 with a total of 5, then {@code broken} (a {@value PluginJars#BROKEN_VERSION})
     * over it while a load adds to the total; the host must report why, put 1.0.0 back, and the
     * actors must resume with every add counted. Afterwards a good 2.0.0 still deploys over it.
     *
     * @param cause what the log must say about the failure, if anything
     */
    private void assertRolledBack(String tenant, byte[] broken, String cause) throws Exception {
        folder.deploy(COUNTER_JAR, jars.counter("1.0.0"));
        Counters.awaitVersion(runtime, tenant, "1.0.0");
        assertEquals(5, Counters.add(runtime, tenant, 5));
        Bundle counter = Bundles.find(context, PluginJars.COUNTER);

        String outcome;
        try (BundleEvents events = BundleEvents.record(context, PluginJars.COUNTER);
             CounterLoad load = CounterLoad.start(runtime, tenant, 2)) {
            load.phase(CounterLoad.Phase.SWAPS);
            folder.deploy(COUNTER_JAR, broken);
            outcome = awaitRollbackOutcome(COUNTER_JAR);
            CounterLoad.Result result = load.stop();

            String failure = log.lineWith("Plugin deploy/counter.jar: " + PluginJars.COUNTER + " "
                    + PluginJars.BROKEN_VERSION + " failed (", "putting 1.0.0 back");
            assertTrue("the log says why the update failed and what is put back:\n" + log.text(), failure != null);
            assertTrue("the cause is in the log: " + cause + "\n" + log.text(), cause == null || log.contains(cause));
            assertEquals("the bundle went to " + PluginJars.BROKEN_VERSION + " and back: " + events.events(),
                    List.of("UPDATED " + PluginJars.BROKEN_VERSION, "UPDATED 1.0.0"), events.events("UPDATED"));
            assertEquals(Version.parseVersion("1.0.0"), counter.getVersion());
            assertEquals(Bundle.ACTIVE, counter.getState());
            assertEquals("1.0.0", Counters.version(runtime, tenant));
            assertEquals("no add failed while the broken revision came and went: " + result.problems(), 0,
                    result.failed());
            assertTrue(result.problems(), result.orderViolations().isEmpty());
            assertEquals("the old revision kept its total and every add", 5 + result.adds(),
                    Counters.get(runtime, tenant));
            System.out.println("[rollback " + tenant + "] " + failure.substring(failure.indexOf("Plugin deploy/")));
            System.out.println("[rollback " + tenant + "] " + result.adds() + " adds during the failed update;"
                    + " latency " + result.swapping().summary());
        }
        assertTrue("the host says the rollback worked, but logged: " + outcome,
                outcome.contains("rolled back to " + PluginJars.COUNTER + " 1.0.0"));

        long total = Counters.get(runtime, tenant);
        folder.deploy(COUNTER_JAR, jars.counter("2.0.0"));
        Counters.awaitVersion(runtime, tenant, "2.0.0");
        assertEquals("a good revision still deploys after the rollback, with the total", total,
                Counters.get(runtime, tenant));
    }

    /** Waits for the deployer's last word on the rollback of {@code file}: it worked, or it failed too. */
    private String awaitRollbackOutcome(String file) {
        String[] line = new String[1];
        Await.until("the deployer finished the rollback of " + file, LOG_TIMEOUT, () -> {
            line[0] = log.lineWith("Plugin deploy/" + file + ": rolled back to");
            if (line[0] == null) {
                line[0] = log.lineWith("Plugin deploy/" + file + ": the rollback to");
            }
            return line[0] != null;
        }, log::text);
        return line[0];
    }

    private CompletableFuture<Object> ask(String tenant, String name) {
        return runtime.ask(tenant, Message.of(name, ""), Requests.ASK_TIMEOUT).toCompletableFuture();
    }

    /** The reply as text, or the error code it failed with; fails the test if it does not complete. */
    private static Object outcome(CompletableFuture<Object> reply) throws InterruptedException {
        try {
            Object value = reply.get(Requests.ASK_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            return value instanceof byte[] bytes ? new String(bytes, UTF_8) : value;
        } catch (ExecutionException e) {
            return e.getCause() instanceof TroupeException failure ? failure.code() : e.getCause().toString();
        } catch (TimeoutException e) {
            fail("a request never completed");
            return null;
        }
    }

    /** The mailbox depth of the holding plugin's actor, or -1 when there is none. */
    private int queuedAtHoldingActor() {
        return runtime.actors().stream()
                .filter(actor -> ("handler:" + HoldingActor.WAIT).equals(actor.origin()))
                .mapToInt(ActorInfo::mailboxDepth)
                .findFirst()
                .orElse(-1);
    }

    private Set<Long> bundleIds() {
        return Arrays.stream(context.getBundles()).map(Bundle::getBundleId).collect(Collectors.toSet());
    }

    private static String summary(List<Object> outcomes) {
        return outcomes.stream().collect(Collectors.groupingBy(String::valueOf, Collectors.counting())).toString();
    }

    private static int occurrences(String text, String fragment) {
        int count = 0;
        for (int at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + 1)) {
            count++;
        }
        return count;
    }
}
