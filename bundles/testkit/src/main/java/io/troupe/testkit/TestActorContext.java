package io.troupe.testkit;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.Receive;
import io.troupe.api.TroupeException;

/**
 * An {@link ActorContext} for driving one actor message by message. Everything the actor does
 * through it is recorded for the test to check: replies go to the sender (a {@link TestActorRef} if
 * the test chose one), spawned children are {@link TestActorRef}s that never run on their own, stops
 * and timers are only recorded.
 *
 * <pre>
 * TestActorContext ctx = new TestActorContext("splitter");
 * ctx.registerFactory("wordcount.chunk", ChunkCounter::new);
 * ActorHarness splitter = ActorHarness.start(Splitter::new, ctx);
 * splitter.deliver(Message.of("wordcount", "a b c d"));
 * assertEquals(2, ctx.spawns().size());                  // two chunks, two children
 * assertEquals("wordcount.chunk", ctx.spawns().get(0).factoryName());
 * </pre>
 *
 * <p>With no sender set, {@link #sender()} is {@link #deadLetters()}, as the runtime gives a
 * reference whose messages go to dead letters; a test can check that nothing was replied there.
 *
 * <p>{@link #spawn(String, ActorOptions)} succeeds only for names registered with
 * {@link #registerFactory}; otherwise it throws {@link ErrorCode#NO_FACTORY}, as the runtime does.
 *
 * <p>The context's other powers act as the runtime's do, within one thread: {@link #become} switches
 * the behaviour {@link #deliver} hands messages to; {@link #unstashAll} re-delivers the stashed
 * messages, in order, before {@code deliver} returns; {@link #ask(ActorRef, Object, Duration)} asks the
 * target reference (a {@link TestActorRef} answers as told by {@link TestActorRef#answerAsksWith});
 * watches, top-level spawns, lookups ({@link #registerLookup}) and unhandled messages are recorded.
 *
 * <p><b>Threading:</b> not thread-safe; confined to the test's thread, for deterministic unit tests
 * of one actor.
 */
public final class TestActorContext implements ActorContext {

    /**
     * One child spawned by the actor.
     *
     * @param child       the child's reference
     * @param factoryName the factory name it was spawned by, or {@code null} if spawned by factory
     * @param factory     the factory it was spawned from: the one given, or the one registered
     * @param options     the options given
     */
    public record Spawn(TestActorRef child, String factoryName, ActorFactory factory, ActorOptions options) {
    }

    private final TestActorRef self;
    private final TestActorRef parent;
    private final TestActorRef deadLetters = new TestActorRef(-1, "dead-letters");
    private final TestTimers timers = new TestTimers();
    private final Map<String, ActorFactory> factories = new HashMap<>();
    private final List<Spawn> spawns = new ArrayList<>();
    private final List<ActorRef> stoppedChildren = new ArrayList<>();
    private long nextId = 100;
    private String tenant = "test";
    private ActorRef sender;
    private Object message;
    private boolean selfStopped;
    private int spawnsBeforeFailure = Integer.MAX_VALUE;
    private final List<Spawn> topLevelSpawns = new ArrayList<>();
    private final Map<String, ActorRef> lookups = new HashMap<>();
    private final Set<ActorRef> watched = new LinkedHashSet<>();
    private final List<Object> unhandled = new ArrayList<>();
    private final List<TestActorRef.Envelope> stash = new ArrayList<>();
    private final ArrayDeque<TestActorRef.Envelope> unstashed = new ArrayDeque<>();
    private Receive behaviour;
    private int saveRequests;

    /** A context for an actor called {@code name} (id 2), whose parent is {@code parent-of-name} (id 1). */
    public TestActorContext(String name) {
        this(new TestActorRef(2, 1, name), new TestActorRef(1, "parent-of-" + name));
    }

    /** A context with the given references; ids from 100 up are given to children and reply addresses. */
    public TestActorContext(TestActorRef self, TestActorRef parent) {
        this.self = Objects.requireNonNull(self, "self");
        this.parent = Objects.requireNonNull(parent, "parent");
    }

    /**
     * Runs one turn: {@code actor} receives {@code message} with {@code sender} ({@code null} for
     * none) as {@link #sender()}, as a worker hands it over.
     */
    public void deliver(Actor actor, Object message, ActorRef sender) throws Exception {
        turn(actor, message, sender);
        TestActorRef.Envelope next;
        while ((next = unstashed.pollFirst()) != null) {
            turn(actor, next.message(), next.sender());
        }
    }

    private void turn(Actor actor, Object message, ActorRef sender) throws Exception {
        setSender(sender);
        this.message = message;
        try {
            if (behaviour != null) {
                behaviour.onMessage(this, message);
            } else {
                actor.receive(this, message);
            }
        } finally {
            this.message = null;
        }
    }

    /** A new reference with an unused id, for example a reply address or a client connection. */
    public TestActorRef newRef(String name) {
        return new TestActorRef(nextId++, name);
    }

    /** Sets the sender of the current message; {@code null} for none. */
    public void setSender(ActorRef sender) {
        this.sender = sender;
    }

    /** Sets the tenant; {@code test} by default. */
    public void setTenant(String tenant) {
        this.tenant = Objects.requireNonNull(tenant, "tenant");
    }

    /** Lets {@link #spawn(String, ActorOptions)} find {@code factory} under {@code name}. */
    public void registerFactory(String name, ActorFactory factory) {
        factories.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(factory, "factory"));
    }

    /** Lets {@code count} more spawns by name succeed, then fails them as if the factory went away. */
    public void failSpawningAfter(int count) {
        spawnsBeforeFailure = count;
    }

    /** Every spawn so far, oldest first; a read-only view. */
    public List<Spawn> spawns() {
        return Collections.unmodifiableList(spawns);
    }

    /** The children spawned so far, stopped or not, oldest first; a copy. */
    public List<TestActorRef> spawned() {
        return spawns.stream().map(Spawn::child).toList();
    }

    /** The children this actor stopped, in order; a read-only view. */
    public List<ActorRef> stoppedChildren() {
        return Collections.unmodifiableList(stoppedChildren);
    }

    /** Whether the actor called {@link #stop()}. */
    public boolean selfStopped() {
        return selfStopped;
    }

    /** Where replies to a message without a sender go. */
    public TestActorRef deadLetters() {
        return deadLetters;
    }

    @Override
    public TestActorRef self() {
        return self;
    }

    @Override
    public TestActorRef parent() {
        return parent;
    }

    @Override
    public ActorRef sender() {
        return sender == null ? deadLetters : sender;
    }

    @Override
    public void reply(Object message) {
        sender().tell(message, self);
    }

    /** Tells the current message to {@code target} with its original sender; only during {@link #deliver}. */
    @Override
    public void forward(ActorRef target) {
        if (message == null) {
            throw new IllegalStateException("forward outside a turn started by deliver");
        }
        target.tell(message, sender);
    }

    @Override
    public String tenant() {
        return tenant;
    }

    @Override
    public TestActorRef spawn(ActorFactory factory, ActorOptions options) {
        Objects.requireNonNull(factory, "factory");
        return record(null, factory, options, "child");
    }

    @Override
    public TestActorRef spawn(String factoryName, ActorOptions options) {
        ActorFactory factory = factories.get(factoryName);
        if (factory == null || spawnsBeforeFailure-- <= 0) {
            throw new TroupeException(ErrorCode.NO_FACTORY, "no factory named " + factoryName);
        }
        return record(factoryName, factory, options, factoryName);
    }

    private TestActorRef record(String factoryName, ActorFactory factory, ActorOptions options, String defaultName) {
        return record(spawns, self.id(), factoryName, factory, options, defaultName);
    }

    /** A new reference under {@code parentId} (0 for a top-level actor), recorded in {@code into}. */
    private TestActorRef record(List<Spawn> into, long parentId, String factoryName, ActorFactory factory,
                                ActorOptions options, String defaultName) {
        String name = options.name() == null ? defaultName : options.name();
        TestActorRef actor = new TestActorRef(nextId++, parentId, name);
        into.add(new Spawn(actor, factoryName, factory, options));
        return actor;
    }

    @Override
    public Collection<ActorRef> children() {
        List<ActorRef> live = new ArrayList<>(spawned());
        live.removeAll(stoppedChildren);
        return live;
    }

    /** Records the stop and marks the child stopped; ignored for actors that are not children. */
    @Override
    public void stop(ActorRef child) {
        for (Spawn spawn : spawns) {
            if (spawn.child() == child && !stoppedChildren.contains(child)) {
                stoppedChildren.add(child);
                spawn.child().markStopped();
                return;
            }
        }
    }

    /** Only records the request; see {@link #selfStopped()}. */
    @Override
    public void stop() {
        selfStopped = true;
    }

    @Override
    public TestTimers timers() {
        return timers;
    }

    /** Lets {@link #lookup(String)} find {@code actor} at {@code path}. */
    public void registerLookup(String path, ActorRef actor) {
        lookups.put(Objects.requireNonNull(path, "path"), Objects.requireNonNull(actor, "actor"));
    }

    /** The top-level actors spawned so far, oldest first; a read-only view. */
    public List<Spawn> topLevelSpawns() {
        return Collections.unmodifiableList(topLevelSpawns);
    }

    /** The actors watched now, in the order they were first watched; a read-only view. */
    public Set<ActorRef> watched() {
        return Collections.unmodifiableSet(watched);
    }

    /** The messages reported {@linkplain #unhandled(Object) unhandled}, in order; a read-only view. */
    public List<Object> unhandledMessages() {
        return Collections.unmodifiableList(unhandled);
    }

    /** The messages stashed and not unstashed yet, in order; a read-only view. */
    public List<TestActorRef.Envelope> stashed() {
        return Collections.unmodifiableList(stash);
    }

    /** The behaviour set by {@link #become}, or {@code null} when {@code receive} handles messages. */
    public Receive behaviour() {
        return behaviour;
    }

    @Override
    public TestActorRef spawnTopLevel(ActorFactory factory, ActorOptions options) {
        Objects.requireNonNull(factory, "factory");
        return recordTopLevel(null, factory, options, "top-level");
    }

    @Override
    public TestActorRef spawnTopLevel(String factoryName, ActorOptions options) {
        ActorFactory factory = factories.get(factoryName);
        if (factory == null) {
            throw new TroupeException(ErrorCode.NO_FACTORY, "no factory named " + factoryName);
        }
        return recordTopLevel(factoryName, factory, options, factoryName);
    }

    private TestActorRef recordTopLevel(String factoryName, ActorFactory factory, ActorOptions options,
                                        String defaultName) {
        return record(topLevelSpawns, 0, factoryName, factory, options, defaultName);
    }

    @Override
    public Optional<ActorRef> lookup(String path) {
        return Optional.ofNullable(lookups.get(path));
    }

    /** Asks {@code target} directly: with a {@link TestActorRef}, the stage is already complete. */
    @Override
    public CompletionStage<Object> ask(ActorRef target, Object message, Duration timeout) {
        return target.ask(message, timeout);
    }

    /** Asks {@code target} directly and tells {@link #self()} the adapted outcome, from {@code target}. */
    @Override
    public void ask(ActorRef target, Object message, Duration timeout, BiFunction<Object, Throwable, Object> adapter) {
        target.ask(message, timeout).whenComplete((reply, failure) -> {
            Object adapted = adapter.apply(reply, failure);
            if (adapted != null) {
                self.tell(adapted, target);
            }
        });
    }

    @Override
    public void watch(ActorRef target) {
        watched.add(Objects.requireNonNull(target, "target"));
    }

    @Override
    public void unwatch(ActorRef target) {
        watched.remove(target);
    }

    /** Keeps the current message; only during {@link #deliver}. */
    @Override
    public void stash() {
        if (message == null) {
            throw new IllegalStateException("stash outside a turn started by deliver");
        }
        stash.add(new TestActorRef.Envelope(message, sender));
    }

    /** The stashed messages are delivered again, in order, before {@link #deliver} returns. */
    @Override
    public void unstashAll() {
        for (int i = stash.size() - 1; i >= 0; i--) {
            unstashed.addFirst(stash.get(i));
        }
        stash.clear();
    }

    @Override
    public void become(Receive next) {
        behaviour = Objects.requireNonNull(next, "behaviour");
    }

    @Override
    public void unbecome() {
        behaviour = null;
    }

    /** Records the request (see {@link #saveRequests()}) and completes at once: nothing is stored here. */
    @Override
    public CompletionStage<Void> saveState() {
        saveRequests++;
        return CompletableFuture.completedFuture(null);
    }

    /** How many times the actor asked for its state to be saved. */
    public int saveRequests() {
        return saveRequests;
    }

    @Override
    public void unhandled(Object message) {
        unhandled.add(message);
    }
}
