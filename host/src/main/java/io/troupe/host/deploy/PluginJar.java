package io.troupe.host.deploy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * What a jar in the deploy folder claims to be, read without installing it: its
 * Bundle-SymbolicName and Bundle-Version.
 *
 * @param symbolicName the symbolic name without directives
 * @param version      the version, {@code 0.0.0} when absent
 */
record PluginJar(String symbolicName, String version) {

    /**
     * Reads the manifest of {@code path}.
     *
     * @throws IOException with a message fit for the log when the file is not a readable jar or not
     *                     an OSGi bundle
     */
    static PluginJar read(Path path) throws IOException {
        Manifest manifest;
        try (JarFile jar = new JarFile(path.toFile(), true)) {
            manifest = jar.getManifest();
        } catch (IOException | SecurityException e) {
            throw new IOException("not a readable jar (" + e.getMessage() + ")", e);
        }
        if (manifest == null) {
            throw new IOException("the jar has no META-INF/MANIFEST.MF");
        }
        Attributes main = manifest.getMainAttributes();
        String name = main.getValue("Bundle-SymbolicName");
        if (name == null || name.isBlank()) {
            throw new IOException("not an OSGi bundle: the manifest has no Bundle-SymbolicName");
        }
        int directives = name.indexOf(';');
        String version = main.getValue("Bundle-Version");
        return new PluginJar((directives < 0 ? name : name.substring(0, directives)).strip(),
                version == null ? "0.0.0" : version.strip());
    }
}
