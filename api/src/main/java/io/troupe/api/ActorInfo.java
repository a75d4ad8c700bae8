package io.troupe.api;

/**
 * A snapshot of one live actor, for shells and monitoring.
 *
 * @param id           the actor id
 * @param parentId     the parent's id, {@code 0} for top-level actors
 * @param name         display name
 * @param tenant       the tenant, empty for system actors
 * @param origin       where its code comes from: a handler or factory name, or the class that spawned it
 * @param mailboxDepth messages waiting
 * @param processed    messages processed so far
 * @param failures     failures of {@code receive} so far
 */
public record ActorInfo(long id, long parentId, String name, String tenant, String origin,
                        int mailboxDepth, long processed, long failures) {
}
