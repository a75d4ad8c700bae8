package io.troupe.server.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;

/**
 * A hand-written {@link TroupeRuntime} for session tests: handlers are {@link StubActor}s that record
 * what they are told and asked and answer when the test completes their futures; backpressure is a
 * flag per handler; spawned actors receive their messages at once, on the caller's thread.
 *
 * <p><b>Threading:</b> the test thread.
 */
final class StubRuntime implements TroupeRuntime {

    final Map<String, StubActor> handlers = new HashMap<>();
    final List<StubActor> spawned = new ArrayList<>();
    final List<ActorRef> stopped = new ArrayList<>();

    StubActor addHandler(String name) {
        StubActor handler = new StubActor(name, null);
        handlers.put(name, handler);
        return handler;
    }

    @Override
    public Optional<ActorRef> handler(String tenant, String messageName) {
        return Optional.ofNullable(handlers.get(messageName));
    }

    @Override
    public CompletionStage<Object> ask(String tenant, Message message, Duration timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean awaitDrain(ActorRef target, Runnable onDrained) {
        StubActor actor = (StubActor) target;
        if (!actor.full) {
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
        throw new UnsupportedOperationException();
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

    @Override
    public Set<String> handlerNames() {
        return handlers.keySet();
    }

    @Override
    public Set<String> factoryNames() {
        return Set.of();
    }

    @Override
    public List<ActorInfo> actors() {
        return List.of();
    }

    @Override
    public long deadLetterCount() {
        return 0;
    }

    @Override
    public AutoCloseable subscribeDeadLetters(Consumer<DeadLetter> listener) {
        return () -> { };
    }

    /** An actor reference that records; a spawned one hands messages to its actor. */
    static final class StubActor implements ActorRef {
        final String name;
        final Actor actor;
        final List<Object> told = new ArrayList<>();
        final List<Asked> asked = new ArrayList<>();
        final List<Runnable> onDrained = new ArrayList<>();
        boolean full;
        boolean stopped;

        StubActor(String name, Actor actor) {
            this.name = name;
            this.actor = actor;
        }

        /** The mailbox fell below its low-water mark: run the waiting producers' callbacks. */
        void drain() {
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
    }

    /** One ask: what was asked, with which timeout ({@code null}: none), and the future the test completes. */
    record Asked(Message message, Duration timeout, CompletableFuture<Object> reply) {
    }
}
