package io.troupe.sample.chat;

import java.util.Collection;
import java.util.List;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Timers;

/**
 * A hand-written {@link ActorContext} for driving one handler actor message by message: each request
 * gets a fresh one-shot reply address, as the runtime gives it.
 *
 * <p><b>Threading:</b> confined to the test thread.
 */
final class StubActorContext implements ActorContext {

    private final StubActorRef self = new StubActorRef(1, "chat");
    private final StubTimers timers = new StubTimers();
    private long nextId = 100;
    private ActorRef sender;

    /** Hands {@code message} to {@code actor} with a new reply address, and returns that address. */
    StubActorRef request(Actor actor, Object message) throws Exception {
        StubActorRef replyTo = new StubActorRef(nextId++, "reply-" + nextId);
        sender = replyTo;
        actor.receive(this, message);
        return replyTo;
    }

    /** Hands {@code message} to {@code actor} without a sender, as a timer delivers it. */
    void deliverWithoutSender(Actor actor, Object message) throws Exception {
        sender = null;
        actor.receive(this, message);
    }

    StubTimers stubTimers() {
        return timers;
    }

    @Override
    public StubActorRef self() {
        return self;
    }

    @Override
    public ActorRef parent() {
        throw new UnsupportedOperationException("not used by these tests");
    }

    @Override
    public ActorRef sender() {
        if (sender == null) {
            throw new AssertionError("the actor used the sender of a message that has none");
        }
        return sender;
    }

    @Override
    public void reply(Object message) {
        sender().tell(message, self);
    }

    @Override
    public void forward(ActorRef target) {
        throw new UnsupportedOperationException("not used by these tests");
    }

    @Override
    public String tenant() {
        return "test";
    }

    @Override
    public ActorRef spawn(ActorFactory factory, ActorOptions options) {
        throw new UnsupportedOperationException("the chat has no children");
    }

    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        throw new UnsupportedOperationException("the chat has no children");
    }

    @Override
    public Collection<ActorRef> children() {
        return List.of();
    }

    @Override
    public void stop(ActorRef child) {
        throw new UnsupportedOperationException("the chat has no children");
    }

    @Override
    public void stop() {
        throw new UnsupportedOperationException("the chat never stops itself");
    }

    @Override
    public Timers timers() {
        return timers;
    }
}
