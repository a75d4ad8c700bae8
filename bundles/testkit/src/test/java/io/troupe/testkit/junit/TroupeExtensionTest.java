package io.troupe.testkit.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;
import io.troupe.runtime.Troupe;

/**
 * {@link TroupeExtension} as JUnit runs it: each fixture class below is run by JUnit's {@link EngineTestKit}
 * (not by the build's own run: surefire leaves nested classes out), and what its tests saw is checked here.
 *
 * <p><b>Threading:</b> JUnit's thread; the fixtures run on it too, inside {@link EngineTestKit#execute()}.
 */
class TroupeExtensionTest {

    /** What the fixtures saw, in order; cleared before each run. */
    static final List<Object> SEEN = new CopyOnWriteArrayList<>();

    @BeforeEach
    void clear() {
        SEEN.clear();
    }

    @Test
    void eachTestGetsItsOwnRunningRuntimeClosedAfterIt() {
        run(TwoTests.class).testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));

        assertEquals(2, SEEN.size(), SEEN::toString);
        Troupe first = (Troupe) SEEN.get(0);
        Troupe second = (Troupe) SEEN.get(1);
        assertNotSame(first, second);
        assertTrue(first.whenTerminated().toCompletableFuture().isDone(), "the first test's runtime is closed");
        assertTrue(second.whenTerminated().toCompletableFuture().isDone(), "the second test's runtime is closed");
        assertThrows(IllegalStateException.class, () -> first.spawn(() -> (ctx, message) -> { },
                ActorOptions.defaults()));
    }

    @Test
    void theConfiguredHandlersServeAndTheParametersAreTheTestsRuntimeAndNewProbes() {
        run(Parameters.class).testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
        assertEquals(List.of("hello ada", true, true, false), SEEN);
    }

    @Test
    void aFailedExpectationFailsTheTestWithItsMessageAndTheRuntimeIsClosedAllTheSame() {
        Events tests = run(FailingExpectation.class).testEvents();
        tests.assertStatistics(stats -> stats.started(1).failed(1));
        tests.assertThatEvents().haveExactly(1, event(test("expectsWhatNeverComes"), finishedWithFailure(
                instanceOf(AssertionError.class),
                message("probe-of-failing expected \"never\" within 100 ms, got no message"))));
        Troupe troupe = (Troupe) SEEN.get(0);
        assertTrue(troupe.whenTerminated().toCompletableFuture().isDone(), "closed after the failed test");
    }

    @Test
    void closingStopsTheActorsOfTheTestWithTheirPostStop() throws Exception {
        run(ActorLeftRunning.class).testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
        CountDownLatch stopped = (CountDownLatch) SEEN.get(0);
        assertTrue(stopped.await(0, TimeUnit.SECONDS), "postStop ran before the test ended");
    }

    @Test
    void anActorThatDoesNotStopWithinTheShutdownTimeoutFailsTheTest() {
        Events tests = run(ActorThatWillNotStop.class).testEvents();
        tests.assertThatEvents().haveExactly(1, event(test("leavesAnActorBusy"), finishedWithFailure(
                instanceOf(AssertionError.class))));
        String failure = firstFailure(tests);
        assertTrue(failure.contains("still had actors running after its shutdown timeout"), failure);
        ((CountDownLatch) SEEN.get(0)).countDown(); // let the busy actor go
    }

    @Test
    void aRuntimeParameterOutsideATestIsRefusedWithTheReason() {
        Events tests = run(ParameterTooEarly.class).allEvents();
        String failure = firstFailure(tests);
        assertTrue(failure.contains("TroupeExtension gives a Troupe only to test methods"), failure);
    }

    @Test
    void runtimeOutsideATestSaysHowToGetOne() {
        TroupeExtension extension = TroupeExtension.withDefaultRuntime();
        IllegalStateException outside = assertThrows(IllegalStateException.class, extension::runtime);
        assertTrue(outside.getMessage().contains("outside a test"), outside.getMessage());
        assertThrows(IllegalArgumentException.class, () -> extension.probeTimeout(Duration.ofSeconds(-1)));
    }

    private static EngineExecutionResults run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute();
    }

    /** The message of the first failure among {@code events}. */
    private static String firstFailure(Events events) {
        return events.failed().stream().findFirst().orElseThrow(() -> new AssertionError("nothing failed"))
                .getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow().getMessage();
    }

    // ------------------------------------------------------------------------------------------ fixtures

    /** Two tests that note their runtimes. */
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class TwoTests {

        @RegisterExtension
        TroupeExtension troupe = TroupeExtension.withRuntime(b -> b.workers(1));

        @Test
        @Order(1)
        void first(Troupe runtime) {
            assertSame(runtime, troupe.runtime());
            assertFalse(runtime.whenTerminated().toCompletableFuture().isDone());
            SEEN.add(runtime);
        }

        @Test
        @Order(2)
        void second(Troupe runtime) {
            SEEN.add(runtime);
        }
    }

    /** A handler from the configuration, asked through a probe; every parameter type. */
    static class Parameters {

        @RegisterExtension
        TroupeExtension troupe = TroupeExtension.withRuntime(b -> b.workers(2)
                .handler("greet", () -> (ctx, message) -> ctx.reply("hello " + ((Message) message).text())));

        @Test
        void handlerAndProbes(Troupe runtime, TroupeRuntime service, TestProbe probe, TestProbe another) {
            runtime.handler("acme", "greet").orElseThrow().tell(Message.of("greet", "ada"), probe.ref());
            SEEN.add(probe.expectMessage("hello ada"));
            SEEN.add(service == runtime);
            SEEN.add(probe.timeout().equals(TestProbe.DEFAULT_TIMEOUT));
            SEEN.add(probe.ref().equals(another.ref()));
        }
    }

    /** An expectation that fails. */
    static class FailingExpectation {

        @RegisterExtension
        TroupeExtension troupe = TroupeExtension.withRuntime(b -> b.workers(1)).probeTimeout(Duration.ofMillis(100));

        @Test
        void expectsWhatNeverComes() {
            SEEN.add(troupe.runtime());
            troupe.createProbe("probe-of-failing").expectMessage("never");
        }
    }

    /** Spawns an actor and leaves it to the extension. */
    static class ActorLeftRunning {

        @RegisterExtension
        TroupeExtension troupe = TroupeExtension.withRuntime(b -> b.workers(1));

        @Test
        void spawnsAndLeaves(Troupe runtime) {
            CountDownLatch stopped = new CountDownLatch(1);
            SEEN.add(stopped);
            runtime.spawn(() -> new Actor() {
                @Override
                public void receive(ActorContext ctx, Object message) {
                }

                @Override
                public void postStop(ActorContext ctx) {
                    stopped.countDown();
                }
            }, ActorOptions.defaults());
        }
    }

    /** Leaves an actor in a receive that waits (up to 30 s, through interrupts) past the shutdown timeout. */
    static class ActorThatWillNotStop {

        @RegisterExtension
        TroupeExtension troupe = TroupeExtension.withRuntime(b -> b.workers(1)
                .shutdownTimeout(Duration.ofMillis(200)));

        @Test
        void leavesAnActorBusy(Troupe runtime, TestProbe probe) {
            CountDownLatch release = new CountDownLatch(1);
            SEEN.add(release);
            ActorRef busy = runtime.spawn(() -> (ctx, message) -> {
                probe.ref().tell("busy");
                awaitIgnoringInterrupts(release, Duration.ofSeconds(30));
            }, ActorOptions.defaults());
            busy.tell("work");
            probe.expectMessage("busy");
        }
    }

    /** Waits for {@code latch} up to {@code max}, through interrupts: an actor that closing cannot stop. */
    private static void awaitIgnoringInterrupts(CountDownLatch latch, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (latch.getCount() > 0 && System.nanoTime() - deadline < 0) {
            try {
                latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                // ignored on purpose: the fixture plays an actor that does not stop when told
            }
        }
    }

    /** Asks for the runtime where there is none yet. */
    static class ParameterTooEarly {

        @RegisterExtension
        static TroupeExtension troupe = TroupeExtension.withDefaultRuntime();

        @BeforeAll
        static void tooEarly(Troupe runtime) {
        }

        @Test
        void neverRuns() {
        }
    }
}
