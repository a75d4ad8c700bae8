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

import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;

/**
 * The {@code troupe:stats} Gogo command: what the host's monitor measures (workers, loops, actors,
 * backlog, dead letters, log drops, stalls, handlers), from the {@link RuntimeStats} service, and
 * the tenants' figures from the server's {@link ServerStats} service when the server runs. See
 * {@link StatsReport} for the output.
 *
 * <p>Like {@link TroupeCommands}, the references are optional and dynamic; without the runtime's
 * service the command prints {@code ERROR runtime.unavailable: ...}, without the server's it leaves
 * the tenants out.
 *
 * <p><b>Threading:</b> Gogo calls {@link #stats} from any session thread, concurrently; the only
 * state is the volatile service reference, read once per command.
 */
@Component(service = StatsCommands.class, property = {
    CommandProcessor.COMMAND_SCOPE + "=troupe",
    CommandProcessor.COMMAND_FUNCTION + "=stats"
})
public final class StatsCommands {

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile RuntimeStats stats;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ServerStats server;

    /** Used by Declarative Services. */
    public StatsCommands() {
    }

    /** Used by tests, with hand-written services; {@code server} may be null, as without the server. */
    StatsCommands(RuntimeStats stats, ServerStats server) {
        this.stats = stats;
        this.server = server;
    }

    @Descriptor("prints runtime statistics: workers (current, min, max, busy %), IO loops, actors, mailbox backlog,"
            + " dead letters, dropped log records, stalls; per handler: actors, queued, processed, failures;"
            + " per tenant (with the server): connections, requests, requests/s, errors")
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
        new StatsReport(current.snapshot(), tenants == null ? List.of() : tenants.tenants()).print(out, threads);
    }
}
