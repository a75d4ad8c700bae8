package io.troupe.api.monitor;

/**
 * The actors serving one handler name, added up across tenants.
 *
 * <p><b>Threading:</b> immutable; share it freely.
 *
 * @param name         the handler name, for example {@code echo}
 * @param actors       live actors created from the handler (one per tenant that used it)
 * @param mailboxDepth messages waiting in their mailboxes
 * @param processed    messages processed by the handler's actors since the runtime started (requests, timers and
 *                     notifications), those of actors that have stopped included (since 1.4; before, a stopped
 *                     actor's count left the total)
 * @param failures     failures of {@code receive} in them, those of stopped actors included (since 1.4)
 */
public record HandlerStats(String name, int actors, long mailboxDepth, long processed, long failures) {
}
