package io.troupe.api.monitor;

import java.util.Objects;

/**
 * One tenant's actors as the runtime schedules them (since 1.3).
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param tenant         the tenant id
 * @param weight         its scheduling weight
 * @param actors         its live actors
 * @param maxActors      the most it may have; 0 for no limit
 * @param queuedMessages messages waiting in its mailboxes now
 * @param maxQueuedMessages the queue limit; 0 for no limit
 * @param turns          actor turns its actors have run since the runtime started
 * @param workerNanos    worker time its actors' turns have taken since the runtime started
 * @param workerShare    the share of the worker pool's capacity its turns took over the last sampling
 *                       window (about a second): 0.5 means half of all workers' time
 */
public record TenantLoad(String tenant, int weight, int actors, int maxActors, long queuedMessages,
                         int maxQueuedMessages, long turns, long workerNanos, double workerShare) {

    public TenantLoad {
        Objects.requireNonNull(tenant, "tenant");
    }
}
