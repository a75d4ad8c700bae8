package io.troupe.api.cluster;

import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The cluster as this node sees it, registered by the cluster bundle while the node is a member: for the
 * shell's {@code troupe:cluster}, the statistics and operators' tools.
 *
 * <p><b>Threading:</b> any thread; every method answers from what this node already knows (figures the
 * members publish about once a second) and never waits on the network.
 */
@ProviderType
public interface ClusterView {

    /** The cluster's name ({@code clusterName} of the configuration). */
    String clusterName();

    /** This node's member id. */
    String localNode();

    /** The members now, in the engine's order (the oldest first), this node among them. */
    List<ClusterMember> members();

    /**
     * The members the configuration names that are not in the cluster now, as {@code host:port}: not
     * empty when a configured member is down or unreachable (a possible split; see the README).
     */
    List<String> missingMembers();

    /** The migrations in progress and the last ones that ended, the newest first (at most 100). */
    List<Migration> migrations();
}
