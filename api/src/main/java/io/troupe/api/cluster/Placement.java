package io.troupe.api.cluster;

import java.util.Objects;

/**
 * Where a tenant is served, as {@link TenantPlacement#claim} decided it.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param kind          the decision
 * @param ownerAddress  for {@link Kind#ELSEWHERE}: the {@code host:port} clients should connect to, or
 *                      {@code ""} when the owner is not known yet (a migration is under way); else {@code ""}
 * @param reason        a sentence for logs and error frames, never null
 */
public record Placement(Kind kind, String ownerAddress, String reason) {

    /** What the server should do with a client of the tenant. */
    public enum Kind {
        /** Serve it here: this node owns the tenant and has taken it over. */
        LOCAL,
        /** Send the client to {@link #ownerAddress()} (ERROR or BYE {@code tenant.moved}). */
        ELSEWHERE,
        /** Nobody may serve it now (the cluster is below its quorum, a handover did not end in time). */
        UNAVAILABLE
    }

    public Placement {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(ownerAddress, "ownerAddress");
        Objects.requireNonNull(reason, "reason");
    }

    /** Serve here. */
    public static Placement local() {
        return new Placement(Kind.LOCAL, "", "served on this node");
    }

    /** Served at {@code ownerAddress} ({@code ""} when not known yet). */
    public static Placement elsewhere(String ownerAddress, String reason) {
        return new Placement(Kind.ELSEWHERE, ownerAddress, reason);
    }

    /** Not served anywhere now, for {@code reason}. */
    public static Placement unavailable(String reason) {
        return new Placement(Kind.UNAVAILABLE, "", reason);
    }
}
