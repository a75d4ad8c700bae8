package io.troupe.api;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The address of an actor. References are cheap, immutable and valid forever; messages sent to an
 * actor that has stopped go to dead letters.
 *
 * <p><b>Ordering:</b> messages from one sending thread or actor to one receiver are received in send
 * order.
 *
 * <p><b>Send modes</b> (Kilim's three): {@link #tell} never blocks and reports a full mailbox as a
 * dead letter with reason {@code mailbox full}; {@link #offer} never blocks and returns {@code false}
 * when full; {@link #send} blocks the calling thread until there is room or the timeout passes, and
 * may only be called from threads outside the runtime.
 *
 * <p><b>Threading:</b> every method may be called from any thread.
 */
@ProviderType
public interface ActorRef {

    /** The unique id of this actor within the runtime; never reused. */
    long id();

    /** The id of this actor's parent, or {@code 0} for a top-level actor. */
    long parentId();

    /** A short human-readable name, unique among siblings only by convention. */
    String name();

    /** Sends without a sender; a full mailbox makes the message a dead letter. */
    default void tell(Object message) {
        tell(message, null);
    }

    /**
     * Sends {@code message} with {@code sender} as the address for replies ({@code null} for none).
     * Never blocks; when the mailbox is full the message becomes a dead letter with reason
     * {@code mailbox full}.
     */
    void tell(Object message, ActorRef sender);

    /** Enqueues the message if the mailbox has room; returns {@code false} otherwise. Never blocks. */
    boolean offer(Object message, ActorRef sender);

    /**
     * Enqueues the message, waiting up to {@code timeout} for room in the mailbox.
     *
     * @return {@code false} if the timeout passed, or the actor stopped, before the message was accepted
     * @throws IllegalStateException if called on a runtime thread (a worker or an event loop), where
     *                               blocking is forbidden: use {@link #offer} or {@link #tell} there
     * @throws InterruptedException  if the calling thread is interrupted while waiting
     */
    boolean send(Object message, ActorRef sender, Duration timeout) throws InterruptedException;

    /**
     * Sends {@code message} with a temporary reply address. The stage completes with the first reply;
     * a {@link Failure} reply completes it exceptionally with a {@link TroupeException} carrying the
     * failure's code; it fails with {@link java.util.concurrent.TimeoutException} when no reply came
     * within {@code timeout}. If the receiver throws while handling the message, the stage fails with
     * code {@link ErrorCode#HANDLER_FAILED}.
     */
    CompletionStage<Object> ask(Object message, Duration timeout);

    /**
     * Like {@link #ask(Object, Duration)}, but the runtime keeps no timer: the stage completes with
     * the first reply, or fails when the message cannot be delivered or the receiver fails, and
     * never times out. For a caller that bounds many requests' waits itself, as the message server
     * does per connection on its loop; everyone else should give a timeout.
     *
     * <p>The default asks with a timeout of a century; the runtime's own references override it.
     *
     * @since 1.2
     */
    default CompletionStage<Object> ask(Object message) {
        return ask(message, Duration.ofDays(36_500));
    }

    /** Whether the actor has stopped (and will never process another message). */
    boolean isStopped();
}
