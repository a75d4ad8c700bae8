package io.troupe.shell;

import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;

import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Function;

/**
 * {@code troupe:tenant-add ID} and {@code troupe:tenant-rotate-token ID}: one Gogo {@link Function} per
 * command (Gogo maps a name with a hyphen to no method, so each command is a function object), both
 * working on the installation's tenant files ({@link TenantFiles}) under {@code <troupe.home>/etc}.
 *
 * <pre>
 *   g! troupe:tenant-add acme
 *   Tenant 'acme' created in /opt/troupe/etc/io.troupe.tenant-acme.cfg (the server loads it within seconds).
 *   Token: 3q2-7wXg...  (43 characters)
 *   This token will not be shown again: only its hash is kept. Give it to the tenant's clients now.
 * </pre>
 *
 * <p>Failures print {@code ERROR <code>: <detail>} ({@link TenantCommandException}) and fail the command.
 *
 * <p><b>Threading:</b> Gogo calls {@link #execute} from any session thread; the state is immutable.
 */
final class TenantCommand implements Function {

    /** The framework property naming the installation directory. */
    static final String HOME_PROPERTY = "troupe.home";

    /** Which command. */
    enum Kind {
        ADD("tenant-add"),
        ROTATE_TOKEN("tenant-rotate-token");

        final String function;

        Kind(String function) {
            this.function = function;
        }
    }

    private final Kind kind;
    private final TenantFiles files;
    private final String unavailable;

    /** @param home the value of {@value #HOME_PROPERTY}, or null when it is not set */
    TenantCommand(Kind kind, String home, SecureRandom random) {
        this.kind = kind;
        TenantFiles found = null;
        String why = null;
        if (home == null || home.isBlank()) {
            why = "the framework property " + HOME_PROPERTY + " is not set, so there is no etc/ folder for tenant "
                    + "files (the Troupe launcher sets it: start Troupe with bin/troupe)";
        } else {
            try {
                found = new TenantFiles(Path.of(home.strip()).resolve("etc"), random);
            } catch (InvalidPathException e) {
                why = "the framework property " + HOME_PROPERTY + " is not a valid path: " + home;
            }
        }
        this.files = found;
        this.unavailable = why;
    }

    @Override
    public Object execute(CommandSession session, List<Object> arguments) throws TenantCommandException {
        run(System.out, arguments);
        return null;
    }

    /** Runs the command with {@code arguments}, printing to {@code out}. */
    void run(PrintStream out, List<Object> arguments) throws TenantCommandException {
        try {
            if (arguments.size() != 1) {
                throw new TenantCommandException(TenantCommandException.USAGE, "usage: troupe:" + kind.function
                        + " <tenant id>");
            }
            if (files == null) {
                throw new TenantCommandException(TenantCommandException.UNAVAILABLE, unavailable);
            }
            String id = String.valueOf(arguments.get(0));
            if (kind == Kind.ADD) {
                String token = files.add(id);
                out.println("Tenant '" + id + "' created in " + files.fileOf(id)
                        + " (the server loads it within seconds).");
                printToken(out, token);
            } else {
                String token = files.rotate(id);
                out.println("Tenant '" + id + "' has a new token in " + files.fileOf(id) + " (the server applies it "
                        + "within seconds; sessions already open stay open, the old token opens no new one).");
                printToken(out, token);
            }
        } catch (TenantCommandException e) {
            out.println(ReplyFormat.error(e.code(), e.detail()));
            throw e;
        }
    }

    private static void printToken(PrintStream out, String token) {
        out.println("Token: " + token);
        out.println("This token will not be shown again: only its hash is kept. Give it to the tenant's clients now.");
    }
}
