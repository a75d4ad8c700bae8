package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ChildFailed;
import io.troupe.api.ChildStopped;
import io.troupe.api.DeadLetter;
import io.troupe.api.Directive;
import io.troupe.api.ErrorCode;
import io.troupe.api.Factory;
import io.troupe.api.Failure;
import io.troupe.api.Handler;
import io.troupe.api.Message;
import io.troupe.api.Poolable;
import io.troupe.api.SupervisorStrategy;
import io.troupe.api.Timers;
import io.troupe.api.TroupeException;
import io.troupe.api.TroupeRuntime;

/**
 * Compile-only test of the exported package {@code io.troupe.api} (1.2.0), after Pekko's
 * {@code ActorCompile}: every public signature of the package is used here as a plugin uses it, from
 * outside the package. Consumer types ({@link Actor}, {@link ActorFactory}) are implemented, as lambdas
 * too; provider types ({@link ActorContext}, {@link ActorRef}, {@link Timers}, {@link TroupeRuntime}) are
 * called; every constructor, factory, accessor and constant is referenced with its declared type, and
 * checked exceptions are caught or declared as the signatures demand.
 *
 * <p>Its value is that it compiles: a change to the package that breaks a plugin's source fails the
 * build here, even where no behaviour test notices. bnd's baseline check (see {@code baseline/README.md})
 * guards the binary API against the last release; this class guards the source. None of the methods
 * below is ever called: the single test only lets the runner count the class. When the package gains
 * a public signature, add a use of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class ApiCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheActorApi() {
        // Nothing to run: the class compiled. This names the package it covers, for the report.
        assertEquals("io.troupe.api", Actor.class.getPackageName());
    }

    /** A consumer type with one abstract method stays a functional interface. */
    static final Actor LAMBDA_ACTOR = (ctx, message) -> ctx.reply(message);

    static final ActorFactory LAMBDA_FACTORY = () -> LAMBDA_ACTOR;

    static final ActorFactory CONSTRUCTOR_FACTORY = EveryCallback::new;

    /** Overrides every callback of {@link Actor} with its exact signature and checked exceptions. */
    static final class EveryCallback implements Actor {

        @Override
        public void receive(ActorContext ctx, Object message) throws Exception {
            useContext(ctx, message);
        }

        @Override
        public void preStart(ActorContext ctx) throws Exception {
            Actor.super.preStart(ctx);
        }

        @Override
        public void postStop(ActorContext ctx) {
            Actor.super.postStop(ctx);
        }

        @Override
        public void preRestart(ActorContext ctx, Throwable cause, Object message) {
            Actor.super.preRestart(ctx, cause, message);
        }

        @Override
        public Object exportState(ActorContext ctx) throws Exception {
            return Actor.super.exportState(ctx);
        }

        @Override
        public void importState(ActorContext ctx, Object state) throws Exception {
            Actor.super.importState(ctx, state);
        }

        @Override
        public SupervisorStrategy supervisorStrategy() {
            return Actor.super.supervisorStrategy();
        }
    }

    /** The component property types, applied as a plugin applies them. */
    @Handler({"compile.one", "compile.two"})
    @Poolable(min = 1, max = 8)
    static final class PooledHandler implements ActorFactory {

        @Override
        public Actor create() {
            return LAMBDA_ACTOR;
        }
    }

    @Factory("compile.child")
    static final class NamedFactory implements ActorFactory {

        @Override
        public Actor create() {
            return new EveryCallback();
        }
    }

    static void useContext(ActorContext ctx, Object message) {
        ActorRef self = ctx.self();
        ActorRef parent = ctx.parent();
        ActorRef sender = ctx.sender();
        ctx.reply(message);
        ctx.forward(parent);
        String tenant = ctx.tenant();
        ActorOptions options = ActorOptions.defaults().withName(tenant).withMailboxCapacity(16);
        ActorRef fromFactory = ctx.spawn(LAMBDA_FACTORY);
        ActorRef fromFactoryWithOptions = ctx.spawn(CONSTRUCTOR_FACTORY, options);
        ActorRef fromName = ctx.spawn("compile.child");
        ActorRef fromNameWithOptions = ctx.spawn("compile.child", options);
        Collection<ActorRef> children = ctx.children();
        ctx.stop(fromFactory);
        ctx.stop();
        Timers timers = ctx.timers();
        use(self, sender, fromFactoryWithOptions, fromName, fromNameWithOptions, children, timers);
    }

    static void useRef(ActorRef ref) throws InterruptedException {
        long id = ref.id();
        long parentId = ref.parentId();
        String name = ref.name();
        ref.tell("message");
        ref.tell("message", ref);
        boolean offered = ref.offer("message", null);
        boolean sent = ref.send("message", ref, Duration.ofSeconds(1));
        CompletionStage<Object> reply = ref.ask("message", Duration.ofSeconds(1));
        CompletionStage<Object> untimedReply = ref.ask("message");
        boolean stopped = ref.isStopped();
        use(id, parentId, name, offered, sent, reply, untimedReply, stopped);
    }

    static void useTimers(Timers timers) {
        timers.scheduleOnce("once", "tick", Duration.ofMillis(10));
        timers.scheduleAtFixedRate("rate", "tick", Duration.ZERO, Duration.ofSeconds(1));
        boolean cancelled = timers.cancel("once");
        boolean active = timers.isActive("rate");
        timers.cancelAll();
        use(cancelled, active);
    }

    static void useRuntime(TroupeRuntime runtime, ActorRef ref) throws Exception {
        String tenant = TroupeRuntime.DEFAULT_TENANT;
        Optional<ActorRef> handler = runtime.handler(tenant, "echo");
        CompletionStage<Object> reply = runtime.ask(tenant, Message.of("echo", "hi"), Duration.ofSeconds(1));
        boolean drained = runtime.awaitDrain(ref, () -> { });
        ActorRef spawned = runtime.spawn(LAMBDA_FACTORY, ActorOptions.defaults());
        ActorRef spawnedByName = runtime.spawn("compile.child", ActorOptions.defaults());
        runtime.stop(spawned);
        Optional<ActorRef> found = runtime.lookup(ref.id());
        Set<String> handlerNames = runtime.handlerNames();
        Set<String> factoryNames = runtime.factoryNames();
        List<ActorInfo> actors = runtime.actors();
        long deadLetters = runtime.deadLetterCount();
        Consumer<DeadLetter> listener = letter -> use(letter);
        try (AutoCloseable subscription = runtime.subscribeDeadLetters(listener)) {
            use(handler, reply, drained, spawnedByName, found, handlerNames, factoryNames, actors, deadLetters,
                    subscription);
        }
    }

    static void useValues(ActorRef ref, Throwable cause) {
        ActorInfo info = new ActorInfo(1L, 0L, "name", "tenant", "origin", 3, 10L, 1L);
        use(info.id(), info.parentId(), info.name(), info.tenant(), info.origin(), info.mailboxDepth(),
                info.processed(), info.failures());

        int defaultCapacity = ActorOptions.DEFAULT_MAILBOX_CAPACITY;
        ActorOptions options = ActorOptions.defaults();
        use(defaultCapacity, options.name(), options.mailboxCapacity());

        ChildFailed failed = new ChildFailed(ref, cause, Directive.RESTART);
        use(failed.child(), failed.cause(), failed.directive());
        ChildStopped stopped = new ChildStopped(ref, "stopped", null);
        use(stopped.child(), stopped.reason(), stopped.cause(), stopped.failed());
        DeadLetter letter = new DeadLetter(ref, "message", ref, "mailbox full", cause);
        use(letter.recipient(), letter.message(), letter.sender(), letter.reason(), letter.cause());

        Directive[] directives = {Directive.RESUME, Directive.RESTART, Directive.STOP, Directive.ESCALATE};
        use(directives, Directive.values(), Directive.valueOf("STOP"));

        use(ErrorCode.NO_HANDLER, ErrorCode.NO_FACTORY, ErrorCode.HANDLER_FAILED, ErrorCode.HANDLER_TIMEOUT,
                ErrorCode.MAILBOX_FULL, ErrorCode.BAD_REQUEST, ErrorCode.ACTOR_STOPPED, ErrorCode.SERVER_SHUTDOWN);
        use(Handler.PREFIX_, Handler.PROPERTY, Factory.PREFIX_, Factory.PROPERTY, Poolable.PREFIX_, Poolable.MIN,
                Poolable.MAX);

        Failure failure = new Failure(ErrorCode.BAD_REQUEST, "detail");
        Failure badRequest = Failure.badRequest("why");
        TroupeException asException = failure.toException();
        use(badRequest, asException, failure.code(), failure.detail());

        Message withClient = new Message("name", new byte[0], ref);
        Message withoutClient = new Message("name", new byte[0]);
        Message fromText = Message.of("name", "text");
        use(withClient.name(), withClient.content(), withClient.client(), withClient.text(), withoutClient,
                fromText);

        Function<Throwable, Directive> decider = t -> Directive.RESUME;
        SupervisorStrategy strategy = SupervisorStrategy.of(decider, 3, Duration.ofSeconds(5));
        SupervisorStrategy always = SupervisorStrategy.always(Directive.STOP);
        SupervisorStrategy standard = SupervisorStrategy.defaultStrategy();
        use(strategy.decide(cause), strategy.maxRestarts(), strategy.window(), always, standard);

        TroupeException plain = new TroupeException(ErrorCode.NO_HANDLER, "detail");
        TroupeException caused = new TroupeException(ErrorCode.HANDLER_FAILED, "detail", cause);
        use(plain.code(), plain.detail(), caused, new PluginException());
    }

    /** {@link TroupeException} stays open for plugins' own exceptions carrying a code. */
    static final class PluginException extends TroupeException {

        private static final long serialVersionUID = 1L;

        PluginException() {
            super("plugin.code", "detail");
        }
    }

    private static void use(Object... values) {
        // a sink, so that every value above is used
    }
}
