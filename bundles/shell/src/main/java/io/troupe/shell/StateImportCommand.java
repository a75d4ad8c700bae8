package io.troupe.shell;

import java.util.List;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Function;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantStats;
import io.troupe.api.state.StateStore;

/**
 * {@code troupe:state-import}: writes the snapshots of a file made by {@code troupe:state-export} into
 * the store; refuses a file of another format version ({@link StateCommands}).
 *
 * <p>The {@link StateStore} and {@link ServerStats} references are optional and dynamic: without the store
 * the command prints {@code ERROR state.unavailable: ...}; without the server it knows no tenants.
 *
 * <p><b>Threading:</b> Declarative Services constructs it once; Gogo calls {@link #execute} from any session
 * thread; the references are volatile, each read once per command.
 */
@Component(service = Function.class, property = {
    CommandProcessor.COMMAND_SCOPE + "=troupe",
    CommandProcessor.COMMAND_FUNCTION + "=state-import"
})
public final class StateImportCommand implements Function {

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile StateStore store;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ServerStats server;

    private final StateCommands commands = new StateCommands(() -> store, () -> {
        ServerStats current = server;
        return current == null ? List.of() : current.tenants().stream().map(TenantStats::tenant).toList();
    });

    /** Used by Declarative Services. */
    public StateImportCommand() {
    }

    @Override
    public Object execute(CommandSession session, List<Object> arguments) throws Exception {
        commands.importFile(System.out, session.currentDir(), arguments);
        return null;
    }
}
