package io.troupe.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.startlevel.BundleStartLevel;

/**
 * Boots the framework with the bundles of an installation, prints the ready line, and waits until
 * the framework stops; the sequence is drawn in the {@linkplain io.troupe.launcher package
 * documentation}. A framework that stops to update itself ({@code update 0} in the shell) is not
 * booted again: Troupe exits 0 and says so.
 *
 * <p><b>Threading:</b> {@link #run} is called once, by the main thread, which owns the framework's
 * lifecycle until it returns; {@link Shutdown} may stop the framework from another thread at any
 * point, and a boot interrupted that way ends quietly.
 */
final class Launcher {

    /** The line printed on standard output once Troupe accepts commands. */
    static final String READY = "Troupe ready";
    private static final long SERVER_READY_TIMEOUT_SECONDS = 30;

    private final InstallLayout layout;
    private final ConsoleMode mode;
    /** The system property Hazelcast reads its logging type from. */
    static final String HAZELCAST_LOGGING = "hazelcast.logging.type";

    private final FrameworkConfig config;
    private final List<SystemBundles.Planned> system;
    private final LauncherLog log;
    private final PrintStream out;

    Launcher(InstallLayout layout, ConsoleMode mode, FrameworkConfig config, LauncherLog log, PrintStream out)
            throws LauncherException {
        this.layout = layout;
        this.mode = mode;
        this.config = config;
        this.system = SystemBundles.plan(layout, mode, config.clustered());
        this.log = log;
        this.out = out;
        config.requireBeginningStartLevelAtLeast(
                Math.max(SystemBundles.highestStartLevel(system), SystemBundles.PLUGIN_START_LEVEL));
    }

    /** Runs Troupe until the framework stops; returns the process exit status. */
    int run() throws LauncherException {
        PluginExitGuard.installIfAsked(config, layout.deploy().toUri().toString(), log);
        Framework framework = newFramework();
        Shutdown shutdown = new Shutdown(framework, log,
                config.clustered() ? Shutdown.CLUSTER_STOP_TIMEOUT : Shutdown.STOP_TIMEOUT);
        shutdown.install();
        try {
            boot(framework);
        } catch (LauncherException | RuntimeException e) {
            if (!shutdown.requested()) {
                shutdown.stopNow();
                if (e instanceof LauncherException launcherException) {
                    throw launcherException;
                }
                throw new LauncherException("unexpected failure while starting: " + LauncherException.describe(e), e);
            }
            // a signal stopped the framework while it was booting: not a failure
        }
        if (shutdown.requested()) {
            shutdown.stopNow(); // the signal may have come before the framework was running
        }
        FrameworkEvent stopped = awaitStop(framework);
        if (isRestart(stopped)) {
            // Booting again in this JVM would leave the previous stdin reader of the script console
            // blocked beside the new one; a restart is a new process.
            log.info("the framework stopped to update itself; Troupe does not restart on its own:"
                    + " run bin/troupe again");
        }
        if (stopped.getType() == FrameworkEvent.ERROR) {
            log.error("the framework stopped with an error: " + LauncherException.describe(stopped.getThrowable()));
            return LauncherException.STARTUP_FAILED;
        }
        return 0;
    }

    private Framework newFramework() throws LauncherException {
        FrameworkFactory factory;
        try {
            factory = ServiceLoader.load(FrameworkFactory.class, Launcher.class.getClassLoader()).findFirst()
                    .orElseThrow(() -> new LauncherException("no OSGi framework on the class path: lib/ should hold"
                            + " org.apache.felix.framework-<version>.jar next to troupe-launcher.jar"));
        } catch (ServiceConfigurationError e) {
            throw new LauncherException("cannot load the OSGi framework: " + LauncherException.describe(e), e);
        }
        // Felix takes a logger instance among its properties, which the standard API types as strings.
        Map<String, Object> properties = new HashMap<>(config.properties());
        properties.put(FrameworkLog.PROPERTY, new FrameworkLog(System.err));
        @SuppressWarnings({"unchecked", "rawtypes"})
        Map<String, String> untyped = (Map) properties;
        return factory.newFramework(untyped);
    }

    private void boot(Framework framework) throws LauncherException {
        long begin = System.nanoTime();
        if (config.clustered() && System.getProperty(HAZELCAST_LOGGING) == null) {
            // Hazelcast's OSGi activator logs before any member is configured: through SLF4J (the host's), so
            // into log/troupe.log, rather than java.util.logging on standard error.
            System.setProperty(HAZELCAST_LOGGING, "slf4j");
        }
        try {
            framework.init();
        } catch (BundleException e) {
            throw new LauncherException("cannot initialise the OSGi framework with its cache in " + layout.cache()
                    + ": " + LauncherException.describe(e), e);
        }
        BundleContext context = framework.getBundleContext();
        List<Installed> installed = installSystemBundles(context);
        try {
            framework.start();
        } catch (BundleException e) {
            throw new LauncherException("cannot start the OSGi framework: " + LauncherException.describe(e), e);
        }
        requireCoreStarted(installed);
        // The host installed the plugins of deploy/ when it started, starts them now on threads of its own, and
        // watches the folder from then on: the server waits for them, a bounded time.
        awaitPlugins(context);
        long millis = (System.nanoTime() - begin) / 1_000_000;
        log.info("started " + installed.size() + " system bundles and " + activePlugins(context) + " plugins"
                + " in " + millis + " ms; console: " + mode.value());
        String ready = READY;
        if (startPhase(installed, SystemBundles.Phase.SERVER)) {
            ready = awaitServer(context);
        }
        // Ready before the consoles start: whatever a command prints comes after this line, and
        // lines already written to standard input wait in the pipe until the script console reads them.
        out.println(ready);
        out.flush();
        startPhase(installed, SystemBundles.Phase.CONSOLE);
        startTerminal(installed);
    }

    private List<Installed> installSystemBundles(BundleContext context) throws LauncherException {
        List<Installed> installed = new ArrayList<>();
        for (SystemBundles.Planned planned : system) {
            BundleJar jar = planned.jar();
            try {
                Bundle bundle = jar.installOrUpdate(context);
                BundleStartLevel startLevel = bundle.adapt(BundleStartLevel.class);
                if (startLevel.getStartLevel() != planned.startLevel()) {
                    startLevel.setStartLevel(planned.startLevel());
                }
                if (planned.phase() == SystemBundles.Phase.CORE && !jar.fragment()) {
                    bundle.start();
                }
                installed.add(new Installed(planned, bundle));
            } catch (BundleException | IOException e) {
                throw new LauncherException("cannot install system bundle " + layout.display(jar.path()) + ": "
                        + LauncherException.describe(e), e);
            }
        }
        return installed;
    }

    /** Fails, naming every core bundle that is not active and why, unless all of them are. */
    private void requireCoreStarted(List<Installed> installed) throws LauncherException {
        List<String> failures = new ArrayList<>();
        for (Installed each : installed) {
            if (each.planned().phase() == SystemBundles.Phase.CORE && !isStarted(each)) {
                failures.add(each.describe(layout) + ": " + whyNotStarted(each.bundle()));
            }
        }
        if (!failures.isEmpty()) {
            throw new LauncherException("system bundles did not start:\n  " + String.join("\n  ", failures));
        }
    }

    /**
     * Waits until the host has started the plugins of deploy/ (each started, failed, or outlived its start
     * timeout), at most that timeout plus a margin: one plugin whose start hangs delays the server's port by
     * the start timeout at most, never for ever.
     */
    private void awaitPlugins(BundleContext context) throws LauncherException {
        long timeout = PluginsSettled.timeoutSeconds(config.properties().get(PluginsSettled.START_TIMEOUT_KEY));
        try {
            if (PluginsSettled.await(context, timeout).isEmpty() && framework(context).getState() == Bundle.ACTIVE) {
                log.warn("the host did not say within " + timeout + " s that the plugins of deploy/ have started;"
                        + " starting the server anyway (see log/troupe.log)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("interrupted while waiting for the plugins to start");
        }
    }

    private static Bundle framework(BundleContext context) {
        return context.getBundle(0);
    }

    /** Plugins of deploy/ that are active (see log/troupe.log for those that are not). */
    private long activePlugins(BundleContext context) {
        String folder = layout.deploy().toUri().toString();
        return java.util.Arrays.stream(context.getBundles())
                .filter(bundle -> bundle.getLocation().startsWith(folder) && bundle.getState() == Bundle.ACTIVE)
                .count();
    }

    /** Starts the bundles of {@code phase}; returns whether there were any. */
    private boolean startPhase(List<Installed> installed, SystemBundles.Phase phase) throws LauncherException {
        boolean any = false;
        for (Installed each : installed) {
            if (each.planned().phase() == phase && !each.planned().jar().fragment()) {
                any = true;
                try {
                    each.bundle().start();
                } catch (BundleException e) {
                    throw new LauncherException("system bundle " + each.describe(layout) + " did not start: "
                            + LauncherException.describe(e), e);
                }
            }
        }
        return any;
    }

    /** The ready line once the server listens; a warning and the plain line if it does not. */
    private String awaitServer(BundleContext context) throws LauncherException {
        try {
            Optional<String> address = ServerReadiness.await(context, SERVER_READY_TIMEOUT_SECONDS);
            if (address.isPresent()) {
                return READY + " on " + address.get();
            }
            log.warn("the server did not open its port within " + SERVER_READY_TIMEOUT_SECONDS
                    + " s; see log/troupe.log (actors and the shell work without it)");
            return READY;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("interrupted while waiting for the server to listen");
        }
    }

    /**
     * Starts the interactive shell, which opens the terminal on this thread. JLine looks for its
     * terminal providers through the context class loader first, and would not find them through the
     * launcher's: without one it falls back to its own bundle's loader.
     *
     * <p>The terminal shell is a convenience: without it, Troupe still serves and stops on Ctrl-C.
     */
    private void startTerminal(List<Installed> installed) {
        Thread thread = Thread.currentThread();
        ClassLoader contextLoader = thread.getContextClassLoader();
        thread.setContextClassLoader(null);
        try {
            startPhase(installed, SystemBundles.Phase.TERMINAL);
        } catch (LauncherException e) {
            log.warn(e.getMessage() + "; Troupe keeps running without an interactive shell (Ctrl-C stops it)");
        } finally {
            thread.setContextClassLoader(contextLoader);
        }
    }

    private static boolean isStarted(Installed each) {
        if (each.planned().jar().fragment()) {
            return true;
        }
        int state = each.bundle().getState();
        String policy = each.bundle().getHeaders().get(Constants.BUNDLE_ACTIVATIONPOLICY);
        boolean lazy = policy != null && policy.strip().startsWith(Constants.ACTIVATION_LAZY);
        return state == Bundle.ACTIVE || (state == Bundle.STARTING && lazy);
    }

    /** Starting again reproduces the failure as an exception that says why (unresolved import, activator error). */
    private static String whyNotStarted(Bundle bundle) {
        try {
            bundle.start();
            return bundle.getState() == Bundle.ACTIVE ? "it started late" : "its state is " + bundle.getState();
        } catch (BundleException | RuntimeException e) {
            return LauncherException.describe(e);
        }
    }

    private static boolean isRestart(FrameworkEvent event) {
        return event.getType() == FrameworkEvent.STOPPED_UPDATE
                || event.getType() == FrameworkEvent.STOPPED_SYSTEM_REFRESHED;
    }

    private static FrameworkEvent awaitStop(Framework framework) throws LauncherException {
        try {
            return framework.waitForStop(0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("interrupted while running");
        }
    }

    /** A system bundle as installed. */
    private record Installed(SystemBundles.Planned planned, Bundle bundle) {

        String describe(InstallLayout layout) {
            BundleJar jar = planned.jar();
            return jar.symbolicName() + " " + jar.version() + " (" + layout.display(jar.path()) + ")";
        }
    }
}
