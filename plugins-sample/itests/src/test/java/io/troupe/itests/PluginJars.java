package io.troupe.itests;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;

import io.troupe.itests.plugins.FailingActivator;
import io.troupe.itests.plugins.GatedActivator;
import io.troupe.itests.plugins.HoldingActivator;
import io.troupe.itests.plugins.HoldingActor;
import io.troupe.itests.plugins.LoggingActivator;
import io.troupe.itests.plugins.StateRefusingActivator;
import io.troupe.itests.plugins.StateRefusingActor;
import io.troupe.itests.plugins.TreeActivator;
import io.troupe.itests.plugins.TreeBranch;
import io.troupe.itests.plugins.TreeEphemeral;
import io.troupe.itests.plugins.WatchActivator;
import io.troupe.itests.plugins.WatchRoot;
import io.troupe.itests.plugins.WatchWorker;
import io.troupe.itests.plugins.TreeLeaf;
import io.troupe.itests.plugins.TreeNode;
import io.troupe.itests.plugins.TreeRoot;
import io.troupe.itests.plugins.TreeTick;

/**
 * The plugin jars the hot deployment tests drop into the deploy folder: the counter sample as the
 * build made it (1.0.0 and 2.0.0), and bundles assembled here, with {@code java.util.jar}, from those
 * and from the class files of {@link io.troupe.itests.plugins}.
 *
 * <p><b>Threading:</b> immutable; any thread. Runs inside the framework.
 */
final class PluginJars {

    /** The counter's Bundle-SymbolicName, in every version and variant. */
    static final String COUNTER = "io.troupe.sample.counter";
    /** The Bundle-SymbolicName of the holding plugin. */
    static final String HOLDING = "io.troupe.itests.holding";
    /** The Bundle-SymbolicName of the tree plugin. */
    static final String TREE = "io.troupe.itests.tree";
    /** The Bundle-SymbolicName of the watch plugin. */
    static final String WATCH = "io.troupe.itests.watch";
    /** The Bundle-SymbolicName of the gated plugin. */
    static final String GATED = "io.troupe.itests.gated";
    /** The version of the broken counter variants: newer than both good ones. */
    static final String BROKEN_VERSION = "3.0.0";

    private static final String PLUGIN_IMPORTS = "io.troupe.api;version=\"[1.0,2)\","
            + "org.osgi.framework;version=\"[1.10,2)\"";

    private final Path bundles;

    private PluginJars(Path bundles) {
        this.bundles = bundles;
    }

    /** Reads the jars from the directory the build copied the bundles to. */
    static PluginJars of(BundleContext context) {
        String dir = context.getProperty(TroupeFramework.BUNDLES_PROPERTY);
        if (dir == null) {
            throw new AssertionError("framework property " + TroupeFramework.BUNDLES_PROPERTY + " is not set");
        }
        return new PluginJars(Path.of(dir));
    }

    /** The counter sample as built, at {@code 1.0.0} or {@code 2.0.0}. */
    byte[] counter(String version) throws IOException {
        switch (version) {
            case "1.0.0":
                return Files.readAllBytes(bundles.resolve("troupe-sample-counter.jar"));
            case "2.0.0":
                return Files.readAllBytes(bundles.resolve("troupe-sample-counter-v2.jar"));
            default:
                throw new IllegalArgumentException("the build makes the counter at 1.0.0 and 2.0.0, not " + version);
        }
    }

    /**
     * The counter 2.0.0 relabelled {@value #BROKEN_VERSION}, with a Bundle-Activator that throws: it
     * installs and resolves, and fails in {@code start()}.
     */
    byte[] counterThatFailsToStart() throws IOException {
        JarContent jar = JarContent.read(counter("2.0.0"));
        jar.header(Constants.BUNDLE_VERSION, BROKEN_VERSION);
        jar.header(Constants.BUNDLE_ACTIVATOR, FailingActivator.class.getName());
        jar.addClass(FailingActivator.class);
        return jar.toBytes();
    }

    /**
     * A counter {@value #BROKEN_VERSION} that starts and registers a handler for the counter's names
     * through its activator, whose actors throw from {@code importState}.
     */
    byte[] counterThatRefusesState() throws IOException {
        JarContent jar = JarContent.bundle(COUNTER, BROKEN_VERSION, StateRefusingActivator.class);
        jar.addClass(StateRefusingActor.class);
        return jar.toBytes();
    }

    /** A plugin whose {@code hold.wait} blocks its actor until the bundle stops. */
    byte[] holdingPlugin() throws IOException {
        JarContent jar = JarContent.bundle(HOLDING, "1.0.0", HoldingActivator.class);
        jar.addClass(HoldingActor.class);
        return jar.toBytes();
    }

    /**
     * The tree plugin ({@link TreeActivator}) at {@code version}: the same classes in every version,
     * so that only the Bundle-Version tells two revisions apart.
     */
    byte[] treePlugin(String version) throws IOException {
        JarContent jar = JarContent.bundle(TREE, version, TreeActivator.class);
        jar.addClass(TreeNode.class);
        jar.addClass(TreeRoot.class);
        try { // the anonymous factory class of TreeRoot.preStart
            jar.addClass(Class.forName(TreeRoot.class.getName() + "$1", false, TreeRoot.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            throw new IOException("the build did not make " + TreeRoot.class.getName() + "$1", e);
        }
        jar.addClass(TreeBranch.class);
        jar.addClass(TreeLeaf.class);
        jar.addClass(TreeTick.class);
        jar.addClass(TreeEphemeral.class);
        return jar.toBytes();
    }

    /** The watch plugin ({@link WatchActivator}) at {@code version}: the same classes in every version. */
    byte[] watchPlugin(String version) throws IOException {
        JarContent jar = JarContent.bundle(WATCH, version, WatchActivator.class);
        jar.addClass(WatchRoot.class);
        jar.addClass(WatchWorker.class);
        return jar.toBytes();
    }

    /** A plugin at 1.0.0 whose start waits for its gate ({@link GatedActivator}). */
    byte[] gatedPlugin() throws IOException {
        return JarContent.bundle(GATED, "1.0.0", GatedActivator.class).toBytes();
    }

    /** The gated plugin relabelled {@value #BROKEN_VERSION}, with an activator that throws. */
    byte[] gatedThatFailsToStart() throws IOException {
        return JarContent.bundle(GATED, BROKEN_VERSION, FailingActivator.class).toBytes();
    }

    /**
     * A plugin whose actors log through slf4j-api ({@link LoggingActivator}), serving {@code handler}
     * and importing {@code org.slf4j} at {@code slf4jRange}, for example {@code [1.7,2)}.
     */
    static byte[] loggingPlugin(String symbolicName, String handler, String slf4jRange) throws IOException {
        JarContent jar = JarContent.bundle(symbolicName, "1.0.0", LoggingActivator.class);
        jar.header(Constants.IMPORT_PACKAGE, PLUGIN_IMPORTS + ",io.troupe.api.log;version=\"[1.0,2)\""
                + ",org.slf4j;version=\"" + slf4jRange + "\"");
        jar.header(LoggingActivator.HANDLER_HEADER, handler);
        return jar.toBytes();
    }

    /**
     * The logging plugin ({@link LoggingActivator}) serving {@code handler}, limited by its manifest to
     * {@code tenants} (a {@code Troupe-Tenants} header).
     */
    static byte[] scopedPlugin(String symbolicName, String handler, String tenants) throws IOException {
        JarContent jar = JarContent.bundle(symbolicName, "1.0.0", LoggingActivator.class);
        jar.header(Constants.IMPORT_PACKAGE, PLUGIN_IMPORTS + ",io.troupe.api.log;version=\"[1.0,2)\""
                + ",org.slf4j;version=\"[1.7,3)\"");
        jar.header(LoggingActivator.HANDLER_HEADER, handler);
        jar.header("Troupe-Tenants", tenants);
        return jar.toBytes();
    }

    /** A jar being assembled: a manifest and entries in order. Confined to one thread. */
    private static final class JarContent {

        private final Manifest manifest;
        private final Map<String, byte[]> entries = new LinkedHashMap<>();

        private JarContent(Manifest manifest) {
            this.manifest = manifest;
        }

        /** The manifest and entries of an existing jar. */
        static JarContent read(byte[] jar) throws IOException {
            try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
                Manifest manifest = in.getManifest();
                if (manifest == null) {
                    throw new IOException("the jar has no manifest");
                }
                JarContent content = new JarContent(manifest);
                for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
                    if (entry.getName().equalsIgnoreCase("META-INF/")
                            || entry.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                        continue; // JarOutputStream writes them
                    }
                    content.entries.put(entry.getName(), entry.isDirectory() ? null : in.readAllBytes());
                }
                return content;
            }
        }

        /** A new bundle with an activator, importing the Troupe API and the OSGi framework API. */
        static JarContent bundle(String symbolicName, String version, Class<?> activator) throws IOException {
            Manifest manifest = new Manifest();
            Attributes main = manifest.getMainAttributes();
            main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
            main.putValue(Constants.BUNDLE_MANIFESTVERSION, "2");
            main.putValue(Constants.BUNDLE_SYMBOLICNAME, symbolicName);
            main.putValue(Constants.BUNDLE_VERSION, version);
            main.putValue(Constants.IMPORT_PACKAGE, PLUGIN_IMPORTS);
            main.putValue(Constants.BUNDLE_ACTIVATOR, activator.getName());
            JarContent content = new JarContent(manifest);
            content.addClass(activator);
            return content;
        }

        void header(String name, String value) {
            manifest.getMainAttributes().putValue(name, value);
        }

        /** Copies the class file of {@code type}, as the probe holds it, into the jar. */
        void addClass(Class<?> type) throws IOException {
            String name = type.getName().replace('.', '/') + ".class";
            try (InputStream in = type.getClassLoader().getResourceAsStream(name)) {
                if (in == null) {
                    throw new IOException("no class file " + name + " beside " + type);
                }
                entries.put(name, in.readAllBytes());
            }
        }

        byte[] toBytes() throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (JarOutputStream out = new JarOutputStream(bytes, manifest)) {
                for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                    out.putNextEntry(new JarEntry(entry.getKey()));
                    if (entry.getValue() != null) {
                        out.write(entry.getValue());
                    }
                    out.closeEntry();
                }
            }
            return bytes.toByteArray();
        }
    }
}
