package io.troupe.shell;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.api.TroupeRuntime;

/**
 * A hand-written {@link TroupeRuntime} whose handlers are plain functions answering synchronously.
 *
 * <p><b>Threading:</b> configure it before use; afterwards it is only read.
 */
final class StubRuntime implements TroupeRuntime {

    final Map<String, Function<Message, CompletionStage<Object>>> handlers = new TreeMap<>();
    final List<ActorInfo> actors = new ArrayList<>();
    final List<String> tenantsAsked = new ArrayList<>();
    long deadLetters;
    /** When set, {@link #ask} throws it instead of returning a stage. */
    RuntimeException askThrows;

    StubRuntime handler(String name, Function<Message, Object> reply) {
        handlers.put(name, message -> CompletableFuture.completedFuture(reply.apply(message)));
        return this;
    }

    StubRuntime failingHandler(String name, Throwable failure) {
        handlers.put(name, message -> CompletableFuture.failedFuture(failure));
        return this;
    }

    @Override
    public CompletionStage<Object> ask(String tenant, Message message, Duration timeout) {
        tenantsAsked.add(tenant);
        if (askThrows != null) {
            throw askThrows;
        }
        Function<Message, CompletionStage<Object>> handler = handlers.get(message.name());
        if (handler == null) {
            return CompletableFuture.failedFuture(
                    new TroupeException(ErrorCode.NO_HANDLER, "no handler for " + message.name()));
        }
        return handler.apply(message);
    }

    @Override
    public boolean awaitDrain(ActorRef target, Runnable onDrained) {
        return false;
    }

    @Override
    public Optional<ActorRef> handler(String tenant, String messageName) {
        return Optional.empty();
    }

    @Override
    public ActorRef spawn(ActorFactory factory, ActorOptions options) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void stop(ActorRef actor) {
        throw new UnsupportedOperationException();
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
        return Set.of("wordcount.chunk");
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
}
