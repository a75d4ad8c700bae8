package io.troupe.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeException;

/**
 * The embedded runtime with real threads: handlers, factories and pools registered in code behave as plugin
 * services do in the server, registrations withdraw their actors, tenants' policies apply, and closing stops
 * every actor and thread. Every wait is bounded.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TroupeTest {

    private static final Duration ASK = Duration.ofSeconds(5);

    private final List<Troupe> started = new ArrayList<>();
    private String prefix;

    @AfterEach
    void closeAll() {
        started.forEach(Troupe::close);
    }

    /** A builder whose threads carry this test's name, so that a test sees only its own threads. */
    private Troupe.Builder builder(TestInfo test) {
        prefix = "embedded-" + test.getTestMethod().orElseThrow().getName();
        return Troupe.builder().workers(2).threadNamePrefix(prefix);
    }

    private Troupe start(Troupe.Builder builder) {
        Troupe troupe = builder.build();
        started.add(troupe);
        return troupe;
    }

    private static Object ask(Troupe troupe, String tenant, String name, String text) throws Exception {
        return troupe.ask(tenant, Message.of(name, text), ASK).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static String failureCode(CompletableFuture<Object> reply) {
        ExecutionException failure = assertThrows(ExecutionException.class, () -> reply.get(10, TimeUnit.SECONDS));
        return assertInstanceOf(TroupeException.class, failure.getCause()).code();
    }

    private static String askFailure(Troupe troupe, String tenant, String name) {
        return failureCode(troupe.ask(tenant, Message.of(name, "x"), ASK).toCompletableFuture());
    }

    @Test
    void aRegisteredHandlerAnswersAnAskWithAMessageAndServesEachTenantWithItsOwnActor(TestInfo test)
            throws Exception {
        Troupe troupe = start(builder(test).handler("greet", Actors.greeter("hello")));

        assertEquals("hello ada", ask(troupe, "acme", "greet", "ada"));
        assertEquals("hello grace", ask(troupe, "globex", "greet", "grace"));
        assertEquals("hello linus", ask(troupe, "acme", "greet", "linus"));

        assertEquals(Set.of("greet"), troupe.handlerNames());
        List<ActorInfo> handlers = troupe.actors().stream().filter(info -> info.origin().equals("handler:greet"))
                .toList();
        assertEquals(List.of("acme", "globex"), handlers.stream().map(ActorInfo::tenant).sorted().toList());
        assertEquals(ErrorCode.NO_HANDLER, askFailure(troupe, "acme", "nosuch"));
    }

    @Test
    void aHandlerOfSeveralNamesServesThemAllWithOneActorPerTenant(TestInfo test) throws Exception {
        Troupe troupe = start(builder(test).handler(List.of("tally.add", "tally.get"), () -> new Actor() {
            private int total;

            @Override
            public void receive(ActorContext ctx, Object message) {
                Message request = (Message) message;
                if (request.name().equals("tally.add")) {
                    total += Integer.parseInt(request.text());
                }
                ctx.reply(Integer.toString(total));
            }
        }));
        assertEquals("2", ask(troupe, "acme", "tally.add", "2"));
        assertEquals("5", ask(troupe, "acme", "tally.add", "3"));
        assertEquals("5", ask(troupe, "acme", "tally.get", ""));
        assertEquals("0", ask(troupe, "globex", "tally.get", ""));
        assertEquals(2, troupe.actors().stream().filter(info -> info.origin().startsWith("handler:")).count());
        assertThrows(IllegalArgumentException.class,
                () -> troupe.registerHandler(List.of("tally.get"), Actors.greeter("x")));
        assertThrows(IllegalArgumentException.class, () -> troupe.registerHandler(List.of(), Actors.greeter("x")));
        assertThrows(IllegalArgumentException.class,
                () -> troupe.registerHandler(List.of("a", "a"), Actors.greeter("x")));
    }

    @Test
    void anActorSpawnsAFactoryRegisteredByNameAsItsChild(TestInfo test) throws Exception {
        Troupe troupe = start(builder(test).factory("doubler",
                () -> (ctx, message) -> ctx.reply((Integer) message * 2)));
        ActorRef parent = troupe.spawn(() -> (ctx, message) -> {
            if (message instanceof Integer) { // not the ChildStopped notices of the shutdown
                ctx.spawn("doubler").tell(message, ctx.sender());
            }
        }, ActorOptions.defaults().withName("parent"));

        assertEquals(42, parent.ask(21, ASK).toCompletableFuture().get(10, TimeUnit.SECONDS));

        ActorInfo child = troupe.actors().stream().filter(info -> info.origin().equals("factory:doubler"))
                .findFirst().orElseThrow();
        assertEquals(parent.id(), child.parentId());
        assertEquals(Set.of("doubler"), troupe.factoryNames());
        TroupeException unknown = assertThrows(TroupeException.class,
                () -> troupe.spawn("nosuch", ActorOptions.defaults()));
        assertEquals(ErrorCode.NO_FACTORY, unknown.code());
    }

    @Test
    void aPoolableHandlerServesEachTenantWithAPoolThatTheMonitorGrowsWithTheBacklog(TestInfo test)
            throws Exception {
        CountDownLatch membersStarted = new CountDownLatch(2);
        CountDownLatch gate = new CountDownLatch(1);
        Troupe troupe = start(builder(test).poolableHandler("work", () -> new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                membersStarted.countDown();
            }

            @Override
            public void receive(ActorContext ctx, Object message) throws InterruptedException {
                assertTrue(gate.await(20, TimeUnit.SECONDS));
                ctx.reply("done " + ((Message) message).text());
            }
        }, 1, 3));

        List<CompletableFuture<Object>> replies = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            replies.add(troupe.ask("acme", Message.of("work", "#" + i), Duration.ofSeconds(30)).toCompletableFuture());
        }
        // one member is busy and the backlog stays above the high-water mark: the monitor adds one (after 1 s)
        assertTrue(membersStarted.await(20, TimeUnit.SECONDS), "the pool grew from 1 member");
        gate.countDown();
        for (int i = 0; i < replies.size(); i++) {
            assertEquals("done #" + i, replies.get(i).get(20, TimeUnit.SECONDS));
        }
        long members = troupe.actors().stream().filter(info -> info.tenant().equals("acme")).count();
        assertTrue(members >= 2 && members <= 3, members + " members");
    }

    @Test
    void closingARegistrationStopsItsActorsAndItsNameAnswersNoHandlerFromThenOn(TestInfo test) throws Exception {
        Troupe troupe = start(builder(test));
        CountDownLatch inReceive = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Troupe.Registration slow = troupe.registerHandler("slow", Actors.gated(inReceive, gate, stopped));
        CompletableFuture<Object> running = troupe.ask("acme", Message.of("slow", "first"), ASK).toCompletableFuture();
        assertTrue(inReceive.await(10, TimeUnit.SECONDS));
        CompletableFuture<Object> queued = troupe.ask("acme", Message.of("slow", "second"), ASK).toCompletableFuture();

        slow.close();
        gate.countDown();

        assertEquals("first", running.get(10, TimeUnit.SECONDS), "the turn under way ends normally");
        assertEquals(ErrorCode.NO_HANDLER, failureCode(queued), "a queued request fails as in the server");
        assertTrue(stopped.await(10, TimeUnit.SECONDS), "postStop ran");
        assertFalse(troupe.handlerNames().contains("slow"));
        assertTrue(troupe.handler("acme", "slow").isEmpty());
        assertEquals(ErrorCode.NO_HANDLER, askFailure(troupe, "acme", "slow"));
        slow.close(); // idempotent

        troupe.registerHandler("slow", Actors.greeter("back")); // the name is free again
        assertEquals("back again", ask(troupe, "acme", "slow", "again"));
    }

    @Test
    void aTenantsPolicyLimitsItsActorsAndTheHandlersItMayUse(TestInfo test) throws Exception {
        Troupe troupe = start(builder(test).handler("greet", Actors.greeter("hello"))
                .handler("echo", Actors.greeter("echo")).handler("admin", Actors.greeter("admin")));
        troupe.configureTenant("acme", TenantPolicy.defaults().withMaxActors(1).withHandlers(Set.of("greet", "echo")));

        assertEquals("hello ada", ask(troupe, "acme", "greet", "ada"));
        assertEquals(ErrorCode.TENANT_LIMIT_ACTORS, askFailure(troupe, "acme", "echo"));
        assertEquals(ErrorCode.NO_HANDLER, askFailure(troupe, "acme", "admin"));
        assertTrue(troupe.handler("acme", "admin").isEmpty());
        assertEquals("admin grace", ask(troupe, "globex", "admin", "grace"), "another tenant has the defaults");

        assertEquals(1, troupe.stopTenant("acme").toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertEquals("echo again", ask(troupe, "acme", "echo", "again"), "a stopped tenant comes back fresh");
    }

    @Test
    void closeStopsChildrenBeforeParentsRunsPostStopEndsEveryThreadAndIsIdempotent(TestInfo test)
            throws Exception {
        Troupe troupe = builder(test).build();
        List<String> stops = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch bothStarted = new CountDownLatch(2);
        ActorRef parent = troupe.spawn(() -> new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                ctx.spawn(() -> Actors.recordingStop("child", stops, bothStarted),
                        ActorOptions.defaults().withName("child"));
                bothStarted.countDown();
            }

            @Override
            public void receive(ActorContext ctx, Object message) {
            }

            @Override
            public void postStop(ActorContext ctx) {
                stops.add("parent");
            }
        }, ActorOptions.defaults().withName("parent"));
        assertTrue(bothStarted.await(10, TimeUnit.SECONDS));
        assertEquals(parent, troupe.lookup("", "parent").orElseThrow());
        ActorRef child = troupe.lookup("", "parent/child").orElseThrow();
        CompletableFuture<Void> terminated = troupe.whenTerminated().toCompletableFuture();
        assertFalse(terminated.isDone());
        List<Thread> threads = threadsOf(prefix);
        Set<String> names = Set.copyOf(threads.stream().map(Thread::getName).toList());
        assertTrue(names.containsAll(Set.of(prefix + "-worker-1", prefix + "-worker-2", prefix + "-timer",
                prefix + "-monitor")), names.toString());

        troupe.close();

        assertEquals(List.of("child", "parent"), stops, "close returned after every postStop, children first");
        assertTrue(terminated.isDone(), "the runtime's termination completed within close");
        assertTrue(child.isStopped() && parent.isStopped());
        troupe.close();
        assertEquals(List.of("child", "parent"), stops);
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(thread.isAlive(), thread.getName() + " still runs");
        }
        assertEquals(List.of(), threadsOf(prefix));
        assertThrows(IllegalStateException.class, () -> troupe.registerHandler("late", Actors.greeter("late")));
        assertThrows(IllegalStateException.class, () -> troupe.spawn(() -> (ctx, m) -> { }, ActorOptions.defaults()));
        assertEquals(ErrorCode.NO_HANDLER, askFailure(troupe, "acme", "late"));
    }

    @Test
    void anActorCannotCloseItsOwnRuntimeWhichKeepsRunning(TestInfo test) throws Exception {
        Troupe troupe = start(builder(test));
        ActorRef closer = troupe.spawn(() -> (ctx, message) -> {
            try {
                troupe.close();
                ctx.reply("closed");
            } catch (IllegalStateException e) {
                ctx.reply(e.getMessage());
            }
        }, ActorOptions.defaults());

        Object reply = closer.ask("close", ASK).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertEquals("a Troupe runtime cannot be closed from one of its own actors: close() waits for every actor's"
                + " turn to end, this one's too; close it from another thread", reply);
        ActorRef echo = troupe.spawn(() -> (ctx, message) -> ctx.reply(message), ActorOptions.defaults());
        assertEquals("still", echo.ask("still", ASK).toCompletableFuture().get(10, TimeUnit.SECONDS),
                "the runtime still runs");
    }

    @Test
    void withoutTheMonitorNoMonitorThreadRuns(TestInfo test) {
        Troupe troupe = start(builder(test).monitor(false));
        assertEquals(List.of(prefix + "-timer", prefix + "-worker-1", prefix + "-worker-2"),
                threadsOf(prefix).stream().map(Thread::getName).sorted().toList());
        troupe.close();
    }

    @Test
    void twoRuntimesInOneJvmShareNothingAndOneClosingLeavesTheOtherRunning() throws Exception {
        Troupe first = start(Troupe.builder().workers(1).threadNamePrefix("embedded-first")
                .handler("who", Actors.greeter("first")));
        Troupe second = start(Troupe.builder().workers(1).threadNamePrefix("embedded-second")
                .handler("who", Actors.greeter("second")).factory("only.second", Actors.greeter("x")));
        ActorRef actor = second.spawn(() -> (ctx, message) -> ctx.reply(message), ActorOptions.defaults());

        assertEquals("first ada", ask(first, "acme", "who", "ada"));
        assertEquals("second ada", ask(second, "acme", "who", "ada"));
        assertEquals(Set.of(), first.factoryNames());
        assertTrue(first.lookup(actor.id()).isEmpty() || first.lookup(actor.id()).get() != actor,
                "an actor of one runtime is not the other's");

        first.close();

        assertEquals("second grace", ask(second, "acme", "who", "grace"));
        assertEquals("still", actor.ask("still", ASK).toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertEquals(List.of(), threadsOf("embedded-first"));
        assertFalse(threadsOf("embedded-second").isEmpty());
    }

    @Test
    void theClassCommentsExampleRuns() throws Exception {
        // the example of Troupe's javadoc, as written there
        try (Troupe troupe = Troupe.builder()
                .workers(2)
                .handler("greet", () -> (ctx, message) -> ctx.reply("hello " + ((Message) message).text()))
                .build()) {
            Object reply = troupe.ask("acme", Message.of("greet", "ada"), Duration.ofSeconds(1))
                    .toCompletableFuture().join();
            System.out.println(reply);                                          // hello ada
            ActorRef echo = troupe.spawn(() -> (ctx, message) -> ctx.reply(message), ActorOptions.defaults());
            Object same = echo.ask("ping", Duration.ofSeconds(1)).toCompletableFuture().join();   // ping

            assertEquals("hello ada", reply);
            assertEquals("ping", same);
        }
    }

    /** The live threads named {@code prefix-...}. */
    private static List<Thread> threadsOf(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(thread -> thread.getName().startsWith(prefix + "-")).toList();
    }
}
