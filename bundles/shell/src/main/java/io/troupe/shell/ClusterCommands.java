package io.troupe.shell;

import java.io.PrintStream;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import io.troupe.api.cluster.ClusterView;

/**
 * The {@code troupe:cluster} Gogo command: the cluster this node belongs to, from the cluster bundle's
 * {@link ClusterView} ({@link ClusterReport}). On a node without a cluster it says so.
 *
 * <p><b>Threading:</b> Gogo calls {@link #cluster()} from any session thread; the only state is the
 * volatile service reference, read once per command.
 */
@Component(service = ClusterCommands.class, property = {
    CommandProcessor.COMMAND_SCOPE + "=troupe",
    CommandProcessor.COMMAND_FUNCTION + "=cluster"
})
public final class ClusterCommands {

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ClusterView view;

    /** Used by Declarative Services. */
    public ClusterCommands() {
    }

    /** Used by tests; {@code view} may be null, as on a node without a cluster. */
    ClusterCommands(ClusterView view) {
        this.view = view;
    }

    @Descriptor("shows the cluster: its members (this one starred) with their cluster and client addresses, sessions,"
            + " requests/s and the tenants each serves; configured members missing from it; the migrations in"
            + " progress and the last ones with their pauses")
    public void cluster() {
        cluster(System.out);
    }

    void cluster(PrintStream out) {
        ClusterView current = view;
        if (current == null) {
            out.println("(this node is not in a cluster: there is no etc/io.troupe.cluster.cfg, or it has not joined"
                    + " yet; see the log)");
            return;
        }
        new ClusterReport(current).print(out);
    }
}
