package io.troupe.api.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One tenant moving from one node to another, as {@link ClusterView#migrations} reports it.
 *
 * <p>The pause runs from the moment the old owner stopped reading the tenant's sessions to the moment
 * the new owner took the tenant over; after a crash, from the moment the cluster noticed the old owner
 * gone. Both ends are read from the nodes' wall clocks.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param tenant  the tenant
 * @param from    the node that served it ({@code ""} when nobody did)
 * @param to      the node that serves it now ({@code ""} while in progress)
 * @param cause   why it moved
 * @param started when the old owner paused it (or the crash was noticed)
 * @param pause   how long nobody served it; {@link Duration#ZERO} while in progress
 * @param done    whether the new owner has taken it over
 */
public record Migration(String tenant, String from, String to, Cause cause, Instant started, Duration pause,
        boolean done) {

    /** Why a tenant moved. */
    public enum Cause {
        /** A node joined and now owns the tenant. */
        JOIN,
        /** Its node left gracefully. */
        LEAVE,
        /** Its node vanished without handing it over (killed, partitioned away). */
        CRASH
    }

    public Migration {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(pause, "pause");
    }
}
