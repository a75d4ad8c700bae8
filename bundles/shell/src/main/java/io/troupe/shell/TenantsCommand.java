package io.troupe.shell;

import java.io.PrintStream;
import java.util.List;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantLoad;

/**
 * The {@code troupe:tenants} Gogo command: the server's tenants from its {@link ServerStats} service
 * (connections, requests, rate, errors, throttled time and by which limit, the limits) beside what the
 * runtime's {@link RuntimeStats} says of each (queued messages, share of the worker pool). See
 * {@link TenantTable} for the output.
 *
 * <p>The references are optional and dynamic: without the server the command says so, without the
 * runtime's statistics it leaves their columns at {@code -}.
 *
 * <p><b>Threading:</b> Gogo calls {@link #tenants()} from any session thread, concurrently; the only
 * state is the volatile service references, each read once per command.
 */
@Component(service = TenantsCommand.class, property = {
    CommandProcessor.COMMAND_SCOPE + "=troupe",
    CommandProcessor.COMMAND_FUNCTION + "=tenants"
})
public final class TenantsCommand {

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ServerStats server;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile RuntimeStats stats;

    /** Used by Declarative Services. */
    public TenantsCommand() {
    }

    /** Used by tests, with hand-written services; either may be null, as without that service. */
    TenantsCommand(ServerStats server, RuntimeStats stats) {
        this.server = server;
        this.stats = stats;
    }

    @Descriptor("lists the server's tenants: connections, requests, requests/s, errors, queued messages, share of"
            + " the worker pool, time throttled by each limit and the limits throttling it now, and its limits")
    public void tenants() {
        tenants(System.out);
    }

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
