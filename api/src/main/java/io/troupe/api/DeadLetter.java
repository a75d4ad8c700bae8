package io.troupe.api;

/**
 * A message that could not be delivered or processed.
 *
 * @param recipient the intended receiver (may be {@code null} when it never existed)
 * @param message   the message
 * @param sender    its sender, or {@code null}
 * @param reason    why, for example {@code mailbox full}, {@code actor stopped}, {@code receive failed}
 * @param cause     the failure, when there was one, else {@code null}
 */
public record DeadLetter(ActorRef recipient, Object message, ActorRef sender, String reason, Throwable cause) {
}
