package io.troupe.cluster.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;

import io.troupe.api.cluster.ClusterMember;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.cluster.Migration;

/**
 * The cluster as this node sees it, for {@code troupe:cluster} and the statistics: Hazelcast's member list
 * (local), each member's published {@link NodeFigures}, this node's served tenants as they are now, the
 * configured members that are missing, and the {@link MigrationLog}.
 *
 * <p><b>Threading:</b> any thread; every method reads local state (the member list, the replicated map of
 * figures, the migration log's snapshot) and never waits on the network.
 */
public final class ClusterViewService implements ClusterView {

    private final HazelcastInstance instance;
    private final String clusterName;
    private final Supplier<List<String>> missingMembers;
    private final NodeFigures figures;
    private final MigrationLog log;
    private final TenantOwnership ownership;

    /**
     * @param clusterName    the configured cluster name
     * @param missingMembers the configured members not in the cluster now
     */
    public ClusterViewService(HazelcastInstance instance, String clusterName, Supplier<List<String>> missingMembers,
            NodeFigures figures, MigrationLog log, TenantOwnership ownership) {
        this.instance = Objects.requireNonNull(instance, "instance");
        this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
        this.missingMembers = Objects.requireNonNull(missingMembers, "missingMembers");
        this.figures = Objects.requireNonNull(figures, "figures");
        this.log = Objects.requireNonNull(log, "log");
        this.ownership = Objects.requireNonNull(ownership, "ownership");
    }

    @Override
    public String clusterName() {
        return clusterName;
    }

    @Override
    public String localNode() {
        return ownership.localNode();
    }

    @Override
    public List<ClusterMember> members() {
        List<ClusterMember> members = new ArrayList<>();
        for (Member member : instance.getCluster().getMembers()) {
            Optional<NodeFigures.Figures> published = figures.figures(member.getUuid());
            String clusterAddress = member.getAddress().getHost() + ":" + member.getAddress().getPort();
            if (member.localMember()) {
                members.add(new ClusterMember(member.getUuid().toString(), clusterAddress,
                        figures.localClientAddress(), true, List.copyOf(ownership.servedTenants()),
                        published.map(NodeFigures.Figures::sessions).orElse(-1),
                        published.map(NodeFigures.Figures::requestsPerSecond).orElse(-1.0)));
            } else {
                members.add(new ClusterMember(member.getUuid().toString(), clusterAddress,
                        published.map(NodeFigures.Figures::clientAddress).orElse(""), false,
                        published.map(NodeFigures.Figures::tenants).orElse(List.of()),
                        published.map(NodeFigures.Figures::sessions).orElse(-1),
                        published.map(NodeFigures.Figures::requestsPerSecond).orElse(-1.0)));
            }
        }
        return List.copyOf(members);
    }

    @Override
    public List<String> missingMembers() {
        return List.copyOf(missingMembers.get());
    }

    @Override
    public List<Migration> migrations() {
        return log.migrations();
    }
}
