package io.troupe.ops.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleListener;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorFactory;
import io.troupe.api.Factory;
import io.troupe.api.Handler;
import io.troupe.client.deploy.DeployException;
import io.troupe.client.deploy.DeployFolder;
import io.troupe.client.deploy.DeployStatus;
import io.troupe.client.deploy.PluginJar;

/**
 * What the framework and the deploy folder say about plugins, read on demand: the rows of
 * {@code /console/api/plugins}, the plugin behind each handler and factory name (for the actor tree), and the
 * host's outcomes ({@code deploy/.status/<file>}). As a {@link BundleListener} it turns the bundle events of
 * plugins (bundles whose location is a jar of the folder) into {@link PluginHistory} entries.
 *
 * <p>A bundle's handler and factory names are the {@value Handler#PROPERTY} and {@value Factory#PROPERTY}
 * properties of the {@link ActorFactory} services it registered, as {@code troupe:plugins} reads them.
 *
 * <p><b>Threading:</b> any thread. Reads the framework's thread-safe API and the folder; the digests of the
 * jars are cached by size and modification time in a concurrent map, so that a jar is read again only when
 * it changed. So are the host's outcomes, by file identity (the host replaces a status file by renaming a new
 * one over it), size and modification time: the console's sampler asks for them every second, and an idle
 * server then lists the status folder and reads no file.
 */
final class PluginCatalog implements BundleListener {

    /** How the runtime names the origin of a handler's actors: {@code handler:counter.add}. */
    static final String HANDLER_ORIGIN = "handler:";
    /** How the runtime names the origin of actors spawned from a named factory: {@code factory:wordcount.chunk}. */
    static final String FACTORY_ORIGIN = "factory:";

    private static final Logger LOG = LoggerFactory.getLogger(PluginCatalog.class);

    private record Digest(long size, long modified, String sha256) {
    }

    /** A status file as last read: its identity, size and modification time, and what it said. */
    private record ReadStatus(Object fileKey, long size, long modified, DeployStatus status) {
        boolean describes(BasicFileAttributes attributes) {
            return Objects.equals(fileKey, attributes.fileKey()) && size == attributes.size()
                    && modified == attributes.lastModifiedTime().toMillis();
        }
    }

    private final BundleContext context;
    private final DeployFolder folder;
    private final PluginHistory history;
    private final PluginRevisions revisions;
    private final Map<String, Digest> digests = new ConcurrentHashMap<>();
    private final Map<Path, ReadStatus> statuses = new ConcurrentHashMap<>();
    /** The files that had an outcome at the last poll; the sampler's (seeded before it starts). */
    private Set<String> judgedFiles = Set.of();

    /**
     * @param folder the deploy folder, or null when the framework has none (then there are no plugins)
     */
    PluginCatalog(BundleContext context, DeployFolder folder, PluginHistory history, PluginRevisions revisions) {
        this.context = context;
        this.folder = folder;
        this.history = history;
        this.revisions = revisions;
    }

    /** The deploy folder, if the framework has one. */
    Optional<DeployFolder> folder() {
        return Optional.ofNullable(folder);
    }

    /**
     * Counts the plugins installed now as revision 1 and takes in the standing outcomes without recording
     * them; before the sampler polls.
     */
    void seed() {
        for (Bundle bundle : context.getBundles()) {
            if (fileOf(bundle).isPresent()) {
                history.known(bundle.getBundleId(), bundle.getVersion().toString());
            }
        }
        Set<String> present = new HashSet<>();
        for (DeployStatus status : outcomes()) {
            present.add(status.file());
            history.outcome(status, false);
            revisions.running(folder.dir(), status);
        }
        judgedFiles = present;
    }

    @Override
    public void bundleChanged(BundleEvent event) {
        Bundle bundle = event.getBundle();
        Optional<String> file = fileOf(bundle);
        if (file.isEmpty()) {
            return;
        }
        String name = bundle.getSymbolicName();
        String version = bundle.getVersion().toString();
        switch (event.getType()) {
            case BundleEvent.INSTALLED -> history.installed(bundle.getBundleId(), file.get(), name, version);
            case BundleEvent.UPDATED -> history.updated(bundle.getBundleId(), file.get(), name, version);
            case BundleEvent.UNINSTALLED -> history.uninstalled(bundle.getBundleId(), file.get(), name, version);
            default -> {
                // started, stopped, resolved...: not a swap
            }
        }
    }

    /**
     * Takes in the host's outcomes as they stand now: new ones go to the history, running ones to the kept
     * revisions; the outcomes of deleted jars are forgotten.
     */
    void pollOutcomes() {
        if (folder == null) {
            return;
        }
        Set<String> present = new HashSet<>();
        for (DeployStatus status : outcomes()) {
            present.add(status.file());
            if (history.outcome(status, true) || status.outcome() == DeployStatus.Outcome.RUNNING) {
                revisions.running(folder.dir(), status);
            }
        }
        for (String file : judgedFiles) {
            if (!present.contains(file)) { // the host forgets the outcome of a deleted jar
                digests.remove(file);
                history.forgetOutcome(file);
                revisions.forget(file);
            }
        }
        judgedFiles = present;
    }

    /** The host's outcome of each jar of the folder that has one, by file name. */
    List<DeployStatus> outcomes() {
        if (folder == null) {
            return List.of();
        }
        List<DeployStatus> outcomes = new ArrayList<>();
        Path statusFolder = folder.dir().resolve(DeployStatus.FOLDER);
        if (!Files.isDirectory(statusFolder)) {
            return outcomes;
        }
        Set<Path> listed = new HashSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(statusFolder, "*" + DeployFolder.JAR)) {
            for (Path file : files) {
                if (file.getFileName().toString().startsWith(".")) {
                    continue; // a status being written
                }
                listed.add(file);
                status(file).ifPresent(outcomes::add);
            }
        } catch (IOException e) {
            LOG.debug("Cannot list {}: {}", statusFolder, e.toString());
        }
        statuses.keySet().retainAll(listed);
        outcomes.sort(Comparator.comparing(DeployStatus::file));
        return outcomes;
    }

    /** What the status file says: as last read if it is the same file, unchanged; read again otherwise. */
    private Optional<DeployStatus> status(Path file) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            statuses.remove(file);
            return Optional.empty(); // deleted since the listing
        }
        ReadStatus known = statuses.get(file);
        if (known != null && known.describes(attributes)) {
            return Optional.of(known.status());
        }
        try {
            Optional<DeployStatus> read = DeployStatus.read(file);
            read.ifPresentOrElse(status -> statuses.put(file, new ReadStatus(attributes.fileKey(), attributes.size(),
                    attributes.lastModifiedTime().toMillis(), status)), () -> statuses.remove(file));
            return read;
        } catch (DeployException e) {
            LOG.debug("Skipping the status {}: {}", file, e.detail());
            statuses.remove(file);
            return Optional.empty();
        }
    }

    /** The plugins: bundles installed from the folder and jars none was installed from, by file name. */
    List<PluginRow> rows() {
        if (folder == null) {
            return List.of();
        }
        Map<String, DeployStatus> outcomes = new HashMap<>();
        for (DeployStatus status : outcomes()) {
            outcomes.put(status.file(), status);
        }
        List<PluginRow> rows = new ArrayList<>();
        Set<String> installed = new HashSet<>();
        for (Bundle bundle : context.getBundles()) {
            Optional<String> file = fileOf(bundle);
            if (file.isEmpty()) {
                continue;
            }
            installed.add(file.get());
            rows.add(bundleRow(bundle, file.get(), outcomes.get(file.get())));
        }
        List<Path> jars;
        try {
            jars = folder.jars();
        } catch (DeployException e) {
            LOG.debug("Cannot list the deploy folder: {}", e.detail());
            jars = List.of();
        }
        for (Path jar : jars) {
            String file = jar.getFileName().toString();
            if (!installed.contains(file)) {
                rows.add(jarRow(jar, file, outcomes.get(file)));
            }
        }
        rows.sort(Comparator.comparing(PluginRow::file).thenComparingLong(PluginRow::bundleId));
        return rows;
    }

    /**
     * The plugin behind each handler and factory registered now, from any bundle, by the origin the runtime gives
     * their actors ({@value #HANDLER_ORIGIN}name, {@value #FACTORY_ORIGIN}name).
     */
    Map<String, PluginCode> origins() {
        Map<String, PluginCode> origins = new HashMap<>();
        Collection<ServiceReference<ActorFactory>> services;
        try {
            services = context.getServiceReferences(ActorFactory.class, null);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException("no filter given, yet: " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            return origins; // the console's bundle is stopping
        }
        for (ServiceReference<ActorFactory> service : services) {
            Bundle bundle = service.getBundle();
            if (bundle == null) {
                continue; // unregistered meanwhile
            }
            PluginCode code = new PluginCode(bundle.getBundleId(), String.valueOf(bundle.getSymbolicName()),
                    bundle.getVersion().toString(), history.revision(bundle.getBundleId()),
                    fileOf(bundle).orElse(null));
            Set<String> handlers = new TreeSet<>();
            addNames(service.getProperty(Handler.PROPERTY), handlers);
            Set<String> factories = new TreeSet<>();
            addNames(service.getProperty(Factory.PROPERTY), factories);
            for (String name : handlers) {
                origins.put(HANDLER_ORIGIN + name, code);
            }
            for (String name : factories) {
                origins.put(FACTORY_ORIGIN + name, code);
            }
        }
        return origins;
    }

    private PluginRow bundleRow(Bundle bundle, String file, DeployStatus outcome) {
        SortedSet<String> handlers = new TreeSet<>();
        SortedSet<String> factories = new TreeSet<>();
        for (ServiceReference<?> service : registeredServices(bundle)) {
            if (service.getProperty(org.osgi.framework.Constants.OBJECTCLASS) instanceof String[] classes
                    && List.of(classes).contains(ActorFactory.class.getName())) {
                addNames(service.getProperty(Handler.PROPERTY), handlers);
                addNames(service.getProperty(Factory.PROPERTY), factories);
            }
        }
        Path jar = folder.dir().resolve(file);
        boolean exists = Files.isRegularFile(jar);
        return new PluginRow(file, exists, bundle.getBundleId(), bundle.getSymbolicName(),
                bundle.getVersion().toString(), stateName(bundle.getState()), history.revision(bundle.getBundleId()),
                List.copyOf(handlers), List.copyOf(factories), outcome, exists && refuses(outcome, jar, file),
                revisions.previous(file).map(PluginRevisions.Kept::version).orElse(null));
    }

    private PluginRow jarRow(Path jar, String file, DeployStatus outcome) {
        String symbolicName = null;
        String version = null;
        try {
            PluginJar plugin = PluginJar.read(jar, file);
            symbolicName = plugin.symbolicName();
            version = plugin.version();
        } catch (DeployException e) {
            LOG.debug("deploy/{} is not a readable plugin: {}", file, e.detail());
        }
        return new PluginRow(file, true, -1, symbolicName, version, PluginRow.NOT_INSTALLED, 0, List.of(), List.of(),
                outcome, refuses(outcome, jar, file), null);
    }

    /** Whether {@code outcome} refused the very bytes the jar holds now. */
    private boolean refuses(DeployStatus outcome, Path jar, String file) {
        if (outcome == null || outcome.outcome() == DeployStatus.Outcome.RUNNING) {
            return false;
        }
        return digest(jar, file).map(outcome.sha256()::equals).orElse(false);
    }

    private Optional<String> digest(Path jar, String file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(jar, BasicFileAttributes.class);
            long size = attributes.size();
            long modified = attributes.lastModifiedTime().toMillis();
            Digest cached = digests.get(file);
            if (cached != null && cached.size() == size && cached.modified() == modified) {
                return Optional.of(cached.sha256());
            }
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            try (InputStream in = new DigestInputStream(Files.newInputStream(jar), sha)) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            String hex = HexFormat.of().formatHex(sha.digest());
            digests.put(file, new Digest(size, modified, hex));
            return Optional.of(hex);
        } catch (IOException | NoSuchAlgorithmException e) {
            return Optional.empty();
        }
    }

    /** The jar of the folder {@code bundle} was installed from, if it was. */
    Optional<String> fileOf(Bundle bundle) {
        if (folder == null) {
            return Optional.empty();
        }
        return folder.fileOf(bundle.getLocation()).map(Path::toString);
    }

    private static ServiceReference<?>[] registeredServices(Bundle bundle) {
        try {
            ServiceReference<?>[] services = bundle.getRegisteredServices();
            return services == null ? new ServiceReference<?>[0] : services;
        } catch (IllegalStateException e) {
            return new ServiceReference<?>[0]; // uninstalled meanwhile
        }
    }

    private static void addNames(Object property, Set<String> names) {
        if (property instanceof String name) {
            names.add(name);
        } else if (property instanceof String[] array) {
            names.addAll(List.of(array));
        } else if (property instanceof Collection<?> collection) {
            collection.forEach(element -> names.add(String.valueOf(element)));
        }
    }

    private static String stateName(int state) {
        return switch (state) {
            case Bundle.ACTIVE -> "ACTIVE";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            case Bundle.UNINSTALLED -> "UNINSTALLED";
            default -> "UNKNOWN(" + state + ")";
        };
    }
}
