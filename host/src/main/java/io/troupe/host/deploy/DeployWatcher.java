package io.troupe.host.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.startlevel.FrameworkStartLevel;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.host.plugin.PluginDirectory;

/**
 * Watches the deploy folder and keeps the installed plugin bundles in line with it: a new jar is
 * installed and started, a changed jar updates its bundle in place (the plugin directory swaps the
 * actors without losing a message), a deleted jar is uninstalled. A jar is acted on only once it has
 * kept the same size and modification time for one poll, so a slow copy is never half-installed; a
 * jar that is not a usable bundle is reported once and retried when it changes. When a new revision
 * does not start, or its actors cannot take over, the last good jar is put back. The watcher acts on
 * a copy of the jar taken in the bundle's data area, so a file replaced during an install can neither
 * mix two jars nor become the "last good" one.
 *
 * <p><b>A plugin's own code never runs on the deployer thread.</b> Each start, stop, update and uninstall of
 * a plugin bundle (its activator, the Declarative Services components activated with it, the services it
 * registers) runs as a {@link BundleAction} on a thread of its own, waited for a bounded time
 * ({@link DeployTimeouts}: {@code troupe.deploy.startTimeoutSeconds}, {@code troupe.deploy.stopTimeoutSeconds}).
 * A start that has not returned in time is reported once, with the plugin's name, version and the stack of
 * the thread stuck in it, and left to finish on its own; the deployer goes on with the folder, and reports
 * the start's outcome when it ends. A change or deletion of its jar first ends it (interrupt, then
 * {@link Thread#stop()} where the JDK still allows it); a stop, update or uninstall that has not returned in
 * time is ended the same way. A thread that cannot be ended is reported as leaked; so are the threads of a
 * plugin still alive after it was uninstalled or updated ({@link PluginThreads}).
 *
 * <p>At startup, the plugins are installed when the host starts and started once the framework is active at
 * their start level, never on the framework's start-level thread (an activator hanging there would hold
 * every later start level and the framework's stop). Once each of them has started, failed or outlived the
 * start timeout, the watcher registers a service with the property {@value #SETTLED_PROPERTY}, which the
 * launcher waits for (bounded) before it starts the network server. When the framework begins to stop,
 * plugin operations still running are ended, so that its stop does not wait for them.
 *
 * <p><b>Threading:</b> {@link #start} and {@link #stop} on the thread that starts and stops the host
 * bundle; everything else on the {@code troupe-deployer} thread it owns, except: actions run on their own
 * threads and hand their late outcomes to the deployer through a queue; the framework's stop is noticed by a
 * synchronous bundle listener (on the framework's thread), which ends running actions on a thread of its own.
 */
public final class DeployWatcher {

    /**
     * The property of the service registered once the plugins found at startup have each started, failed or
     * outlived the start timeout; its value says how many of each ("3 running, 1 failed, 1 still starting").
     * The launcher waits for it before it opens the server's port.
     */
    public static final String SETTLED_PROPERTY = "troupe.deploy.settled";

    private static final Logger LOG = LoggerFactory.getLogger(DeployWatcher.class);
    private static final Duration SERVICES_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration REFRESH_TIMEOUT = Duration.ofSeconds(30);
    /** How long threads found after an uninstall or update are given to end before they count as leaked. */
    private static final Duration LEAK_GRACE = Duration.ofMillis(500);
    private static final String NL = System.lineSeparator();

    /** What the watcher knows about one file of the folder. Confined to the deployer thread. */
    private static final class Entry {
        FileStamp seen;
        FileStamp handled;
        long bundleId = -1;
        /** A start that outlived the start timeout and still runs. */
        BundleAction pending;
        /** The jar being started (kept until its start ends), or null. */
        Path startingCopy;
        /** The jar could not be read for want of a resource (no file descriptor left): retried at every scan. */
        boolean unreadable;
    }

    /** A start the initial scan leaves for the deployer thread. */
    private record InitialStart(String file, Entry entry, Bundle bundle) {
    }

    private final BundleContext context;
    private final Path folder;
    private final PluginDirectory plugins;
    private final Duration poll;
    private final int startLevel;
    private final Path goodCopies;
    private final DeployOutcomes outcomes;
    private final SwapCounts counts;
    private final DeployTimeouts timeouts;
    private final Map<String, Entry> entries = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    /** Whether the last listing failed, so that a missing folder is reported once, not every poll. */
    private boolean unreadable;
    /** When the listings started failing (nanoTime), while {@link #unreadable}. */
    private long unreadableSince;
    /** Listings that failed since {@link #unreadableSince}. */
    private long unreadableListings;
    /** True while the initial scan runs on the host's starting thread. */
    private boolean initialScan;
    /** Filled by the initial scan, then read by the deployer thread (after Thread.start). */
    private final List<InitialStart> initialStarts = new ArrayList<>();
    /** Late outcomes of actions, for the deployer thread. */
    private final Queue<Runnable> inbox = new ConcurrentLinkedQueue<>();
    /** Every action still running. */
    private final Set<BundleAction> actions = ConcurrentHashMap.newKeySet();
    /** Each plugin bundle's thread group for its current revision, by bundle id. */
    private final Map<Long, ThreadGroup> groups = new ConcurrentHashMap<>();
    private final SynchronousBundleListener frameworkStopping = this::onBundleEvent;
    private final FrameworkListener frameworkStarted = this::onFrameworkEvent;
    private volatile ServiceRegistration<?> settled;

    /** @param counts where the swaps and rollbacks of updates are counted */
    public DeployWatcher(BundleContext context, Path folder, PluginDirectory plugins, Duration poll, int startLevel,
                         SwapCounts counts) {
        this.context = context;
        this.counts = counts;
        this.folder = folder;
        this.plugins = plugins;
        this.poll = poll;
        this.startLevel = startLevel;
        this.goodCopies = context.getDataFile("deployed").toPath();
        this.outcomes = new DeployOutcomes(folder);
        this.timeouts = DeployTimeouts.read(context::getProperty, problem -> LOG.error("{}", problem));
        this.thread = new Thread(this::run, "troupe-deployer");
        thread.setDaemon(true);
    }

    /**
     * Installs what the folder holds now, then starts and watches it on the deployer thread. Plugins are
     * started there once the framework is active at their start level.
     */
    public void start() {
        try {
            Files.createDirectories(goodCopies);
        } catch (IOException e) {
            LOG.error("Cannot create {}: rollbacks of failed updates are not possible", goodCopies, e);
        }
        LOG.info("Watching {} for plugins every {} ms (a plugin's start is waited for {} s, its stop {} s)", folder,
                poll.toMillis(), timeouts.start().toSeconds(), timeouts.stop().toSeconds());
        context.addBundleListener(frameworkStopping);
        context.addFrameworkListener(frameworkStarted);
        initialScan = true;
        try {
            scan(true);
        } finally {
            initialScan = false;
        }
        thread.start();
    }

    /**
     * Stops watching; installed plugins stay as they are. Plugin operations still running (a start stuck in
     * its activator) are ended.
     */
    public void stop() throws InterruptedException {
        running = false;
        try {
            context.removeBundleListener(frameworkStopping);
            context.removeFrameworkListener(frameworkStarted);
        } catch (IllegalStateException e) {
            // the host's context is no longer valid: its listeners went with it
        }
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        ServiceRegistration<?> registration = settled;
        if (registration != null) {
            settled = null;
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // unregistered with the host's context already
            }
        }
        releaseAll("The host is stopping");
    }

    private void run() {
        try {
            startInitial();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            LOG.error("Starting the plugins of {} failed: {}; the deployer goes on watching the folder", folder,
                    describe(e), e);
            announceSettled("interrupted by an error");
        }
        while (running) {
            LockSupport.parkNanos(poll.toNanos());
            if (!running || Thread.interrupted()) {
                continue;
            }
            try {
                for (Runnable late; (late = inbox.poll()) != null; ) {
                    late.run();
                }
                scan(false);
            } catch (VirtualMachineError e) {
                throw e; // fatal: the process-wide policy ends the process
            } catch (Throwable e) {
                LOG.error("Deploy folder scan failed: {}; the deployer goes on with the next scan", describe(e), e);
            }
        }
    }

    /** One look at the folder; at startup every file counts as stable. */
    private void scan(boolean initial) {
        List<Path> jars = jars();
        if (jars == null) {
            return; // an unreadable folder is not an empty one: uninstall nothing
        }
        Set<String> present = new HashSet<>();
        for (Path path : jars) {
            String name = path.getFileName().toString();
            present.add(name);
            Entry entry = entries.computeIfAbsent(name, key -> new Entry());
            FileStamp stamp = FileStamp.of(path);
            if (stamp == null) {
                continue;
            }
            boolean stable = initial || stamp.equals(entry.seen);
            entry.seen = stamp;
            if (stable && !stamp.equals(entry.handled)) {
                entry.handled = stamp;
                apply(path, entry);
            }
        }
        for (String gone : Set.copyOf(entries.keySet())) {
            if (!present.contains(gone)) {
                remove(gone, entries.remove(gone));
            }
        }
    }

    /**
     * The plugin jars of the folder, hidden files left out; {@code null} if it cannot be read (no file
     * descriptor left, the folder gone or unreadable). Failures are logged once per episode: an ERROR at the
     * first, an INFO at the next listing that works, with how long and how many listings failed.
     */
    private List<Path> jars() {
        List<Path> jars = new java.util.ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder, "*.jar")) {
            for (Path path : stream) {
                if (!path.getFileName().toString().startsWith(".") && Files.isRegularFile(path)) {
                    jars.add(path);
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            IOException cause = e instanceof DirectoryIteratorException iteration ? iteration.getCause()
                    : (IOException) e;
            unreadableListings++;
            if (!unreadable) {
                LOG.error("Cannot list the deploy folder {} ({}); plugins stay as they are until it is back, which is"
                        + " logged once", folder, cause.toString());
                unreadable = true;
                unreadableSince = System.nanoTime();
            }
            return null;
        }
        jars.sort(null);
        if (unreadable) {
            LOG.info("The deploy folder {} is readable again after {} ms ({} listings failed); changes made"
                    + " meanwhile are applied now", folder,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - unreadableSince), unreadableListings);
            unreadable = false;
            unreadableListings = 0;
        }
        return jars;
    }

    private void apply(Path path, Entry entry) {
        String file = folder.relativize(path).toString();
        Path snapshot;
        try {
            snapshot = snapshot(path, file);
        } catch (IOException e) {
            if (shortOfDescriptors(e)) {
                retryLater(file, entry, e);
            } else {
                LOG.error("Plugin deploy/{} cannot be copied to {} for installing: {}; it is retried when the file"
                        + " changes", file, goodCopies, e.toString());
            }
            return;
        }
        if (snapshot == null) {
            return;
        }
        try {
            apply(path, snapshot, file, entry);
        } finally {
            delete(snapshot); // a start still running took a copy of its own
        }
    }

    /**
     * Copies the jar as it is now; everything after reads only the copy, so a file replaced while it
     * is being installed cannot mix two jars, and the copy kept for rollbacks is exactly the jar
     * that was installed. (A later change of the file is seen by the next scan.)
     */
    private Path snapshot(Path path, String file) throws IOException {
        Path copy = goodCopies.resolve("." + file + ".installing");
        try {
            Files.copy(path, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy;
        } catch (NoSuchFileException e) {
            return null; // deleted since the listing: the next scan removes its bundle
        }
    }

    /**
     * A jar that could not be copied or read because the process is out of file descriptors is not a bad
     * jar: it is tried again at every scan (not only when the file changes), and told once per episode.
     */
    private void retryLater(String file, Entry entry, IOException e) {
        entry.handled = null;
        if (!entry.unreadable) {
            entry.unreadable = true;
            LOG.error("Plugin deploy/{} cannot be read now ({}); it is tried again at every scan until it can,"
                    + " which is logged once", file, e.toString());
        }
    }

    /** Whether {@code e} says the process or the system ran out of file descriptors (EMFILE, ENFILE). */
    static boolean shortOfDescriptors(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("Too many open files")) {
                return true;
            }
        }
        return false;
    }

    /** Brings the bundle of {@code path} in line with {@code snapshot}, the jar as copied just now. */
    private void apply(Path path, Path snapshot, String file, Entry entry) {
        PluginJar jar;
        try {
            jar = PluginJar.read(snapshot);
        } catch (IOException e) {
            if (shortOfDescriptors(e)) {
                retryLater(file, entry, e);
                return;
            }
            LOG.error("Plugin deploy/{} is not usable: {}; it is retried when the file changes", file, e.getMessage());
            Bundle running = entry.bundleId < 0 ? null : context.getBundle(entry.bundleId);
            if (running != null) {
                counts.rolledBack();
            }
            outcomes.refused(file, snapshot, running == null ? DeployOutcomes.FAILED : DeployOutcomes.ROLLED_BACK,
                    running == null ? null : running.getSymbolicName(), null,
                    running == null ? null : running.getVersion().toString(), "not usable: " + e.getMessage());
            return;
        }
        if (entry.unreadable) {
            entry.unreadable = false;
            LOG.info("Plugin deploy/{} can be read again; it is deployed now", file);
        }
        if (!releasePending(file, entry, "replaced")) {
            outcomes.refused(file, snapshot, DeployOutcomes.FAILED, jar.symbolicName(), jar.version(), null,
                    "the start of the plugin this jar replaces is stuck in a thread that cannot be ended;"
                            + " restart Troupe to end it");
            return;
        }
        Bundle bundle = entry.bundleId < 0 ? context.getBundle(path.toUri().toString()) : context.getBundle(entry.bundleId);
        if (bundle == null) {
            install(path, snapshot, file, jar, entry);
        } else if (!bundle.getSymbolicName().equals(jar.symbolicName())) {
            LOG.info("Plugin deploy/{} now holds {} instead of {}: replacing the bundle", file, jar.symbolicName(),
                    bundle.getSymbolicName());
            uninstall(file, bundle);
            install(path, snapshot, file, jar, entry);
        } else if (entry.bundleId < 0) {
            entry.bundleId = bundle.getBundleId(); // installed before (a kept framework cache, or the launcher)
            if (!bundle.getVersion().toString().equals(normalised(jar.version()))) {
                if (deferStarts()) {
                    updateBeforeStart(snapshot, file, jar, entry, bundle);
                } else {
                    update(snapshot, file, jar, bundle);
                }
            } else {
                startAndKeep(snapshot, file, entry, bundle);
            }
        } else {
            update(snapshot, file, jar, bundle);
        }
    }

    private void install(Path path, Path snapshot, String file, PluginJar jar, Entry entry) {
        Bundle bundle;
        try (InputStream in = Files.newInputStream(snapshot)) {
            bundle = context.installBundle(path.toUri().toString(), in);
        } catch (IOException | BundleException | RuntimeException e) {
            if (shortOfDescriptors(e)) {
                retryLater(file, entry, e instanceof IOException io ? io : new IOException(e));
                return;
            }
            LOG.error("Plugin deploy/{} ({} {}) could not be installed: {}", file, jar.symbolicName(), jar.version(),
                    describe(e));
            outcomes.refused(file, snapshot, DeployOutcomes.FAILED, jar.symbolicName(), jar.version(), null,
                    "could not be installed: " + describe(e));
            return;
        }
        entry.bundleId = bundle.getBundleId();
        bundle.adapt(BundleStartLevel.class).setStartLevel(startLevel);
        startAndKeep(snapshot, file, entry, bundle);
    }

    /**
     * Starts the bundle on a thread of its own and waits up to the start timeout; during the initial scan of
     * a framework still starting, leaves the start to the deployer thread instead.
     */
    private void startAndKeep(Path snapshot, String file, Entry entry, Bundle bundle) {
        Path copy = keepWhileStarting(snapshot, file);
        if (copy == null) {
            return;
        }
        entry.startingCopy = copy;
        if (deferStarts()) {
            clearPersistentStart(file, bundle);
            initialStarts.add(new InitialStart(file, entry, bundle));
            return;
        }
        BundleAction action = beginStart(file, bundle);
        try {
            action.await(timeouts.start());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        started(file, entry, bundle, action);
    }

    /** Installs the other version found in a kept framework cache, without starting it (the framework is starting). */
    private void updateBeforeStart(Path snapshot, String file, PluginJar jar, Entry entry, Bundle bundle) {
        try (InputStream in = Files.newInputStream(snapshot)) {
            bundle.update(in); // not active: no plugin code runs
        } catch (IOException | BundleException | RuntimeException e) {
            LOG.error("Plugin deploy/{} ({} {}) could not be installed over {}: {}", file, jar.symbolicName(),
                    jar.version(), bundle.getVersion(), describe(e));
            outcomes.refused(file, snapshot, DeployOutcomes.FAILED, jar.symbolicName(), jar.version(), null,
                    "could not be installed: " + describe(e));
            return;
        }
        startAndKeep(snapshot, file, entry, bundle);
    }

    /** Whether starts wait for the deployer thread: during the initial scan, until the framework is active. */
    private boolean deferStarts() {
        return initialScan && !frameworkReady();
    }

    /** Whether the framework is active at the plugins' start level, so that a transient start runs at once. */
    private boolean frameworkReady() {
        Bundle system = context.getBundle(0);
        return system.getState() == Bundle.ACTIVE
                && system.adapt(FrameworkStartLevel.class).getStartLevel() >= startLevel;
    }

    /**
     * A plugin marked as started in a kept framework cache would be started by the framework's start-level
     * thread, where a hanging activator holds everything: the mark is cleared, the deployer starts it.
     */
    private void clearPersistentStart(String file, Bundle bundle) {
        BundleStartLevel level = bundle.adapt(BundleStartLevel.class);
        if (level != null && level.isPersistentlyStarted()
                && (bundle.getState() & (Bundle.INSTALLED | Bundle.RESOLVED)) != 0) {
            try {
                bundle.stop(); // not active: only clears the mark
            } catch (BundleException | RuntimeException e) {
                LOG.warn("Plugin deploy/{}: cannot clear the framework's start mark of {}: {}", file,
                        bundle.getSymbolicName(), describe(e));
            }
        }
    }

    /**
     * On the deployer thread: waits until the framework is active at the plugins' start level, starts the
     * plugins the initial scan installed, all at once, waits for them up to the start timeout, then tells
     * the launcher ({@link #SETTLED_PROPERTY}).
     */
    private void startInitial() {
        if (initialStarts.isEmpty()) {
            announceSettled("no plugin to start");
            return;
        }
        while (running && !frameworkReady()) {
            LockSupport.parkNanos(this, TimeUnit.SECONDS.toNanos(1)); // woken by the framework's STARTED event
        }
        if (!running) {
            return;
        }
        List<BundleAction> begun = new ArrayList<>();
        for (InitialStart start : initialStarts) {
            begun.add(beginStart(start.file(), start.bundle()));
        }
        long deadline = System.nanoTime() + timeouts.start().toNanos();
        int serving = 0;
        int failed = 0;
        int starting = 0;
        for (int i = 0; i < begun.size(); i++) {
            InitialStart start = initialStarts.get(i);
            BundleAction action = begun.get(i);
            try {
                action.await(Duration.ofNanos(deadline - System.nanoTime()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!action.isDone()) {
                starting++;
            } else if (action.failure() == null) {
                serving++;
            } else {
                failed++;
            }
            started(start.file(), start.entry(), start.bundle(), action);
        }
        initialStarts.clear();
        announceSettled(serving + " running, " + failed + " failed, " + starting + " still starting");
    }

    /** Registers the service the launcher waits for. */
    private void announceSettled(String summary) {
        LOG.info("Plugins of {} at startup: {}", folder, summary);
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(SETTLED_PROPERTY, summary);
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe: the plugins found at startup have started");
        try {
            settled = context.registerService(Object.class.getName(), new Object(), properties);
        } catch (IllegalStateException e) {
            // the host is stopping
        }
    }

    /** Begins the transient start of {@code bundle} (the deployer, not the framework, starts plugins). */
    private BundleAction beginStart(String file, Bundle bundle) {
        return act("start", file, bundle, groupOf(bundle), () -> bundle.start(Bundle.START_TRANSIENT));
    }

    /** Reports a start that ended, or, once, one that still runs (its outcome then comes when it ends). */
    private void started(String file, Entry entry, Bundle bundle, BundleAction action) {
        if (action.isDone()) {
            finishStart(file, entry, bundle, action, false);
            return;
        }
        entry.pending = action;
        String reason = "its start did not finish within " + timeouts.start().toSeconds() + " s; it goes on in thread '"
                + action.thread().getName() + "'";
        LOG.error("Plugin deploy/{} ({} {}, bundle {}) has not finished starting after {} s: Troupe goes on without it"
                + " (later deploys, swaps, the server and stopping do not wait for it) and reports its outcome if it"
                + " ends; replace or delete the jar to end it. The thread stuck in its start:{}{}", file,
                bundle.getSymbolicName(), bundle.getVersion(), bundle.getBundleId(), timeouts.start().toSeconds(), NL,
                action.stack());
        outcomes.refused(file, entry.startingCopy, DeployOutcomes.FAILED, bundle.getSymbolicName(),
                bundle.getVersion().toString(), null, reason);
        action.whenDone(() -> post(() -> {
            if (entry.pending == action) { // not released or replaced meanwhile
                entry.pending = null;
                finishStart(file, entry, bundle, action, true);
            }
        }));
    }

    private void finishStart(String file, Entry entry, Bundle bundle, BundleAction action, boolean late) {
        Path copy = entry.startingCopy;
        entry.startingCopy = null;
        Throwable failure = action.failure();
        String after = late ? " after " + action.elapsed().toSeconds() + " s" : "";
        if (failure == null) {
            keepGoodCopy(copy, file);
            LOG.info("Plugin deploy/{} is {} {} (bundle {}){}", file, bundle.getSymbolicName(), bundle.getVersion(),
                    bundle.getBundleId(), late ? ", started" + after : "");
            outcomes.running(file, copy, bundle.getSymbolicName(), bundle.getVersion().toString());
        } else {
            LOG.error("Plugin deploy/{} ({} {}) did not start{}: {}; it is retried when the file changes", file,
                    bundle.getSymbolicName(), bundle.getVersion(), after, describe(failure));
            outcomes.refused(file, copy, DeployOutcomes.FAILED, bundle.getSymbolicName(),
                    bundle.getVersion().toString(), null, "did not start: " + describe(failure));
        }
        delete(copy);
    }

    /**
     * Ends the start of {@code entry} still running, if any, before its bundle is replaced or uninstalled;
     * returns whether the bundle is free (false: the thread could not be ended, and it is reported as leaked).
     */
    private boolean releasePending(String file, Entry entry, String purpose) {
        BundleAction action = entry.pending;
        if (action == null) {
            return true;
        }
        long seconds = action.elapsed().toSeconds();
        String stack = action.stack();
        BundleAction.Release release;
        try {
            release = action.release(DeployTimeouts.INTERRUPT_GRACE, DeployTimeouts.STOP_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (release == BundleAction.Release.STUCK) {
            LOG.error("Plugin deploy/{}: its start has been stuck for {} s and its thread could be neither interrupted"
                    + " nor stopped: the thread is leaked, and it holds the framework's lock on the bundle, which"
                    + " cannot be {} until the thread ends (a restart of Troupe ends it). The leaked thread:{}{}", file,
                    seconds, purpose, NL, action.stack());
            return false;
        }
        entry.pending = null;
        delete(entry.startingCopy);
        entry.startingCopy = null;
        LOG.warn("Plugin deploy/{}: its start, stuck for {} s, was {} so that it can be {} ({}). It was at:{}{}", file,
                seconds, release == BundleAction.Release.ENDED ? "interrupted" : "stopped (Thread.stop)", purpose,
                action.failure() == null ? "it returned" : describe(action.failure()), NL, stack);
        return true;
    }

    /**
     * Updates in place; the directory swaps the actors, every one of them or none. Puts the last good
     * jar back if the new revision fails, and reports the outcome beside the jar.
     */
    private void update(Path snapshot, String file, PluginJar jar, Bundle bundle) {
        String symbolicName = bundle.getSymbolicName();
        String oldVersion = bundle.getVersion().toString();
        Set<String> names = plugins.namesOf(symbolicName);
        ClassLoader oldLoader = loaderOf(bundle);
        ThreadGroup oldGroup = groups.get(bundle.getBundleId());
        long begin = System.nanoTime();
        List<String> refused;
        try {
            refused = plugins.beginSwap(bundle);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!refused.isEmpty()) {
            String reason = "its actors cannot move to a new revision, so nothing changed: "
                    + String.join("; ", refused);
            LOG.error("Plugin deploy/{}: {} {} refused: {}; {} {} keeps running", file, symbolicName, jar.version(),
                    reason, symbolicName, oldVersion);
            counts.rolledBack();
            outcomes.refused(file, snapshot, DeployOutcomes.ROLLED_BACK, symbolicName, jar.version(), oldVersion,
                    reason);
            return;
        }
        try {
            String failure = replace(bundle, snapshot, names, file);
            if (failure == null) {
                keepGoodCopy(snapshot, file);
                counts.swapped();
                LOG.info("Plugin deploy/{}: {} updated from {} to {} in {} ms", file, symbolicName, oldVersion,
                        bundle.getVersion(), (System.nanoTime() - begin) / 1_000_000);
                outcomes.running(file, snapshot, symbolicName, bundle.getVersion().toString());
                reportLeaks(file, symbolicName + " " + oldVersion, oldLoader, oldGroup, "updated");
                return;
            }
            Path good = goodCopies.resolve(file);
            if (!Files.isRegularFile(good)) {
                LOG.error("Plugin deploy/{}: {} {} failed ({}) and there is no earlier jar to put back", file,
                        symbolicName, jar.version(), failure);
                outcomes.refused(file, snapshot, DeployOutcomes.FAILED, symbolicName, jar.version(), null,
                        failure + "; there is no earlier jar to put back");
                return;
            }
            if (!running) {
                LOG.warn("Plugin deploy/{}: {} {} failed ({}); the host is stopping, so {} is not put back", file,
                        symbolicName, jar.version(), failure, oldVersion);
                return;
            }
            LOG.error("Plugin deploy/{}: {} {} failed ({}); putting {} back", file, symbolicName, jar.version(),
                    failure, oldVersion);
            String again = replace(bundle, good, names, file);
            if (again == null) {
                LOG.info("Plugin deploy/{}: rolled back to {} {}; its actors resumed with their state", file,
                        symbolicName, bundle.getVersion());
                counts.rolledBack();
                outcomes.refused(file, snapshot, DeployOutcomes.ROLLED_BACK, symbolicName, jar.version(),
                        bundle.getVersion().toString(), failure);
            } else {
                LOG.error("Plugin deploy/{}: the rollback to {} failed too: {}", file, oldVersion, again);
                outcomes.refused(file, snapshot, DeployOutcomes.FAILED, symbolicName, jar.version(), null,
                        failure + "; the rollback to " + oldVersion + " failed too: " + again);
            }
        } finally {
            plugins.endSwap(bundle.getSymbolicName());
        }
    }

    /** Updates {@code bundle} from {@code jar}; returns why the new revision is not serving, or null. */
    private String replace(Bundle bundle, Path jar, Set<String> names, String file) {
        ThreadGroup group = newGroup(bundle);
        BundleAction update = act("update", file, bundle, group, () -> {
            try (InputStream in = Files.newInputStream(jar)) {
                bundle.update(in); // the old revision's stop, then the new one's start if the bundle was active
            }
        });
        Duration bound = timeouts.stop().plus(timeouts.start());
        if (!awaitOrRelease(file, update, bound)) {
            return "its update did not finish within " + bound.toSeconds() + " s and its thread cannot be ended";
        }
        if (update.failure() != null) {
            return (update.wasReleased() ? "its update did not finish within " + bound.toSeconds() + " s: "
                    : "update failed: ") + describe(update.failure());
        }
        refreshIfNeeded(bundle);
        if (bundle.getState() != Bundle.ACTIVE) {
            BundleAction start = act("start", file, bundle, group, () -> bundle.start(Bundle.START_TRANSIENT));
            if (!awaitOrRelease(file, start, timeouts.start())) {
                return "the new revision's start did not finish within " + timeouts.start().toSeconds()
                        + " s and its thread cannot be ended";
            }
            if (start.failure() != null) {
                return "the new revision did not start" + (start.wasReleased() ? " within "
                        + timeouts.start().toSeconds() + " s" : "") + ": " + describe(start.failure());
            }
        }
        if (!plugins.isSwapping(bundle.getSymbolicName())) {
            return null; // the old revision ran no actor
        }
        long deadline = System.nanoTime() + SERVICES_TIMEOUT.toNanos();
        while (!plugins.readyToSwap(bundle.getSymbolicName(), names)) {
            if (!running || Thread.currentThread().isInterrupted()) {
                return "the host is stopping";
            }
            if (System.nanoTime() - deadline > 0) {
                return "it did not register " + names + " within " + SERVICES_TIMEOUT.toSeconds() + " s";
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        try {
            List<String> failures = plugins.completeSwap(bundle);
            return failures.isEmpty() ? null : "its actors could not move to it: " + String.join("; ", failures);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while its actors moved";
        }
    }

    private void refreshIfNeeded(Bundle bundle) {
        FrameworkWiring wiring = context.getBundle(0).adapt(FrameworkWiring.class);
        if (!wiring.getRemovalPendingBundles().contains(bundle)) {
            return;
        }
        CountDownLatch refreshed = new CountDownLatch(1);
        wiring.refreshBundles(List.of(bundle), event -> {
            if (event.getType() == FrameworkEvent.PACKAGES_REFRESHED || event.getType() == FrameworkEvent.ERROR) {
                refreshed.countDown();
            }
        });
        try {
            if (!refreshed.await(REFRESH_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                LOG.warn("Refreshing {} did not finish within {}", bundle.getSymbolicName(), REFRESH_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void remove(String file, Entry entry) {
        outcomes.forget(file);
        if (entry == null || entry.bundleId < 0) {
            return;
        }
        Bundle bundle = context.getBundle(entry.bundleId);
        if (bundle != null) {
            if (releasePending(file, entry, "uninstalled")) {
                uninstall(file, bundle);
            } else {
                long id = bundle.getBundleId();
                LOG.error("Plugin deploy/{} removed: {} {} is uninstalled when its start ends", file,
                        bundle.getSymbolicName(), bundle.getVersion());
                entry.pending.whenDone(() -> post(() -> {
                    if (entries.values().stream().noneMatch(other -> other.bundleId == id)
                            && bundle.getState() != Bundle.UNINSTALLED) {
                        uninstall(file, bundle);
                    }
                }));
            }
        }
        try {
            Files.deleteIfExists(goodCopies.resolve(file));
        } catch (IOException e) {
            LOG.warn("Cannot delete the kept copy of {}: {}", file, e.toString());
        }
    }

    /** Uninstalls on a thread of its own (the plugin's stop runs), bounded by the stop timeout. */
    private void uninstall(String file, Bundle bundle) {
        String description = bundle.getSymbolicName() + " " + bundle.getVersion();
        ClassLoader loader = loaderOf(bundle);
        ThreadGroup group = groups.get(bundle.getBundleId());
        BundleAction action = act("uninstall", file, bundle, groupOf(bundle), bundle::uninstall);
        if (!awaitOrRelease(file, action, timeouts.stop())) {
            return;
        }
        Throwable failure = action.failure();
        if (failure != null && bundle.getState() != Bundle.UNINSTALLED) {
            LOG.error("Plugin {} (deploy/{}) could not be uninstalled: {}", description, file, describe(failure));
            return;
        }
        groups.remove(bundle.getBundleId());
        refreshIfNeeded(bundle);
        LOG.info("Plugin deploy/{} removed: {} uninstalled{}", file, description,
                failure == null ? "" : " (its stop failed: " + describe(failure) + ")");
        reportLeaks(file, description, loader, group, "uninstalled");
    }

    /**
     * Waits for a stop, update or uninstall up to {@code bound}; one that outlives it is released. Returns
     * whether it has ended (false: its thread could not be ended, and it is reported as leaked).
     */
    private boolean awaitOrRelease(String file, BundleAction action, Duration bound) {
        try {
            if (action.await(bound)) {
                return true;
            }
            String stack = action.stack();
            BundleAction.Release release = action.release(DeployTimeouts.INTERRUPT_GRACE, DeployTimeouts.STOP_GRACE);
            if (release == BundleAction.Release.STUCK) {
                LOG.error("Plugin deploy/{}: the {} has not returned after {} s and its thread could be neither"
                        + " interrupted nor stopped: it is leaked (a restart of Troupe ends it):{}{}", file,
                        action.description(), action.elapsed().toSeconds(), NL, action.stack());
                return false;
            }
            LOG.error("Plugin deploy/{}: the {} had not returned after {} s; its thread was {}. It was at:{}{}", file,
                    action.description(), bound.toSeconds(),
                    release == BundleAction.Release.ENDED ? "interrupted" : "stopped (Thread.stop)", NL, stack);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return action.isDone();
        }
    }

    /** Reports the threads of a plugin revision still alive once it was uninstalled or updated. */
    private void reportLeaks(String file, String plugin, ClassLoader loader, ThreadGroup group, String what) {
        if (loader == null && group == null) {
            return;
        }
        Set<Thread> ours = actions.stream().map(BundleAction::thread).collect(Collectors.toSet());
        List<Thread> threads = PluginThreads.of(loader, group, ours);
        long deadline = System.nanoTime() + LEAK_GRACE.toNanos();
        for (Thread each : threads) { // a thread told to end by the plugin's stop may need a moment
            long left = deadline - System.nanoTime();
            if (left > 0) {
                try {
                    each.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        List<Thread> leaked = threads.stream().filter(Thread::isAlive).toList();
        if (!leaked.isEmpty()) {
            LOG.warn("Plugin {} (deploy/{}) was {} but left {} thread(s) running: they are leaked (the JVM cannot end"
                    + " them safely) and keep its classes loaded until they end:{}", plugin, file, what, leaked.size(),
                    PluginThreads.describe(leaked));
        }
    }

    /** Begins {@code operation} on a thread of its own, in {@code group}; tracks it until it ends. */
    private BundleAction act(String verb, String file, Bundle bundle, ThreadGroup group,
                             BundleAction.Operation operation) {
        String plugin = bundle.getSymbolicName() + " " + bundle.getVersion() + " (deploy/" + file + ")";
        BundleAction action = BundleAction.begin(verb, plugin, group, Thread.currentThread().getContextClassLoader(),
                operation);
        actions.add(action);
        action.whenDone(() -> actions.remove(action));
        return action;
    }

    /** The thread group of the bundle's current revision. */
    private ThreadGroup groupOf(Bundle bundle) {
        return groups.computeIfAbsent(bundle.getBundleId(), id -> new ThreadGroup("troupe-plugin "
                + bundle.getSymbolicName()));
    }

    /** A new thread group for the bundle's next revision. */
    private ThreadGroup newGroup(Bundle bundle) {
        ThreadGroup group = new ThreadGroup("troupe-plugin " + bundle.getSymbolicName());
        groups.put(bundle.getBundleId(), group);
        return group;
    }

    private static ClassLoader loaderOf(Bundle bundle) {
        BundleWiring wiring = bundle.adapt(BundleWiring.class);
        return wiring == null ? null : wiring.getClassLoader();
    }

    /** Hands {@code task} to the deployer thread, which runs it before its next scan. */
    private void post(Runnable task) {
        inbox.add(task);
        LockSupport.unpark(thread);
    }

    private void onBundleEvent(BundleEvent event) {
        if (event.getType() == BundleEvent.STOPPING && event.getBundle().getBundleId() == 0) {
            running = false;
            LockSupport.unpark(thread);
            if (actions.stream().anyMatch(action -> !action.isDone())) {
                Thread releaser = new Thread(() -> releaseAll("Troupe is stopping"), "troupe-plugin-release");
                releaser.setDaemon(true);
                releaser.start();
            }
        }
    }

    private void onFrameworkEvent(FrameworkEvent event) {
        if (event.getType() == FrameworkEvent.STARTED || event.getType() == FrameworkEvent.STARTLEVEL_CHANGED) {
            LockSupport.unpark(thread);
        }
    }

    /** Ends every plugin operation still running, so that whatever stops now does not wait for it. */
    private void releaseAll(String reason) {
        List<BundleAction> live = actions.stream().filter(action -> !action.isDone()).toList();
        if (live.isEmpty()) {
            return;
        }
        LOG.warn("{} while {} plugin operation(s) still run; ending them so that the stop does not wait for them: {}",
                reason, live.size(), live.stream().map(BundleAction::description).collect(Collectors.joining(", ")));
        for (BundleAction action : live) {
            try {
                BundleAction.Release release = action.release(DeployTimeouts.INTERRUPT_GRACE,
                        DeployTimeouts.STOP_GRACE);
                if (release == BundleAction.Release.STUCK) {
                    LOG.error("The {} could be neither interrupted nor stopped: its thread is leaked, and the"
                            + " framework's stop waits for it (the launcher ends Troupe after its stop timeout):{}{}",
                            action.description(), NL, action.stack());
                } else {
                    LOG.info("The {} was {}", action.description(),
                            release == BundleAction.Release.ENDED ? "interrupted" : "stopped (Thread.stop)");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Copies the jar being started out of the way of the next snapshot of the same file. */
    private Path keepWhileStarting(Path snapshot, String file) {
        Path copy = goodCopies.resolve("." + file + ".starting");
        try {
            Files.copy(snapshot, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy;
        } catch (IOException e) {
            LOG.error("Plugin deploy/{} cannot be copied to {} for starting: {}; it is retried when the file changes",
                    file, copy, e.toString());
            return null;
        }
    }

    /** Keeps the installed jar's bytes ({@code snapshot}) as the one to put back if a later update fails. */
    private void keepGoodCopy(Path snapshot, String file) {
        try {
            Path target = goodCopies.resolve(file);
            Path part = goodCopies.resolve("." + file + ".part");
            Files.copy(snapshot, part, StandardCopyOption.REPLACE_EXISTING);
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("Cannot keep a copy of deploy/{} for rollbacks: {}", file, e.toString());
        }
    }

    private static void delete(Path path) {
        if (path == null) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("Cannot delete {}: {}", path, e.toString());
        }
    }

    private static String normalised(String version) {
        try {
            return org.osgi.framework.Version.parseVersion(version).toString();
        } catch (IllegalArgumentException e) {
            return version;
        }
    }

    /** The message of {@code e} and of its causes, so that an activator's own words reach the log. */
    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null && text.length() < 2000; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": caused by ").append(t.getClass() == e.getClass() && t == e
                        ? message : t.getClass().getSimpleName() + ": " + message);
            }
        }
        return text.toString();
    }
}
