package io.troupe.shell;

import java.security.SecureRandom;
import java.util.List;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Function;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * {@code troupe:tenant-rotate-token ID}: a new token's hash in the tenant's file, its other keys kept;
 * prints the token once ({@link TenantCommand}).
 *
 * <p><b>Threading:</b> Declarative Services constructs it once; Gogo calls {@link #execute} from any session
 * thread.
 */
@Component(service = Function.class, property = {
    CommandProcessor.COMMAND_SCOPE + "=troupe",
    CommandProcessor.COMMAND_FUNCTION + "=tenant-rotate-token"
})
public final class TenantRotateTokenCommand implements Function {

    private final TenantCommand command;

    /** Used by Declarative Services. */
    @Activate
    public TenantRotateTokenCommand(BundleContext context) {
        command = new TenantCommand(TenantCommand.Kind.ROTATE_TOKEN, context.getProperty(TenantCommand.HOME_PROPERTY),
                new SecureRandom());
    }

    @Override
    public Object execute(CommandSession session, List<Object> arguments) throws Exception {
        return command.execute(session, arguments);
    }
}
