package io.troupe.shell;

import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
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

import io.troupe.client.deploy.DeployException;
import io.troupe.client.deploy.DeployFolder;
import io.troupe.client.deploy.DeployStatus;
import io.troupe.client.deploy.StatusPoller;

/**
 * The {@code troupe:} Gogo commands for the plugins of the deploy folder: {@code plugins} lists them
 * with the running revision and any refused one, {@code deploy}, {@code update} and {@code remove}
 * change the folder (see {@link DeployFolder}). The host watches the folder and installs, updates in
 * place (actors keep their state) or uninstalls the bundles, then writes its outcome;
 * {@code deploy} and {@code update} wait for it (at most {@link StatusPoller#DEFAULT_TIMEOUT}) and print
 * it:
 *
 * <pre>
 *   deployed io.troupe.sample.counter 2.0.0 as deploy/counter-2.0.0.jar: running
 *   updated deploy/counter.jar: io.troupe.sample.counter 1.0.0 -&gt; io.troupe.sample.counter 2.0.0: running
 *
 *   ERROR deploy.rejected: &lt;the host's reason&gt;        (the jar stays in deploy/, with &lt;file&gt;.failed)
 *   running: io.troupe.sample.counter 1.0.0            (or: running: nothing)
 *
 *   ERROR deploy.timeout: the host reported no outcome for deploy/counter.jar within 60 s (...)
 * </pre>
 *
 * <p>Every failure prints one line {@code ERROR <code>: <detail>} (a code of {@link DeployException})
 * on the session's output and then throws the {@link DeployException}, so that the command's result
 * is a failure: the interactive shell and the script console then also report it on standard error
 * ({@code gogo: DeployException: <detail>}), and a script can tell. A refusal before copying changes
 * nothing. The folder is the framework property {@value #DEPLOY_DIR_PROPERTY}, which the launcher
 * sets; without it every command fails with {@code ERROR deploy.unavailable: ...}.
 *
 * <p>In the Gogo shell {@code update} may also name the framework's {@code felix:update}; type
 * {@code troupe:update} there. The script console looks in the {@code troupe} scope first.
 *
 * <p><b>Threading:</b> Gogo calls the public methods from any session thread, concurrently. The
 * fields are final; {@link DeployFolder} serialises the changes; a wait blocks only its session.
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
    private final DeployFolder folder;
    private final String unavailable;
    private final Duration timeout;

    /** Used by Declarative Services. */
    @Activate
    public PluginCommands(BundleContext context) {
        this(context::getBundles, context.getProperty(DEPLOY_DIR_PROPERTY), new StatusPoller(),
                StatusPoller.DEFAULT_TIMEOUT);
    }

    /**
     * Used by tests.
     *
     * @param deployDir the value of {@value #DEPLOY_DIR_PROPERTY}, or null when it is not set
     * @param poller    waits for the host's outcomes
     * @param timeout   how long {@code deploy} and {@code update} wait for one
     */
    PluginCommands(Supplier<Bundle[]> bundles, String deployDir, StatusPoller poller, Duration timeout) {
        this.bundles = bundles;
        this.timeout = timeout;
        DeployFolder found = null;
        String why = null;
        if (deployDir == null || deployDir.isBlank()) {
            why = "the framework property " + DEPLOY_DIR_PROPERTY + " is not set, so there is no deploy folder"
                    + " (the Troupe launcher sets it: start Troupe with bin/troupe)";
        } else {
            try {
                found = new DeployFolder(Path.of(deployDir.strip()), poller);
            } catch (InvalidPathException e) {
                why = "the framework property " + DEPLOY_DIR_PROPERTY + " is not a valid path: " + deployDir;
            }
        }
        this.folder = found;
        this.unavailable = why;
    }

    @Descriptor("lists the plugins of the deploy folder: bundle id, file, symbolic name, running version, state,"
            + " the handler and factory names each provides, and a jar the host refused")
    public void plugins() throws DeployException {
        plugins(System.out);
    }

    @Descriptor("copies a plugin jar into the deploy folder, waits until the host runs or refuses it, and says which")
    public void deploy(CommandSession session,
                       @Descriptor("the plugin jar, for example samples/counter-2.0.0.jar") String path)
            throws DeployException, InterruptedException {
        deploy(System.out, session.currentDir(), path);
    }

    @Descriptor("replaces a deployed plugin by another version of the same bundle, waits until the host has"
            + " updated it in place (its actors keep their state) or refused it, and says which")
    public void update(CommandSession session,
                       @Descriptor("the deployed plugin, for example counter or counter.jar") String name,
                       @Descriptor("the new jar, for example samples/counter-2.0.0.jar") String path)
            throws DeployException, InterruptedException {
        update(System.out, session.currentDir(), name, path);
    }

    @Descriptor("deletes a plugin from the deploy folder; the host stops and uninstalls it")
    public void remove(@Descriptor("the deployed plugin, for example counter or counter.jar") String name)
            throws DeployException {
        remove(System.out, name);
    }

    void plugins(PrintStream out) throws DeployException {
        DeployFolder deployFolder = requireFolder(out);
        try {
            List<Path> jars = deployFolder.jars();
            PluginTable.of(bundles.get(), deployFolder, jars).print(out, deployFolder.dir());
        } catch (DeployException e) {
            throw printed(out, e);
        }
    }

    void deploy(PrintStream out, Path currentDir, String path) throws DeployException, InterruptedException {
        DeployFolder deployFolder = requireFolder(out);
        try {
            DeployFolder.Deployed done = deployFolder.deploy(resolve(currentDir, path));
            DeployStatus status = deployFolder.awaitOutcome(done.target(), done.sha256(), done.since(), timeout);
            requireRunning(out, status);
            out.println("deployed " + done.jar() + " as " + deployFolder.shown(done.target()) + ": running");
        } catch (DeployException e) {
            throw printedUnlessRejected(out, e);
        }
    }

    void update(PrintStream out, Path currentDir, String name, String path)
            throws DeployException, InterruptedException {
        DeployFolder deployFolder = requireFolder(out);
        try {
            Path source = resolve(currentDir, path);
            String file = DeployFolder.fileName(name);
            DeployFolder.Updated done = deployFolder.update(file, source, installedSymbolicName(file));
            DeployStatus status = deployFolder.awaitOutcome(done.target(), done.sha256(), done.since(), timeout);
            requireRunning(out, status);
            out.println("updated " + deployFolder.shown(done.target()) + ": "
                    + (done.previous() == null ? "an unreadable jar" : done.previous().toString()) + " -> "
                    + done.replacement() + ": running");
        } catch (DeployException e) {
            throw printedUnlessRejected(out, e);
        }
    }

    void remove(PrintStream out, String name) throws DeployException {
        DeployFolder deployFolder = requireFolder(out);
        try {
            DeployFolder.Removed done = deployFolder.remove(name);
            out.println("removed " + deployFolder.shown(done.target())
                    + (done.removed() == null ? "" : " (" + done.removed() + ")"));
            out.println("the host stops and uninstalls the plugin " + APPLIED_SHORTLY);
        } catch (DeployException e) {
            throw printed(out, e);
        }
    }

    /**
     * Unless the outcome is {@code running}, prints the refusal and what still runs from the file, and
     * throws it.
     *
     * @throws DeployException {@link DeployException#DEPLOY_REJECTED} with the host's reason
     */
    private static void requireRunning(PrintStream out, DeployStatus status) throws DeployException {
        if (status.outcome() != DeployStatus.Outcome.RUNNING) {
            DeployException rejected = new DeployException(DeployException.DEPLOY_REJECTED,
                    status.reason().orElse("no reason given"));
            out.println(ReplyFormat.error(rejected.code(), rejected.detail()));
            out.println("running: " + status.running());
            throw rejected;
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

    private DeployFolder requireFolder(PrintStream out) throws DeployException {
        if (folder == null) {
            throw printed(out, new DeployException(DeployException.DEPLOY_UNAVAILABLE, unavailable));
        }
        return folder;
    }

    /** Prints {@code e} as {@code ERROR <code>: <detail>} and returns it. */
    private static DeployException printed(PrintStream out, DeployException e) {
        out.println(ReplyFormat.error(e.code(), e.detail()));
        return e;
    }

    /** As {@link #printed}, but a refusal by the host is already printed ({@link #requireRunning}). */
    private static DeployException printedUnlessRejected(PrintStream out, DeployException e) {
        return e.code().equals(DeployException.DEPLOY_REJECTED) ? e : printed(out, e);
    }
}
