package io.troupe.shell;

import java.io.PrintStream;
import java.util.List;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.Descriptor;
import org.apache.felix.service.command.Parameter;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import io.troupe.api.cluster.ClusterView;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.state.StateStore;

/**
 * The {@code troupe:stats} and {@code troupe:tenants} Gogo commands. {@code stats}: what the host's
 * monitor measures (workers, loops, actors, backlog, dead letters, log drops, stalls, handlers), from
 * the {@link RuntimeStats} service, and the tenants' figures from the server's {@link ServerStats}
 * service when the server runs, and the state store's writes/s, writes, bytes, syncs and write p99 from
 * the {@link StateStore} service's counters when a store runs ({@link StatsReport}, {@link StoreStatsLine}).
 * {@code tenants}: the server's tenants beside the runtime's view of each ({@link TenantTable}).
 *
 * <p>Like {@link TroupeCommands}, the references are optional and dynamic; without the runtime's
 * service the command prints {@code ERROR runtime.unavailable: ...}, without the server's it leaves
 * the tenants out.
 *
 * <p><b>Threading:</b> Gogo calls {@link #stats} and {@link #tenants()} from any session thread,
 * concurrently; the only state is the volatile service references, each read once per command.
 */
@Component(service = StatsCommands.class, property = {
    CommandProcessor.COMMAND_SCOPE + "=troupe",
    CommandProcessor.COMMAND_FUNCTION + "=stats",
    CommandProcessor.COMMAND_FUNCTION + "=tenants"
})
public final class StatsCommands {

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile RuntimeStats stats;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ServerStats server;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile StateStore store;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ClusterView cluster;

    private final StoreStatsLine storeLine;

    /** Used by Declarative Services. */
    public StatsCommands() {
        storeLine = new StoreStatsLine(StoreStatsLine.SYSTEM);
    }

    /** Used by tests, with hand-written services; {@code server} may be null, as without the server. */
    StatsCommands(RuntimeStats stats, ServerStats server) {
        this(stats, server, null, StoreStatsLine.SYSTEM);
    }

    /** Used by tests; {@code store} may be null, as without a state store. */
    StatsCommands(RuntimeStats stats, ServerStats server, StateStore store, StoreStatsLine.Clock clock) {
        this.stats = stats;
        this.server = server;
        this.store = store;
        this.storeLine = new StoreStatsLine(clock);
    }

    @Descriptor("prints runtime statistics: workers (current, min, max, busy %), IO loops, actors, mailbox backlog,"
            + " dead letters, dropped log records, stalls; per handler: actors, queued, processed, failures;"
            + " per tenant (with the server): connections, requests, requests/s, errors; the state store (when one"
            + " runs): writes/s, writes, bytes, syncs, write p99, stored actors; per cluster node (on a cluster"
            + " node): sessions, requests/s, tenants served")
    public void stats(
            @Descriptor("also list every worker and IO loop with its busy share and its current turn")
            @Parameter(names = {"-t", "--threads"}, presentValue = "true", absentValue = "false") boolean threads) {
        stats(System.out, threads);
    }

    void stats(PrintStream out, boolean threads) {
        RuntimeStats current = stats;
        if (current == null) {
            out.println(ReplyFormat.runtimeUnavailable());
            return;
        }
        ServerStats tenants = server;
        StateStore states = store;
        String line = states == null ? null : storeLine.line(states::stats);
        new StatsReport(current.snapshot(), tenants == null ? List.of() : tenants.tenants(), line).print(out, threads);
        ClusterView nodes = cluster;
        if (nodes != null) {
            out.println("cluster " + nodes.clusterName() + ", per node:");
            ClusterReport.printMembers(out, nodes.members());
        }
    }

    @Descriptor("lists the server's tenants: connections, requests, requests/s, errors, queued messages, share of"
            + " the worker pool, time throttled by each limit and the limits throttling it now, and its limits")
    public void tenants() {
        tenants(System.out);
    }

    /**
     * The server's tenants ({@link ServerStats}) beside what the runtime says of each ({@link TenantLoad}:
     * queued messages, share of the worker pool); see {@link TenantTable}. Without the runtime's
     * statistics those columns are {@code -}; without the server, a line says so.
     */
    void tenants(PrintStream out) {
        ServerStats tenants = server;
        if (tenants == null) {
            out.println("(the message server is not running)");
            return;
        }
        RuntimeStats runtime = stats;
        List<TenantLoad> loads = runtime == null ? List.of() : runtime.snapshot().tenants();
        new TenantTable(tenants.tenants(), loads).print(out);
    }
}
