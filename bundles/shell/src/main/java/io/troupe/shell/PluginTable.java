package io.troupe.shell;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;

import io.troupe.api.ActorFactory;
import io.troupe.api.Factory;
import io.troupe.api.Handler;
import io.troupe.client.deploy.DeployException;
import io.troupe.client.deploy.DeployFolder;
import io.troupe.client.deploy.PluginJar;

/**
 * The plugins of the deploy folder as the {@code plugins} command prints them, one row per file:
 *
 * <pre>
 * ID  FILE           SYMBOLIC NAME               VERSION  STATE          PROVIDES
 * 14  counter.jar    io.troupe.sample.counter    1.0.0    ACTIVE         handlers counter.add, counter.get, counter.version
 * 15  wordcount.jar  io.troupe.sample.wordcount  1.0.0    ACTIVE         handlers wordcount; factories wordcount.chunk
 * -   broken.jar     -                           -        NOT INSTALLED  -
 * 16  kv.jar         kv                          5.0.0    ACTIVE         handlers kv.put
 *       rejected kv 6.0.0: kv.Store cannot import the state of 5.0.0
 * </pre>
 *
 * A row is a bundle installed from the folder (its location is a file there), with the handler and
 * factory names of the {@link ActorFactory} services it registered; or a jar of the folder that no
 * bundle was installed from, yet or because the host could not install it ({@value #NOT_INSTALLED});
 * a bundle whose file is gone (the host uninstalls it shortly) shows {@code (deleted)} after the file
 * name. VERSION is the running revision. When the host refused the bytes the file holds now (its
 * {@code .status/<file>} says {@code rolled-back} or {@code failed} for their digest), a line below the
 * row names the refused revision and the reason; the file then holds a jar that does not run.
 *
 * <p><b>Threading:</b> immutable once built; any thread.
 */
final class PluginTable {

    /** The state shown for a jar no bundle was installed from. */
    static final String NOT_INSTALLED = "NOT INSTALLED";

    private static final String NONE = "-";
    private static final String[] HEADER = {"ID", "FILE", "SYMBOLIC NAME", "VERSION", "STATE", "PROVIDES"};

    private final List<Row> rows;

    private PluginTable(List<Row> rows) {
        this.rows = List.copyOf(rows);
    }

    /**
     * One plugin: a bundle installed from the folder, or a jar there that none was installed from.
     *
     * @param rejected the host's refusal of the file's current jar ({@code rejected kv 6.0.0: reason}), or empty
     */
    record Row(String id, String file, String symbolicName, String version, String state, String provides,
            String rejected) {

        /** A row whose file holds no refused jar. */
        Row(String id, String file, String symbolicName, String version, String state, String provides) {
            this(id, file, symbolicName, version, state, provides, "");
        }
    }

    /**
     * The rows for {@code bundles} installed from {@code folder}, and for the jars of {@code folder}
     * no bundle was installed from, ordered by file name.
     */
    static PluginTable of(Bundle[] bundles, DeployFolder folder, List<Path> jars) {
        List<Row> rows = new ArrayList<>();
        Set<Path> installed = new HashSet<>();
        for (Bundle bundle : bundles) {
            folder.fileOf(bundle.getLocation()).ifPresent(file -> {
                installed.add(file);
                boolean exists = Files.exists(folder.dir().resolve(file));
                rows.add(row(bundle, file, exists, exists ? rejected(folder, file) : ""));
            });
        }
        for (Path jar : jars) {
            Path file = folder.dir().relativize(jar);
            if (!installed.contains(file)) {
                rows.add(notInstalled(jar, file, rejected(folder, file)));
            }
        }
        rows.sort(Comparator.comparing(Row::file).thenComparing(Row::id));
        return new PluginTable(rows);
    }

    List<Row> rows() {
        return rows;
    }

    /** Prints the table, or {@code no plugins in <folder>} when there are none. */
    void print(PrintStream out, Path dir) {
        if (rows.isEmpty()) {
            out.println("no plugins in " + dir);
            return;
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (Row row : rows) {
            lines.add(new String[] {row.id(), row.file(), row.symbolicName(), row.version(), row.state(), row.provides()});
        }
        int[] widths = new int[HEADER.length];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        out.println(aligned(lines.get(0), widths));
        for (int r = 0; r < rows.size(); r++) {
            out.println(aligned(lines.get(r + 1), widths));
            if (!rows.get(r).rejected().isEmpty()) {
                out.println(" ".repeat(widths[0] + 4) + rows.get(r).rejected());
            }
        }
    }

    private static String aligned(String[] line, int[] widths) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < line.length; i++) {
            text.append(line[i]);
            if (i < line.length - 1) {
                text.append(" ".repeat(widths[i] - line[i].length() + 2));
            }
        }
        return text.toString();
    }

    /** {@code rejected kv 6.0.0: reason} when the host refused the jar the file holds now, else empty. */
    private static String rejected(DeployFolder folder, Path file) {
        try {
            return folder.refusal(file.toString()).map(status -> "rejected " + status.judged() + ": "
                    + status.reason().orElse("no reason given")).orElse("");
        } catch (DeployException e) {
            return "outcome unknown: " + e.detail();
        }
    }

    private static Row row(Bundle bundle, Path file, boolean fileExists, String rejected) {
        SortedSet<String> handlers = new TreeSet<>();
        SortedSet<String> factories = new TreeSet<>();
        for (ServiceReference<?> service : registeredServices(bundle)) {
            if (providesActorFactory(service)) {
                addNames(service.getProperty(Handler.PROPERTY), handlers);
                addNames(service.getProperty(Factory.PROPERTY), factories);
            }
        }
        return new Row(Long.toString(bundle.getBundleId()),
                file + (fileExists ? "" : " (deleted)"),
                orNone(bundle.getSymbolicName()),
                bundle.getVersion().toString(),
                stateName(bundle.getState()),
                provides(handlers, factories),
                rejected);
    }

    private static Row notInstalled(Path jar, Path file, String rejected) {
        try {
            PluginJar plugin = PluginJar.read(jar, file.toString());
            return new Row(NONE, file.toString(), plugin.symbolicName(), plugin.version(), NOT_INSTALLED, NONE,
                    rejected);
        } catch (DeployException e) {
            return new Row(NONE, file.toString(), NONE, NONE, NOT_INSTALLED, NONE, rejected);
        }
    }

    private static ServiceReference<?>[] registeredServices(Bundle bundle) {
        try {
            ServiceReference<?>[] services = bundle.getRegisteredServices();
            return services == null ? new ServiceReference<?>[0] : services;
        } catch (IllegalStateException e) {
            return new ServiceReference<?>[0]; // uninstalled meanwhile
        }
    }

    private static boolean providesActorFactory(ServiceReference<?> service) {
        return service.getProperty(Constants.OBJECTCLASS) instanceof String[] classes
                && List.of(classes).contains(ActorFactory.class.getName());
    }

    /** Adds the names of a String, String[] or collection property; ignores anything else. */
    private static void addNames(Object property, Set<String> names) {
        if (property instanceof String name) {
            names.add(name);
        } else if (property instanceof String[] array) {
            names.addAll(List.of(array));
        } else if (property instanceof Collection<?> collection) {
            collection.forEach(element -> names.add(String.valueOf(element)));
        }
    }

    private static String provides(SortedSet<String> handlers, SortedSet<String> factories) {
        List<String> parts = new ArrayList<>();
        if (!handlers.isEmpty()) {
            parts.add("handlers " + String.join(", ", handlers));
        }
        if (!factories.isEmpty()) {
            parts.add("factories " + String.join(", ", factories));
        }
        return parts.isEmpty() ? NONE : String.join("; ", parts);
    }

    static String stateName(int state) {
        return switch (state) {
            case Bundle.UNINSTALLED -> "UNINSTALLED";
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            case Bundle.ACTIVE -> "ACTIVE";
            default -> "UNKNOWN(" + state + ")";
        };
    }

    private static String orNone(String text) {
        return text == null || text.isEmpty() ? NONE : text;
    }
}
