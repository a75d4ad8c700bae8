package io.troupe.launcher;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which bundles of {@code system/} are installed, in which order, at which start level, and when the
 * launcher starts them. Bundles are recognised by {@code Bundle-SymbolicName}, not by file name.
 *
 * <pre>
 *  level  phase     bundles
 *  1      CORE      org.apache.felix.log (the OSGi log service, forwarded into log/troupe.log),
 *                   org.osgi.util.function, org.osgi.util.promise, org.osgi.service.component,
 *                   org.apache.felix.configadmin, org.apache.felix.metatype (the typed
 *                   configuration model: the MetaTypeService and the reader the server checks its
 *                   configurations with), org.apache.felix.scr
 *  2      CORE      org.apache.felix.fileinstall (etc/*.cfg into ConfigAdmin),
 *                   org.apache.felix.gogo.runtime, org.apache.felix.gogo.command
 *  3      CORE      org.apache.felix.http.servlet-api, commons-io, commons-fileupload,
 *                   org.apache.felix.http.jetty12 (the HTTP endpoint's server and Servlet Whiteboard; optional.
 *                   It opens no port until io.troupe.ops configures it: see FrameworkConfig)
 *  5      CORE      io.troupe.api, com.h2database, io.troupe.store (the state store, optional: without it
 *                   actors keep their state in memory only), io.troupe.host, io.troupe.protocol
 *  6      CORE      io.troupe.ops (the HTTP endpoint: /health, /metrics, /console; optional), after the
 *                   host so that it finds the runtime's services, and long before the plugins and the server,
 *                   so that /health/live answers while Troupe starts and /health/ready says what it waits for
 *  20     CORE      any other bundle found in system/
 *  30     CONSOLE   io.troupe.shell
 *  80     -         plugins from deploy/, installed and watched by the host
 *  20     CORE      com.hazelcast      (cluster nodes only: etc/io.troupe.cluster.cfg exists)
 *  85     SERVER    io.troupe.server   (optional: without it Troupe runs without a network port)
 *  86     SERVER    io.troupe.cluster  (cluster nodes only; after the server, so that it stops first and
 *                                       hands its tenants over while the server and plugins still serve)
 *  90     TERMINAL  org.jline, org.apache.felix.gogo.jline   (tty mode only; left out in script mode)
 * </pre>
 *
 * CORE bundles start with the framework. The SERVER bundle starts after the plugins are deployed (the
 * host starts them on threads of its own, and says when each has started, failed or outlived its start
 * timeout: {@link PluginsSettled}), so that its port opens once they serve, whatever one plugin does, and
 * stops before them, so that it can answer the
 * requests it has received before their handlers go away. CONSOLE and TERMINAL bundles start after
 * the ready line is printed, so that the first command finds the plugins, command output follows
 * the ready line, and the shell's prompt comes last. Within a level, bundles start in the order of
 * this table, and stop in the reverse order: the state store starts before the host and stops after it,
 * so that the host finds the store at start and the last snapshots of a clean stop still reach it.
 *
 * <p><b>Threading:</b> immutable; {@link #plan} may be called from any thread.
 */
final class SystemBundles {

    /** When the launcher starts a bundle. */
    enum Phase {
        /** Marked for start before the framework starts; started by the framework's start level. */
        CORE,
        /** Started after the plugins of deploy/, before the ready line; may be absent. */
        SERVER,
        /** Started after the plugins of deploy/ and the ready line. */
        CONSOLE,
        /** Started after the ready line, in tty mode only. */
        TERMINAL
    }

    /**
     * A system bundle the launcher knows, by symbolic name; an optional one may be missing; a cluster one
     * is installed only on a cluster node. Immutable.
     */
    private record Role(String symbolicName, int startLevel, Phase phase, boolean optional, boolean clusterOnly) {

        Role(String symbolicName, int startLevel, Phase phase, boolean optional) {
            this(symbolicName, startLevel, phase, optional, false);
        }

        Role(String symbolicName, int startLevel, Phase phase) {
            this(symbolicName, startLevel, phase, phase == Phase.SERVER);
        }
    }

    /** A bundle to install: its jar, its start level, its phase. Immutable. */
    record Planned(BundleJar jar, int startLevel, Phase phase) {
    }

    /** The start level the host gives the plugins it installs from deploy/ (troupe.deploy.startLevel). */
    static final int PLUGIN_START_LEVEL = 80;

    /** The start level of system bundles that are not in the table. */
    static final int OTHER_START_LEVEL = 20;

    private static final List<Role> ROLES = List.of(
            new Role("org.apache.felix.log", 1, Phase.CORE),
            new Role("org.osgi.util.function", 1, Phase.CORE),
            new Role("org.osgi.util.promise", 1, Phase.CORE),
            new Role("org.osgi.service.component", 1, Phase.CORE),
            new Role("org.apache.felix.configadmin", 1, Phase.CORE),
            new Role("org.apache.felix.metatype", 1, Phase.CORE),
            new Role("org.apache.felix.scr", 1, Phase.CORE),
            new Role("org.apache.felix.fileinstall", 2, Phase.CORE),
            new Role("org.apache.felix.gogo.runtime", 2, Phase.CORE),
            new Role("org.apache.felix.gogo.command", 2, Phase.CORE),
            new Role("org.apache.felix.http.servlet-api", 3, Phase.CORE, true),
            new Role("org.apache.commons.commons-io", 3, Phase.CORE, true),
            new Role("org.apache.commons.commons-fileupload", 3, Phase.CORE, true),
            new Role("org.apache.felix.http.jetty12", 3, Phase.CORE, true),
            new Role("io.troupe.api", 5, Phase.CORE),
            new Role("com.h2database", 5, Phase.CORE, true),
            new Role("io.troupe.store", 5, Phase.CORE, true),
            new Role("io.troupe.host", 5, Phase.CORE),
            new Role("io.troupe.protocol", 5, Phase.CORE),
            new Role("io.troupe.ops", 6, Phase.CORE, true),
            new Role("io.troupe.shell", 30, Phase.CONSOLE),
            new Role("com.hazelcast", OTHER_START_LEVEL, Phase.CORE, true, true),
            new Role("io.troupe.server", 85, Phase.SERVER),
            new Role("io.troupe.cluster", 86, Phase.SERVER, true, true),
            new Role("org.jline", 90, Phase.TERMINAL),
            new Role("org.apache.felix.gogo.jline", 90, Phase.TERMINAL));

    private SystemBundles() {
    }

    /**
     * The bundles to install from {@code layout.system()}, in install order.
     *
     * @throws LauncherException if a jar there is not a bundle, two jars have the same symbolic
     *                           name, or a bundle the table requires for {@code mode} is missing
     */
    static List<Planned> plan(InstallLayout layout, ConsoleMode mode) throws LauncherException {
        return plan(layout, mode, false);
    }

    /**
     * The bundles to install from {@code layout.system()}, in install order; Hazelcast and the cluster bundle
     * only when {@code clustered}.
     *
     * @throws LauncherException as {@link #plan(InstallLayout, ConsoleMode)}
     */
    static List<Planned> plan(InstallLayout layout, ConsoleMode mode, boolean clustered) throws LauncherException {
        Map<String, BundleJar> bySymbolicName = new LinkedHashMap<>();
        for (Path path : jars(layout.system())) {
            BundleJar jar;
            try {
                jar = BundleJar.read(path);
            } catch (LauncherException e) {
                throw new LauncherException("system bundle " + layout.display(path) + " is unusable: "
                        + e.getMessage());
            }
            BundleJar previous = bySymbolicName.putIfAbsent(jar.symbolicName(), jar);
            if (previous != null) {
                throw new LauncherException("two system bundles are named " + jar.symbolicName() + ": "
                        + layout.display(previous.path()) + " and " + layout.display(path) + "; remove one");
            }
        }
        List<Planned> plan = new ArrayList<>();
        for (Role role : ROLES) {
            BundleJar jar = bySymbolicName.remove(role.symbolicName());
            if (role.phase() == Phase.TERMINAL && mode != ConsoleMode.TTY) {
                continue; // without a terminal, jline must not even be installed
            }
            if (role.clusterOnly() && !clustered) {
                continue; // a node without etc/io.troupe.cluster.cfg starts no cluster thread at all
            }
            if (jar == null && role.optional()) {
                continue; // without the network server or the state store, Troupe still runs actors
            }
            if (jar == null) {
                throw new LauncherException("no bundle " + role.symbolicName() + " in "
                        + layout.display(layout.system()) + ": the installation is incomplete");
            }
            plan.add(new Planned(jar, role.startLevel(), role.phase()));
        }
        int firstNonCore = (int) plan.stream().filter(planned -> planned.phase() == Phase.CORE).count();
        List<Planned> others = new ArrayList<>();
        for (BundleJar jar : bySymbolicName.values()) {
            others.add(new Planned(jar, OTHER_START_LEVEL, Phase.CORE));
        }
        plan.addAll(firstNonCore, others);
        return List.copyOf(plan);
    }

    /** The highest start level any planned bundle uses. */
    static int highestStartLevel(List<Planned> plan) {
        return plan.stream().mapToInt(Planned::startLevel).max().orElse(1);
    }

    /** The {@code *.jar} files of {@code dir}, by file name, hidden files left out. */
    static List<Path> jars(Path dir) throws LauncherException {
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.jar")) {
            for (Path entry : entries) {
                if (!entry.getFileName().toString().startsWith(".") && !Files.isDirectory(entry)) {
                    jars.add(entry);
                }
            }
        } catch (IOException e) {
            throw new LauncherException("cannot list " + dir + ": " + LauncherException.describe(e), e);
        }
        jars.sort(Comparator.comparing(path -> path.getFileName().toString()));
        return jars;
    }
}
