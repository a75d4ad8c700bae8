package io.troupe.api;

/**
 * A message that could not be delivered or processed.
 *
 * <p><b>Threading:</b> an immutable record, created on the thread that failed to deliver the message
 * and handed as it is to every {@linkplain TroupeRuntime#subscribeDeadLetters dead-letter listener}; safe
 * to read from any thread (the message and cause are shared, not copied).
 *
 * @param recipient the intended receiver (may be {@code null} when it never existed)
 * @param message   the message
 * @param sender    its sender, or {@code null}
 * @param reason    why, for example {@code mailbox full}, {@code actor stopped}, {@code receive failed}
 * @param cause     the failure, when there was one, else {@code null}
 */
public record DeadLetter(ActorRef recipient, Object message, ActorRef sender, String reason, Throwable cause) {
}
