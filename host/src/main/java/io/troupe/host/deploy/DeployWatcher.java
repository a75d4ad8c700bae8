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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.startlevel.BundleStartLevel;
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
 * <p><b>Threading:</b> {@link #start} and {@link #stop} on the thread that starts and stops the host
 * bundle; everything else on the {@code troupe-deployer} thread it owns.
 */
public final class DeployWatcher {

    private static final Logger LOG = LoggerFactory.getLogger(DeployWatcher.class);
    private static final Duration SERVICES_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration REFRESH_TIMEOUT = Duration.ofSeconds(30);

    /** What the watcher knows about one file of the folder. Confined to the deployer thread. */
    private static final class Entry {
        FileStamp seen;
        FileStamp handled;
        long bundleId = -1;
    }

    private final BundleContext context;
    private final Path folder;
    private final PluginDirectory plugins;
    private final Duration poll;
    private final int startLevel;
    private final Path goodCopies;
    private final DeployOutcomes outcomes;
    private final SwapCounts counts;
    private final Map<String, Entry> entries = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    /** Whether the last listing failed, so that a missing folder is reported once, not every poll. */
    private boolean unreadable;
    /** When the listings started failing (nanoTime), while {@link #unreadable}. */
    private long unreadableSince;
    /** Listings that failed since {@link #unreadableSince}. */
    private long unreadableListings;

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
        this.thread = new Thread(this::run, "troupe-deployer");
        thread.setDaemon(true);
    }

    /** Installs what the folder holds now, then watches it on the deployer thread. */
    public void start() {
        try {
            Files.createDirectories(goodCopies);
        } catch (IOException e) {
            LOG.error("Cannot create {}: rollbacks of failed updates are not possible", goodCopies, e);
        }
        LOG.info("Watching {} for plugins every {} ms", folder, poll.toMillis());
        scan(true);
        thread.start();
    }

    /** Stops watching; installed plugins stay as they are. */
    public void stop() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }

    private void run() {
        while (running) {
            LockSupport.parkNanos(poll.toNanos());
            if (!running || Thread.interrupted()) {
                continue;
            }
            try {
                scan(false);
            } catch (RuntimeException e) {
                LOG.error("Deploy folder scan failed; retrying", e);
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
        Path snapshot = snapshot(path, file);
        if (snapshot == null) {
            return;
        }
        try {
            apply(path, snapshot, file, entry);
        } finally {
            try {
                Files.deleteIfExists(snapshot);
            } catch (IOException e) {
                LOG.warn("Cannot delete {}: {}", snapshot, e.toString());
            }
        }
    }

    /**
     * Copies the jar as it is now; everything after reads only the copy, so a file replaced while it
     * is being installed cannot mix two jars, and the copy kept for rollbacks is exactly the jar
     * that was installed. (A later change of the file is seen by the next scan.)
     */
    private Path snapshot(Path path, String file) {
        Path copy = goodCopies.resolve("." + file + ".installing");
        try {
            Files.copy(path, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy;
        } catch (NoSuchFileException e) {
            return null; // deleted since the listing: the next scan removes its bundle
        } catch (IOException e) {
            LOG.error("Plugin deploy/{} cannot be copied to {} for installing: {}; it is retried when the file"
                    + " changes", file, copy, e.toString());
            return null;
        }
    }

    /** Brings the bundle of {@code path} in line with {@code snapshot}, the jar as copied just now. */
    private void apply(Path path, Path snapshot, String file, Entry entry) {
        PluginJar jar;
        try {
            jar = PluginJar.read(snapshot);
        } catch (IOException e) {
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
                update(snapshot, file, jar, bundle);
            } else {
                startAndKeep(snapshot, file, bundle);
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
            LOG.error("Plugin deploy/{} ({} {}) could not be installed: {}", file, jar.symbolicName(), jar.version(),
                    describe(e));
            outcomes.refused(file, snapshot, DeployOutcomes.FAILED, jar.symbolicName(), jar.version(), null,
                    "could not be installed: " + describe(e));
            return;
        }
        entry.bundleId = bundle.getBundleId();
        bundle.adapt(BundleStartLevel.class).setStartLevel(startLevel);
        startAndKeep(snapshot, file, bundle);
    }

    private void startAndKeep(Path snapshot, String file, Bundle bundle) {
        try {
            bundle.start();
            keepGoodCopy(snapshot, file);
            LOG.info("Plugin deploy/{} is {} {} (bundle {})", file, bundle.getSymbolicName(), bundle.getVersion(),
                    bundle.getBundleId());
            outcomes.running(file, snapshot, bundle.getSymbolicName(), bundle.getVersion().toString());
        } catch (BundleException | RuntimeException e) {
            LOG.error("Plugin deploy/{} ({} {}) did not start: {}; it is retried when the file changes", file,
                    bundle.getSymbolicName(), bundle.getVersion(), describe(e));
            outcomes.refused(file, snapshot, DeployOutcomes.FAILED, bundle.getSymbolicName(),
                    bundle.getVersion().toString(), null, "did not start: " + describe(e));
        }
    }

    /**
     * Updates in place; the directory swaps the actors, every one of them or none. Puts the last good
     * jar back if the new revision fails, and reports the outcome beside the jar.
     */
    private void update(Path snapshot, String file, PluginJar jar, Bundle bundle) {
        String symbolicName = bundle.getSymbolicName();
        String oldVersion = bundle.getVersion().toString();
        Set<String> names = plugins.namesOf(symbolicName);
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
            String failure = replace(bundle, snapshot, names);
            if (failure == null) {
                keepGoodCopy(snapshot, file);
                counts.swapped();
                LOG.info("Plugin deploy/{}: {} updated from {} to {} in {} ms", file, symbolicName, oldVersion,
                        bundle.getVersion(), (System.nanoTime() - begin) / 1_000_000);
                outcomes.running(file, snapshot, symbolicName, bundle.getVersion().toString());
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
            String again = replace(bundle, good, names);
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
            plugins.endSwap(symbolicName);
        }
    }

    /** Updates {@code bundle} from {@code jar}; returns why the new revision is not serving, or null. */
    private String replace(Bundle bundle, Path jar, Set<String> names) {
        try (InputStream in = Files.newInputStream(jar)) {
            bundle.update(in);
        } catch (IOException | BundleException | RuntimeException e) {
            return "update failed: " + describe(e);
        }
        refreshIfNeeded(bundle);
        if (bundle.getState() != Bundle.ACTIVE) {
            try {
                bundle.start();
            } catch (BundleException | RuntimeException e) {
                return "the new revision did not start: " + describe(e);
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
            uninstall(file, bundle);
        }
        try {
            Files.deleteIfExists(goodCopies.resolve(file));
        } catch (IOException e) {
            LOG.warn("Cannot delete the kept copy of {}: {}", file, e.toString());
        }
    }

    private void uninstall(String file, Bundle bundle) {
        String description = bundle.getSymbolicName() + " " + bundle.getVersion();
        try {
            bundle.uninstall();
            refreshIfNeeded(bundle);
            LOG.info("Plugin deploy/{} removed: {} uninstalled", file, description);
        } catch (BundleException | RuntimeException e) {
            LOG.error("Plugin {} (deploy/{}) could not be uninstalled: {}", description, file, describe(e));
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
