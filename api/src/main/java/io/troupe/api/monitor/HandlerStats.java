package io.troupe.api.monitor;

/**
 * The actors serving one handler name, added up across tenants.
 *
 * <p><b>Threading:</b> immutable; share it freely.
 *
 * @param name         the handler name, for example {@code echo}
 * @param actors       live actors created from the handler (one per tenant that used it)
 * @param mailboxDepth messages waiting in their mailboxes
 * @param processed    messages they processed (requests, timers and notifications)
 * @param failures     failures of {@code receive} in them
 */
public record HandlerStats(String name, int actors, long mailboxDepth, long processed, long failures) {
}
