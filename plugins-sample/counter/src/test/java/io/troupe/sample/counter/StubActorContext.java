package io.troupe.sample.counter;

import java.util.Collection;
import java.util.List;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Timers;

/**
 * A hand-written {@link ActorContext} for driving one handler actor request by request: each request
 * gets a fresh one-shot reply address, as the runtime gives it.
 *
 * <p><b>Threading:</b> confined to the test thread.
 */
final class StubActorContext implements ActorContext {

    private final StubActorRef self = new StubActorRef(1, "counter");
    private long nextId = 100;
    private ActorRef sender;

    /** Hands {@code message} to {@code actor} with a new reply address, and returns that address. */
    StubActorRef request(Actor actor, Object message) throws Exception {
        StubActorRef replyTo = new StubActorRef(nextId++, "reply-" + nextId);
        sender = replyTo;
        actor.receive(this, message);
        return replyTo;
    }

    @Override
    public ActorRef self() {
        return self;
    }

    @Override
    public ActorRef parent() {
        throw new UnsupportedOperationException("not used by these tests");
    }

    @Override
    public ActorRef sender() {
        return sender;
    }

    @Override
    public void reply(Object message) {
        sender.tell(message, self);
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
        throw new UnsupportedOperationException("the counter has no children");
    }

    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        throw new UnsupportedOperationException("the counter has no children");
    }

    @Override
    public Collection<ActorRef> children() {
        return List.of();
    }

    @Override
    public void stop(ActorRef child) {
        throw new UnsupportedOperationException("the counter has no children");
    }

    @Override
    public void stop() {
        throw new UnsupportedOperationException("the counter never stops itself");
    }

    @Override
    public Timers timers() {
        throw new UnsupportedOperationException("the counter has no timers");
    }
}
