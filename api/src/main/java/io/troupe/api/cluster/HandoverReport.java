package io.troupe.api.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@link TenantHandover#release} did to a tenant on this node.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param tenant          the tenant released
 * @param sessions        its sessions paused (they read nothing more and wait for {@link TenantHandover#redirect})
 * @param requests        the requests those sessions had accepted and that were answered before the release
 * @param actors          its actors stopped (their durable state was stored before they stopped)
 * @param drained         from the pause to the last actor stopped
 * @param complete        false when the release gave up waiting (see {@code detail}); the actors were
 *                        stopped anyway, and what they had not processed became dead letters
 * @param detail          a sentence for logs
 */
public record HandoverReport(String tenant, int sessions, long requests, int actors, Duration drained,
        boolean complete, String detail) {

    public HandoverReport {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(drained, "drained");
        Objects.requireNonNull(detail, "detail");
    }
}
