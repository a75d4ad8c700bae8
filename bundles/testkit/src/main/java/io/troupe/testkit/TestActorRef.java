package io.troupe.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.TroupeException;

/**
 * An {@link ActorRef} that records everything told to it, in order, standing in for any actor the
 * actor under test talks to: a requester's reply address, a client connection, a parent or a child.
 *
 * <p>Once {@linkplain #markStopped() stopped}, it records nothing more: the runtime would make such
 * messages dead letters. {@link #offer} and {@link #send} then return {@code false}.
 *
 * <p>{@link #ask} is answered synchronously by the function given to {@link #answerAsksWith}; without
 * one, the stage fails with a {@link TimeoutException}, as if no reply came in time.
 *
 * <p>Equality is identity, as for the runtime's references.
 *
 * <p><b>Threading:</b> not thread-safe; confined to the test's thread, for deterministic unit tests
 * of one actor.
 */
public final class TestActorRef implements ActorRef {

    /**
     * One message as it arrived.
     *
     * @param message what was told
     * @param sender  the reply address given with it, or {@code null} for none (and for asks)
     */
    public record Envelope(Object message, ActorRef sender) {
    }

    private final long id;
    private final long parentId;
    private final String name;
    private final List<Envelope> received = new ArrayList<>();
    private Function<Object, Object> askAnswers;
    private boolean stopped;
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    /** A reference with no parent. */
    public TestActorRef(long id, String name) {
        this(id, 0, name);
    }

    public TestActorRef(long id, long parentId, String name) {
        this.id = id;
        this.parentId = parentId;
        this.name = Objects.requireNonNull(name, "name");
    }

    /** Everything told (or asked) so far, oldest first; a read-only view. */
    public List<Envelope> received() {
        return Collections.unmodifiableList(received);
    }

    /** The messages alone, oldest first; a copy. */
    public List<Object> messages() {
        return received.stream().map(Envelope::message).toList();
    }

    /**
     * The most recent message.
     *
     * @throws AssertionError if nothing was told yet
     */
    public Object lastMessage() {
        if (received.isEmpty()) {
            throw new AssertionError(name + " expected a message, got none");
        }
        return received.get(received.size() - 1).message();
    }

    /**
     * The only message told so far.
     *
     * @throws AssertionError if there is not exactly one
     */
    public Object onlyMessage() {
        if (received.size() != 1) {
            throw new AssertionError(name + " expected one message, got " + received);
        }
        return received.get(0).message();
    }

    /** Forgets every message recorded so far. */
    public void clear() {
        received.clear();
    }

    /** Makes this reference stopped, as when its actor stops or its client connection closes. */
    public void markStopped() {
        stopped = true;
        terminated.complete(null);
    }

    /**
     * Answers every later {@link #ask} with {@code answers.apply(message)}: a {@link Failure} answer
     * fails the stage with its {@link TroupeException}, a thrown exception fails it with code
     * {@link ErrorCode#HANDLER_FAILED}, as the runtime does.
     */
    public void answerAsksWith(Function<Object, Object> answers) {
        this.askAnswers = Objects.requireNonNull(answers, "answers");
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public long parentId() {
        return parentId;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void tell(Object message, ActorRef sender) {
        if (!stopped) {
            received.add(new Envelope(message, sender));
        }
    }

    @Override
    public boolean offer(Object message, ActorRef sender) {
        tell(message, sender);
        return !stopped;
    }

    @Override
    public boolean send(Object message, ActorRef sender, Duration timeout) {
        tell(message, sender);
        return !stopped;
    }

    /** Records the message (with no sender) and answers it at once; see the class comment. */
    @Override
    public CompletionStage<Object> ask(Object message, Duration timeout) {
        if (stopped) {
            return CompletableFuture.failedFuture(new TroupeException(ErrorCode.ACTOR_STOPPED, name + " has stopped"));
        }
        received.add(new Envelope(message, null));
        if (askAnswers == null) {
            return CompletableFuture.failedFuture(new TimeoutException(name + " answers no asks in this test"));
        }
        Object answer;
        try {
            answer = askAnswers.apply(message);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(
                    new TroupeException(ErrorCode.HANDLER_FAILED, name + " failed on " + message, e));
        }
        if (answer instanceof Failure failure) {
            return CompletableFuture.failedFuture(failure.toException());
        }
        return CompletableFuture.completedFuture(answer);
    }

    @Override
    public boolean isStopped() {
        return stopped;
    }

    /** Completes when {@link #markStopped()} is called. */
    @Override
    public CompletionStage<Void> whenTerminated() {
        return terminated.thenApply(done -> null);
    }

    @Override
    public String toString() {
        return "TestActorRef[" + id + " " + name + "]";
    }
}
