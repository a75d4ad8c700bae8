package io.troupe.sample.wordcount;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.Timers;
import io.troupe.api.TroupeException;

/**
 * A hand-written {@link ActorContext} for driving one actor message by message: spawned children are
 * {@link StubActorRef}s whose mail the test reads and answers itself.
 *
 * <p><b>Threading:</b> confined to the test thread.
 */
final class StubActorContext implements ActorContext {

    private static final AtomicLong IDS = new AtomicLong(100);

    private final StubActorRef self;
    private final StubActorRef parent;
    private final Set<String> factoryNames = new HashSet<>();
    private final List<StubActorRef> spawned = new ArrayList<>();
    private final List<ActorRef> stoppedChildren = new ArrayList<>();
    private ActorRef sender;
    private boolean stoppedSelf;
    private int spawnsBeforeFailure = Integer.MAX_VALUE;

    StubActorContext(String name, String... factoryNames) {
        this.parent = new StubActorRef(IDS.incrementAndGet(), 0, "parent-of-" + name);
        this.self = new StubActorRef(IDS.incrementAndGet(), parent.id(), name);
        this.factoryNames.addAll(List.of(factoryNames));
    }

    /** Hands {@code message} from {@code from} to {@code actor}, as a worker would. */
    void deliver(io.troupe.api.Actor actor, Object message, ActorRef from) throws Exception {
        sender = from;
        actor.receive(this, message);
    }

    /** Lets {@code count} more spawns succeed, then makes spawning fail as if the factory went away. */
    void failSpawningAfter(int count) {
        spawnsBeforeFailure = count;
    }

    List<StubActorRef> spawned() {
        return spawned;
    }

    List<ActorRef> stoppedChildren() {
        return stoppedChildren;
    }

    boolean stoppedSelf() {
        return stoppedSelf;
    }

    StubActorRef parentRef() {
        return parent;
    }

    @Override
    public StubActorRef self() {
        return self;
    }

    @Override
    public ActorRef parent() {
        return parent;
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
        throw new UnsupportedOperationException("the sample spawns by name");
    }

    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        if (!factoryNames.contains(factoryName) || spawnsBeforeFailure-- <= 0) {
            throw new TroupeException(ErrorCode.NO_FACTORY, "no factory named " + factoryName);
        }
        String name = options.name() == null ? factoryName : options.name();
        StubActorRef child = new StubActorRef(IDS.incrementAndGet(), self.id(), name);
        spawned.add(child);
        return child;
    }

    @Override
    public Collection<ActorRef> children() {
        List<ActorRef> live = new ArrayList<>(spawned);
        live.removeAll(stoppedChildren);
        return live;
    }

    @Override
    public void stop(ActorRef child) {
        stoppedChildren.add(child);
        ((StubActorRef) child).markStopped();
    }

    @Override
    public void stop() {
        stoppedSelf = true;
    }

    @Override
    public Timers timers() {
        throw new UnsupportedOperationException("not used by these tests");
    }
}
