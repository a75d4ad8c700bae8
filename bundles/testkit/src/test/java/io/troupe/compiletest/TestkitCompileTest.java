package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Timers;
import io.troupe.testkit.ActorHarness;
import io.troupe.testkit.TestActorContext;
import io.troupe.testkit.TestActorRef;
import io.troupe.testkit.TestTimers;

/**
 * Compile-only test of the exported package {@code io.troupe.testkit} (1.0.0), after Pekko's
 * {@code ActorCompile}: every public constructor and method of the harness and the test doubles is used
 * with its declared types (the doubles' narrower return types included, which tests rely on), from
 * outside the package, as a plugin's unit test uses them.
 *
 * <p>Its value is that it compiles: a change that breaks a plugin's tests fails the build here, even
 * where no behaviour test notices. bnd's baseline check (see {@code baseline/README.md}) guards the
 * binary API against the last release; this class guards the source. None of the methods below is ever
 * called: the single test only lets the runner count the class. When the package gains a public
 * signature, add a use of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class TestkitCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheTestKit() {
        // Nothing to run: the class compiled. This names the package it covers, for the report.
        assertEquals("io.troupe.testkit", ActorHarness.class.getPackageName());
    }

    static final Actor ECHO = (ctx, message) -> ctx.reply(message);

    static final ActorFactory FACTORY = () -> ECHO;

    static void useHarness() throws Exception {
        ActorHarness harness = ActorHarness.start(FACTORY);
        ActorHarness withContext = ActorHarness.start(FACTORY, new TestActorContext("acme"));
        Actor actor = harness.actor();
        TestActorContext context = harness.context();
        TestActorRef replyTo = harness.deliver("hello");
        List<Object> replies = withContext.deliverFrom(replyTo, "hello");
        harness.stop();
        use(actor, context, replies);
    }

    static void useContext(Actor actor) throws Exception {
        TestActorContext byTenant = new TestActorContext("acme");
        TestActorContext context = new TestActorContext(new TestActorRef(1L, "self"), new TestActorRef(0L, "parent"));
        context.deliver(actor, "message", byTenant.newRef("sender"));
        TestActorRef created = context.newRef("other");
        context.setSender(created);
        context.setTenant("acme");
        context.registerFactory("compile.child", FACTORY);
        context.failSpawningAfter(3);
        List<TestActorContext.Spawn> spawns = context.spawns();
        List<TestActorRef> spawned = context.spawned();
        List<ActorRef> stoppedChildren = context.stoppedChildren();
        boolean selfStopped = context.selfStopped();
        TestActorRef deadLetters = context.deadLetters();
        TestActorRef self = context.self();
        TestActorRef parent = context.parent();
        ActorRef sender = context.sender();
        context.reply("reply");
        context.forward(parent);
        String tenant = context.tenant();
        TestActorRef child = context.spawn(FACTORY, ActorOptions.defaults());
        TestActorRef named = context.spawn("compile.child", ActorOptions.defaults());
        Collection<ActorRef> children = context.children();
        context.stop(child);
        context.stop();
        TestTimers timers = context.timers();
        ActorContext asApi = context;
        Timers apiTimers = asApi.timers();
        use(spawns, spawned, stoppedChildren, selfStopped, deadLetters, self, sender, tenant, named, children,
                timers, apiTimers);

        TestActorContext.Spawn spawn = spawns.get(0);
        use(spawn.child(), spawn.factoryName(), spawn.factory(), spawn.options(),
                new TestActorContext.Spawn(child, "compile.child", FACTORY, ActorOptions.defaults()));
    }

    static void useRef() {
        TestActorRef ref = new TestActorRef(2L, "ref");
        TestActorRef child = new TestActorRef(3L, 2L, "child");
        List<TestActorRef.Envelope> received = ref.received();
        List<Object> messages = ref.messages();
        Object last = ref.lastMessage();
        Object only = ref.onlyMessage();
        ref.clear();
        ref.markStopped();
        ref.answerAsksWith(question -> "answer");
        long id = ref.id();
        long parentId = child.parentId();
        String name = ref.name();
        ref.tell("message", child);
        boolean offered = ref.offer("message", child);
        boolean sent = ref.send("message", child, Duration.ofSeconds(1)); // no InterruptedException to catch
        CompletionStage<Object> answer = ref.ask("question", Duration.ofSeconds(1));
        boolean stopped = ref.isStopped();
        use(received, messages, last, only, id, parentId, name, offered, sent, answer, stopped);

        TestActorRef.Envelope envelope = new TestActorRef.Envelope("message", child);
        use(envelope.message(), envelope.sender());
    }

    static void useTimers() {
        TestTimers timers = new TestTimers();
        timers.scheduleOnce("once", "tick", Duration.ofMillis(10));
        timers.scheduleAtFixedRate("rate", "tick", Duration.ZERO, Duration.ofSeconds(1));
        Map<String, TestTimers.Timer> scheduled = timers.scheduled();
        boolean cancelled = timers.cancel("once");
        boolean active = timers.isActive("rate");
        timers.cancelAll();
        TestTimers.Timer timer = new TestTimers.Timer("tick", Duration.ZERO, Duration.ofSeconds(1));
        use(scheduled, cancelled, active, timer.message(), timer.initialDelay(), timer.period(), timer.isPeriodic());
    }

    private static void use(Object... values) {
        // a sink, so that every value above is used
    }
}
