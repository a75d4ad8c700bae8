package io.troupe.testkit;

import java.util.List;
import java.util.Objects;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;

/**
 * One actor under test with its {@link TestActorContext}: created from its factory and started as the
 * runtime would, then fed messages one at a time.
 *
 * <pre>
 * ActorHarness counter = ActorHarness.start(CounterActor::new);
 * assertEquals(..., counter.deliver(Message.of("counter.add", "5")).onlyMessage());
 * </pre>
 *
 * <p><b>Threading:</b> not thread-safe; confined to the test's thread, for deterministic unit tests
 * of one actor. Each call runs one turn synchronously.
 */
public final class ActorHarness {

    private final Actor actor;
    private final TestActorContext context;

    private ActorHarness(Actor actor, TestActorContext context) {
        this.actor = actor;
        this.context = context;
    }

    /** Creates an actor from {@code factory} with a context named {@code actor} and runs its preStart. */
    public static ActorHarness start(ActorFactory factory) throws Exception {
        return start(factory, new TestActorContext("actor"));
    }

    /** Creates an actor from {@code factory} and runs its preStart with {@code context}. */
    public static ActorHarness start(ActorFactory factory, TestActorContext context) throws Exception {
        Actor actor = Objects.requireNonNull(factory.create(), "the factory returned null");
        context.setSender(null);
        actor.preStart(context);
        return new ActorHarness(actor, context);
    }

    /** The actor under test, for calls the harness does not make (exportState, importState, ...). */
    public Actor actor() {
        return actor;
    }

    /** The context the actor runs with. */
    public TestActorContext context() {
        return context;
    }

    /**
     * Delivers {@code message} with a fresh one-shot reply address, as the runtime does for a request,
     * and returns that address: its {@link TestActorRef#messages() messages} are the replies.
     */
    public TestActorRef deliver(Object message) throws Exception {
        TestActorRef replyTo = context.newRef("reply");
        context.deliver(actor, message, replyTo);
        return replyTo;
    }

    /**
     * Delivers {@code message} with {@code sender} ({@code null} for none, as a timer delivers) and
     * returns what the actor told the sender during this turn (to {@link TestActorContext#deadLetters()}
     * when there was none), oldest first. Only replies to a {@link TestActorRef} or to no sender can be
     * seen; for another sender the list is empty.
     */
    public List<Object> deliverFrom(ActorRef sender, Object message) throws Exception {
        TestActorRef recorder = sender == null ? context.deadLetters()
                : sender instanceof TestActorRef ref ? ref : null;
        int before = recorder == null ? 0 : recorder.received().size();
        context.deliver(actor, message, sender);
        if (recorder == null) {
            return List.of();
        }
        List<Object> all = recorder.messages();
        return List.copyOf(all.subList(before, all.size()));
    }

    /** Runs the actor's postStop, as when it stops; deliver no message afterwards. */
    public void stop() {
        context.setSender(null);
        actor.postStop(context);
    }
}
