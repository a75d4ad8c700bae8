package io.troupe.api.cluster;

import java.util.List;
import java.util.Objects;

/**
 * One node of the cluster, as {@link ClusterView#members} saw it.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param node              the engine's member id
 * @param clusterAddress    where the other members reach it ({@code host:port} of the cluster port)
 * @param clientAddress     where clients reach its message server ({@code host:port})
 * @param local             whether it is this node
 * @param tenants           the tenants it serves now, sorted
 * @param sessions          its open client sessions (-1 when it has not published its figures yet)
 * @param requestsPerSecond the requests its clients sent per second over its last sampling window
 *                          (-1 when not published yet)
 */
public record ClusterMember(String node, String clusterAddress, String clientAddress, boolean local,
        List<String> tenants, int sessions, double requestsPerSecond) {

    public ClusterMember {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(clusterAddress, "clusterAddress");
        Objects.requireNonNull(clientAddress, "clientAddress");
        tenants = List.copyOf(tenants);
    }
}
