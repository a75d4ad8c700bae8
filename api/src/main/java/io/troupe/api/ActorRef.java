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
 * <p><b>Send modes</b> (Kilim's three): {@link #tell} never blocks and does what the receiver's
 * {@link MailboxOverflow} policy says when its mailbox is full: by default it queues the message
 * anyway, so a local {@code tell} is never lost; {@link #offer} never blocks and returns {@code false}
 * when full; {@link #send} blocks the calling thread until there is room or the timeout passes, and
 * may only be called from threads outside the runtime.
 *
 * <pre>
 * ActorRef counter = runtime.spawn(Counter::new, ActorOptions.defaults().withName("counter"));
 * counter.tell(5L);                                           // fire and forget
 * counter.ask("get", Duration.ofSeconds(1))                   // request and reply
 *        .thenAccept(total -&gt; System.out.println("total " + total));
 * counter.whenTerminated().thenRun(() -&gt; System.out.println("counter stopped"));
 * </pre>
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

    /** Sends without a sender; see {@link #tell(Object, ActorRef)}. */
    default void tell(Object message) {
        tell(message, null);
    }

    /**
     * Sends {@code message} with {@code sender} as the address for replies ({@code null} for none).
     * Never blocks. When the mailbox is full, the receiver's {@link MailboxOverflow} policy applies:
     * with the default, {@link MailboxOverflow#BACKPRESSURE}, the message is queued anyway and never
     * lost; {@link MailboxOverflow#DROP_NEWEST} and {@link MailboxOverflow#DROP_OLDEST} make a message
     * a dead letter; {@link MailboxOverflow#REJECT} throws. A message to an actor that has stopped is a
     * dead letter.
     *
     * @throws MailboxFullException when the receiver's mailbox is full and its policy is
     *                              {@link MailboxOverflow#REJECT}; the message was not queued
     */
    void tell(Object message, ActorRef sender);

    /**
     * Enqueues the message if the mailbox holds fewer than its capacity; returns {@code false}
     * otherwise, whatever the receiver's {@link MailboxOverflow} policy (the caller decides). Never
     * blocks, never throws for a full mailbox.
     */
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

    /**
     * Completes, on a runtime thread, once the actor has stopped: after its {@code postStop} and its
     * children's. Already complete when it has stopped. Never completes exceptionally: a failure that
     * stops the actor still stops it. Callbacks must be quick (hand work to your own thread or send a
     * message); from an actor, prefer {@link ActorContext#watch}, whose notice arrives on its turn.
     *
     * @since 1.4
     */
    CompletionStage<Void> whenTerminated();
}
