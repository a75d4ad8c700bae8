package io.troupe.shell;

import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Descriptor;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * The {@code troupe:} Gogo commands for the plugins of the deploy folder: {@code plugins} lists them,
 * {@code deploy}, {@code update} and {@code remove} change the folder (see {@link PluginFolder}). The
 * host watches the folder and installs, updates in place (actors keep their state) or uninstalls the
 * bundles; the commands only change files, print what they did, and say that the host applies it
 * within a second or so.
 *
 * <p>The folder is the framework property {@value #DEPLOY_DIR_PROPERTY}, which the launcher sets.
 * Without it every command prints {@code ERROR deploy.unavailable: ...}. A failure prints one line
 * {@code ERROR <code>: <detail>}, with a code of {@link DeployException}, and changes nothing.
 *
 * <p>In the Gogo shell {@code update} may also name the framework's {@code felix:update}; type
 * {@code troupe:update} there. The script console looks in the {@code troupe} scope first.
 *
 * <p><b>Threading:</b> Gogo calls the public methods from any session thread, concurrently. The
 * fields are final; {@link PluginFolder} serialises the changes.
 */
@Component(service = PluginCommands.class, property = {
    CommandProcessor.COMMAND_SCOPE + "=troupe",
    CommandProcessor.COMMAND_FUNCTION + "=plugins",
    CommandProcessor.COMMAND_FUNCTION + "=deploy",
    CommandProcessor.COMMAND_FUNCTION + "=update",
    CommandProcessor.COMMAND_FUNCTION + "=remove"
})
public final class PluginCommands {

    /** The framework property holding the absolute path of the deploy folder. */
    static final String DEPLOY_DIR_PROPERTY = "troupe.deploy.dir";

    private static final String APPLIED_SHORTLY = "within a second or so; plugins shows the result";

    private final Supplier<Bundle[]> bundles;
    private final PluginFolder folder;
    private final String unavailable;

    /** Used by Declarative Services. */
    @Activate
    public PluginCommands(BundleContext context) {
        this(context::getBundles, context.getProperty(DEPLOY_DIR_PROPERTY));
    }

    /**
     * Used by tests.
     *
     * @param deployDir the value of {@value #DEPLOY_DIR_PROPERTY}, or null when it is not set
     */
    PluginCommands(Supplier<Bundle[]> bundles, String deployDir) {
        this.bundles = bundles;
        PluginFolder found = null;
        String why = null;
        if (deployDir == null || deployDir.isBlank()) {
            why = "the framework property " + DEPLOY_DIR_PROPERTY + " is not set, so there is no deploy folder"
                    + " (the Troupe launcher sets it: start Troupe with bin/troupe)";
        } else {
            try {
                found = new PluginFolder(Path.of(deployDir.strip()));
            } catch (InvalidPathException e) {
                why = "the framework property " + DEPLOY_DIR_PROPERTY + " is not a valid path: " + deployDir;
            }
        }
        this.folder = found;
        this.unavailable = why;
    }

    @Descriptor("lists the plugins of the deploy folder: bundle id, file, symbolic name, version, state,"
            + " and the handler and factory names each provides")
    public void plugins() {
        plugins(System.out);
    }

    @Descriptor("copies a plugin jar into the deploy folder; the host installs and starts it")
    public void deploy(CommandSession session,
                       @Descriptor("the plugin jar, for example samples/counter-2.0.0.jar") String path) {
        deploy(System.out, session.currentDir(), path);
    }

    @Descriptor("replaces a deployed plugin by another version of the same bundle; the host updates it in place"
            + " and its actors keep their state")
    public void update(CommandSession session,
                       @Descriptor("the deployed plugin, for example counter or counter.jar") String name,
                       @Descriptor("the new jar, for example samples/counter-2.0.0.jar") String path) {
        update(System.out, session.currentDir(), name, path);
    }

    @Descriptor("deletes a plugin from the deploy folder; the host stops and uninstalls it")
    public void remove(@Descriptor("the deployed plugin, for example counter or counter.jar") String name) {
        remove(System.out, name);
    }

    void plugins(PrintStream out) {
        if (folder == null) {
            printUnavailable(out);
            return;
        }
        try {
            List<Path> jars = folder.jars();
            PluginTable.of(bundles.get(), folder, jars).print(out, folder.dir());
        } catch (DeployException e) {
            print(out, e);
        }
    }

    void deploy(PrintStream out, Path currentDir, String path) {
        if (folder == null) {
            printUnavailable(out);
            return;
        }
        try {
            PluginFolder.Deployed done = folder.deploy(resolve(currentDir, path));
            out.println("deployed " + done.jar() + " as " + folder.shown(done.target()));
            out.println("the host installs and starts it " + APPLIED_SHORTLY);
        } catch (DeployException e) {
            print(out, e);
        }
    }

    void update(PrintStream out, Path currentDir, String name, String path) {
        if (folder == null) {
            printUnavailable(out);
            return;
        }
        try {
            Path source = resolve(currentDir, path);
            String file = PluginFolder.fileName(name);
            PluginFolder.Updated done = folder.update(file, source, installedSymbolicName(file));
            out.println("updated " + folder.shown(done.target()) + ": "
                    + (done.previous() == null ? "an unreadable jar" : done.previous().toString()) + " -> "
                    + done.replacement());
            out.println("the host updates the plugin in place, its actors keeping their state, " + APPLIED_SHORTLY);
        } catch (DeployException e) {
            print(out, e);
        }
    }

    void remove(PrintStream out, String name) {
        if (folder == null) {
            printUnavailable(out);
            return;
        }
        try {
            PluginFolder.Removed done = folder.remove(name);
            out.println("removed " + folder.shown(done.target())
                    + (done.removed() == null ? "" : " (" + done.removed() + ")"));
            out.println("the host stops and uninstalls the plugin " + APPLIED_SHORTLY);
        } catch (DeployException e) {
            print(out, e);
        }
    }

    /** The symbolic name of the bundle installed from {@code file} of the folder, if there is one. */
    private Optional<String> installedSymbolicName(String file) {
        Path relative = Path.of(file);
        for (Bundle bundle : bundles.get()) {
            if (bundle.getSymbolicName() != null
                    && folder.fileOf(bundle.getLocation()).filter(relative::equals).isPresent()) {
                return Optional.of(bundle.getSymbolicName());
            }
        }
        return Optional.empty();
    }

    private static Path resolve(Path currentDir, String path) throws DeployException {
        String text = path == null ? "" : path.strip();
        if (text.isEmpty()) {
            throw new DeployException(DeployException.BAD_REQUEST, "the path of a plugin jar is required");
        }
        try {
            return currentDir.resolve(text).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new DeployException(DeployException.BAD_REQUEST, "'" + text + "' is not a valid path: "
                    + e.getReason());
        }
    }

    private void printUnavailable(PrintStream out) {
        out.println(ReplyFormat.error(DeployException.DEPLOY_UNAVAILABLE, unavailable));
    }

    private static void print(PrintStream out, DeployException e) {
        out.println(ReplyFormat.error(e.code(), e.detail()));
    }
}
