package io.troupe.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Builds installations and bundle jars on disk for the launcher's tests.
 *
 * <p><b>Threading:</b> use from one test thread.
 */
final class TestInstall {

    /** Every bundle the launcher requires in system/, as symbolic name to file name. */
    static final Map<String, String> SYSTEM = Map.ofEntries(
            Map.entry("org.apache.felix.log", "org.apache.felix.log-1.3.0.jar"),
            Map.entry("org.osgi.util.function", "org.osgi.util.function-1.2.0.jar"),
            Map.entry("org.osgi.util.promise", "org.osgi.util.promise-1.3.0.jar"),
            Map.entry("org.osgi.service.component", "org.osgi.service.component-1.5.1.jar"),
            Map.entry("org.apache.felix.configadmin", "org.apache.felix.configadmin-1.9.26.jar"),
            Map.entry("org.apache.felix.metatype", "org.apache.felix.metatype-1.2.4.jar"),
            Map.entry("org.apache.felix.scr", "org.apache.felix.scr-2.2.18.jar"),
            Map.entry("org.apache.felix.fileinstall", "org.apache.felix.fileinstall-3.7.4.jar"),
            Map.entry("org.apache.felix.gogo.runtime", "org.apache.felix.gogo.runtime-1.1.6.jar"),
            Map.entry("org.apache.felix.gogo.command", "org.apache.felix.gogo.command-1.1.2.jar"),
            Map.entry("io.troupe.api", "troupe-api-0.1.0.jar"),
            Map.entry("io.troupe.host", "troupe-host-0.1.0.jar"),
            Map.entry("io.troupe.protocol", "troupe-protocol-0.1.0.jar"),
            Map.entry("io.troupe.shell", "troupe-shell-0.1.0.jar"),
            Map.entry("io.troupe.server", "troupe-server-0.1.0.jar"),
            Map.entry("org.jline", "jline-3.30.6.jar"),
            Map.entry("org.apache.felix.gogo.jline", "org.apache.felix.gogo.jline-1.1.8.jar"));

    private TestInstall() {
    }

    /** An installation with the given config.properties and empty system/ and deploy/. */
    static InstallLayout layout(Path home, String config) throws IOException, LauncherException {
        Files.createDirectories(home.resolve("system"));
        Files.createDirectories(home.resolve("deploy"));
        Files.createDirectories(home.resolve("etc"));
        Files.writeString(home.resolve("etc/config.properties"), config, StandardCharsets.UTF_8);
        return InstallLayout.open(home);
    }

    /** Writes placeholder bundles (manifest only) for every required system bundle. */
    static void systemBundles(Path system) throws IOException {
        for (Map.Entry<String, String> entry : SYSTEM.entrySet()) {
            bundle(system.resolve(entry.getValue()), entry.getKey(), "1.0.0");
        }
    }

    /** Writes a jar whose manifest declares a bundle with no code and no imports. */
    static Path bundle(Path jar, String symbolicName, String version) throws IOException {
        Manifest manifest = new Manifest();
        Attributes headers = manifest.getMainAttributes();
        headers.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        headers.putValue("Bundle-ManifestVersion", "2");
        headers.putValue("Bundle-SymbolicName", symbolicName);
        headers.putValue("Bundle-Version", version);
        try (OutputStream out = Files.newOutputStream(jar)) {
            new JarOutputStream(out, manifest).finish();
        }
        return jar;
    }

    /** Writes a jar with a manifest that is not a bundle's. */
    static Path plainJar(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream out = Files.newOutputStream(jar)) {
            new JarOutputStream(out, manifest).finish();
        }
        return jar;
    }
}
