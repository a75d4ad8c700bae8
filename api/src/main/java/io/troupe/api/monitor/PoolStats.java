package io.troupe.api.monitor;

/**
 * One tenant's pool of actors serving a poolable handler (see {@link io.troupe.api.Poolable}).
 *
 * <p><b>Threading:</b> immutable; share it freely.
 *
 * @param handler      the handler name, for example {@code thumbnail}
 * @param tenant       the tenant the pool serves
 * @param size         members messages are routed to now (retiring members not counted)
 * @param min          the fewest members the pool keeps
 * @param max          the most members the pool may grow to
 * @param mailboxDepth messages waiting in the members' mailboxes
 * @param stalled      members whose current turn the monitor reported as stalled
 */
public record PoolStats(String handler, String tenant, int size, int min, int max, long mailboxDepth,
                        int stalled) {
}
