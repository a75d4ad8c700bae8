package io.troupe.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeException;
import io.troupe.api.TroupeRuntime;

/**
 * A hand-written {@link TroupeRuntime} for tests of what uses the runtime without an actor system (the
 * shell's commands, the server's sessions). Two kinds of handler, for the two ways a caller reaches
 * one:
 * <ul>
 * <li>{@link #handler(String, Function)} and {@link #failingHandler}: plain functions that answer
 *     {@link #ask(String, Message, Duration)} at once, on the caller's thread (every tenant asked is
 *     recorded in {@link #tenantsAsked}; {@link #askThrows} makes {@code ask} throw instead);</li>
 * <li>{@link #addHandler(String)}: a {@link StubActor} that {@link #handler(String, String)} returns,
 *     which records what it is told and asked and answers when the test completes the future of an
 *     {@link Asked}; backpressure is its {@link StubActor#full} flag, lifted by
 *     {@link StubActor#drain()}.</li>
 * </ul>
 * Spawned actors are {@link StubActor}s recorded in {@link #spawned}, receiving their messages at once
 * on the caller's thread; stopped ones are recorded in {@link #stopped}. {@link #actors},
 * {@link #factories} and {@link #deadLetters} are what the runtime reports. The fields are public and
 * mutable on purpose: a test sets up and inspects the double directly.
 *
 * <p><b>Threading:</b> not thread-safe: the test thread configures it, and the code under test calls it
 * on that thread (or after the test has finished configuring it, only reading).
 */
public final class StubRuntime implements TroupeRuntime {

    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    /** Handlers answering {@link #ask} directly, by message name. */
    public final Map<String, Function<Message, CompletionStage<Object>>> answers = new TreeMap<>();
    /** Handler actors returned by {@link #handler(String, String)}, by message name. */
    public final Map<String, StubActor> handlerActors = new TreeMap<>();
    /** The tenant of every {@link #ask}, in order. */
    public final List<String> tenantsAsked = new ArrayList<>();
    /** Every actor {@link #spawn}ed, in order. */
    public final List<StubActor> spawned = new ArrayList<>();
    /** Every actor {@link #stop}ped, in order. */
    public final List<ActorRef> stopped = new ArrayList<>();
    /** What {@link #actors()} returns. */
    public final List<ActorInfo> actors = new ArrayList<>();
    /** What {@link #factoryNames()} returns. */
    public final Set<String> factories = new TreeSet<>();
    /** What {@link #deadLetterCount()} returns. */
    public long deadLetters;
    /** When set, {@link #ask} throws it instead of returning a stage. */
    public RuntimeException askThrows;
    /** The policies {@link #configureTenant} was given, by tenant. */
    public final Map<String, TenantPolicy> policies = new TreeMap<>();
    /** Every tenant {@link #stopTenant}ped, in order. */
    public final List<String> tenantsStopped = new ArrayList<>();
    /** Every tenant {@link #handOverTenant}ed, in order (each is in {@link #tenantsStopped} too). */
    public final List<String> tenantsHandedOver = new ArrayList<>();
    /** Every tenant {@link #awaitTenantIdle} was asked for, in order. */
    public final List<String> tenantsAwaitedIdle = new ArrayList<>();
    /** When set, what {@link #awaitTenantIdle} returns. */
    public volatile CompletableFuture<Boolean> tenantIdle;
    /** Tenants whose queue is full: {@link #awaitTenantDrain} keeps their callbacks here and returns true. */
    public final Map<String, List<Runnable>> tenantsFull = new TreeMap<>();

    /** Adds a handler that answers {@link #ask} with {@code reply}'s value. */
    public StubRuntime handler(String name, Function<Message, Object> reply) {
        answers.put(name, message -> CompletableFuture.completedFuture(reply.apply(message)));
        return this;
    }

    /** Adds a handler that answers {@link #ask} with {@code failure}. */
    public StubRuntime failingHandler(String name, Throwable failure) {
        answers.put(name, message -> CompletableFuture.failedFuture(failure));
        return this;
    }

    /** Adds a handler actor for {@code name}, returned by {@link #handler(String, String)} for any tenant. */
    public StubActor addHandler(String name) {
        StubActor handler = new StubActor(name, null);
        handlerActors.put(name, handler);
        return handler;
    }

    /** Answers through the functions of {@link #handler(String, Function)}; {@code no.handler} for other names. */
    @Override
    public CompletionStage<Object> ask(String tenant, Message message, Duration timeout) {
        tenantsAsked.add(tenant);
        if (askThrows != null) {
            throw askThrows;
        }
        Function<Message, CompletionStage<Object>> answer = answers.get(message.name());
        if (answer == null) {
            return CompletableFuture.failedFuture(
                    new TroupeException(ErrorCode.NO_HANDLER, "no handler for " + message.name()));
        }
        return answer.apply(message);
    }

    @Override
    public Optional<ActorRef> handler(String tenant, String messageName) {
        return Optional.ofNullable(handlerActors.get(messageName));
    }

    /** Waits for a {@link StubActor} that is {@link StubActor#full}; any other target has room. */
    @Override
    public boolean awaitDrain(ActorRef target, Runnable onDrained) {
        if (!(target instanceof StubActor actor) || !actor.full) {
            return false;
        }
        actor.onDrained.add(onDrained);
        return true;
    }

    @Override
    public ActorRef spawn(ActorFactory factory, ActorOptions options) {
        StubActor actor = new StubActor(options.name(), factory.create());
        spawned.add(actor);
        return actor;
    }

    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        throw new UnsupportedOperationException("StubRuntime spawns from an ActorFactory only");
    }

    @Override
    public void stop(ActorRef actor) {
        stopped.add(actor);
        if (actor instanceof StubActor stub) {
            stub.stopped = true;
        }
    }

    @Override
    public Optional<ActorRef> lookup(long id) {
        return Optional.empty();
    }

    /** A stub spawns no named actors: nothing is found. */
    @Override
    public Optional<ActorRef> lookup(String tenant, String path) {
        return Optional.empty();
    }

    /** Never completes: a stub runtime is not stopped. */
    @Override
    public CompletionStage<Void> whenTerminated() {
        return terminated;
    }

    /** The names of both kinds of handler, sorted. */
    @Override
    public Set<String> handlerNames() {
        Set<String> names = new TreeSet<>(answers.keySet());
        names.addAll(handlerActors.keySet());
        return names;
    }

    @Override
    public Set<String> factoryNames() {
        return factories;
    }

    @Override
    public List<ActorInfo> actors() {
        return actors;
    }

    @Override
    public long deadLetterCount() {
        return deadLetters;
    }

    @Override
    public AutoCloseable subscribeDeadLetters(Consumer<DeadLetter> listener) {
        return () -> { };
    }

    @Override
    public void configureTenant(String tenant, TenantPolicy policy) {
        policies.put(tenant, policy);
    }

    @Override
    public TenantPolicy tenantPolicy(String tenant) {
        return policies.getOrDefault(tenant, TenantPolicy.defaults());
    }

    /** Records the tenant, forgets its policy and completes with 0 (the double has no tenant actors). */
    @Override
    public CompletionStage<Integer> stopTenant(String tenant) {
        tenantsStopped.add(tenant);
        policies.remove(tenant);
        return CompletableFuture.completedFuture(0);
    }

    /** Records the tenant in {@link #tenantsHandedOver} and stops it as {@link #stopTenant} does. */
    @Override
    public CompletionStage<Integer> handOverTenant(String tenant) {
        tenantsHandedOver.add(tenant);
        return stopTenant(tenant);
    }

    /**
     * Records the tenant in {@link #tenantsAwaitedIdle}; completes with {@code true} at once, or with
     * {@link #tenantIdle} when a test has set it (to decide when and how the wait ends).
     */
    @Override
    public CompletionStage<Boolean> awaitTenantIdle(String tenant, Duration patience) {
        tenantsAwaitedIdle.add(tenant);
        CompletableFuture<Boolean> idle = tenantIdle;
        return idle != null ? idle : CompletableFuture.completedFuture(true);
    }

    /** True, keeping {@code onDrained} in {@link #tenantsFull}, for a tenant listed there; else false. */
    @Override
    public boolean awaitTenantDrain(String tenant, Runnable onDrained) {
        List<Runnable> waiting = tenantsFull.get(tenant);
        if (waiting == null) {
            return false;
        }
        waiting.add(onDrained);
        return true;
    }

    /**
     * An actor reference that records what it is told and asked; a spawned one hands what it is told
     * to its actor at once. Not thread-safe, like its runtime.
     */
    public static final class StubActor implements ActorRef {
        public final String name;
        /** The actor a spawned reference delivers to; null for a handler. */
        public final Actor actor;
        public final List<Object> told = new ArrayList<>();
        public final List<Asked> asked = new ArrayList<>();
        /** The callbacks of {@link StubRuntime#awaitDrain} callers waiting for room. */
        public final List<Runnable> onDrained = new ArrayList<>();
        /** Whether the mailbox is above its high-water mark: {@link StubRuntime#awaitDrain} then waits. */
        public boolean full;
        public boolean stopped;

        StubActor(String name, Actor actor) {
            this.name = name;
            this.actor = actor;
        }

        /** The mailbox fell below its low-water mark: run the waiting producers' callbacks. */
        public void drain() {
            full = false;
            List<Runnable> waiting = List.copyOf(onDrained);
            onDrained.clear();
            waiting.forEach(Runnable::run);
        }

        @Override
        public long id() {
            return name.hashCode();
        }

        @Override
        public long parentId() {
            return 0;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void tell(Object message, ActorRef sender) {
            told.add(message);
            if (actor != null) {
                try {
                    actor.receive(null, message);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }

        @Override
        public boolean offer(Object message, ActorRef sender) {
            tell(message, sender);
            return true;
        }

        @Override
        public boolean send(Object message, ActorRef sender, Duration timeout) {
            tell(message, sender);
            return true;
        }

        @Override
        public CompletionStage<Object> ask(Object message, Duration timeout) {
            Asked ask = new Asked((Message) message, timeout, new CompletableFuture<>());
            asked.add(ask);
            return ask.reply();
        }

        /** Asked without a runtime timeout: recorded with a {@code null} timeout. */
        @Override
        public CompletionStage<Object> ask(Object message) {
            return ask(message, null);
        }

        @Override
        public boolean isStopped() {
            return stopped;
        }

        /** Complete once stopped through the runtime; otherwise a stage that has not completed yet. */
        @Override
        public CompletionStage<Void> whenTerminated() {
            return stopped ? CompletableFuture.completedFuture(null) : new CompletableFuture<>();
        }
    }

    /**
     * One ask of a {@link StubActor}: what was asked, with which timeout ({@code null}: none), and the
     * future the test completes.
     */
    public record Asked(Message message, Duration timeout, CompletableFuture<Object> reply) {
    }
}
