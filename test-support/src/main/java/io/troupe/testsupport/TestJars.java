package io.troupe.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Writes small jars for tests: bundles with a given identity (Bundle-SymbolicName, Bundle-Version and
 * one entry {@code content.txt} telling copies apart), and files that are not bundles. The jars have
 * no classes: they are for code that reads manifests and copies files (the deploy folder), not for
 * installing into a framework.
 *
 * <p><b>Threading:</b> stateless.
 */
public final class TestJars {

    private TestJars() {
    }

    /** A bundle jar {@code symbolicName} at {@code version} with one entry saying {@code content}. */
    public static Path bundle(Path path, String symbolicName, String version, String content) throws IOException {
        Manifest manifest = new Manifest();
        Attributes headers = manifest.getMainAttributes();
        headers.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        headers.putValue("Bundle-ManifestVersion", "2");
        if (symbolicName != null) {
            headers.putValue("Bundle-SymbolicName", symbolicName);
        }
        if (version != null) {
            headers.putValue("Bundle-Version", version);
        }
        return jar(path, manifest, content);
    }

    /** A bundle jar {@code symbolicName} at {@code version}. */
    public static Path bundle(Path path, String symbolicName, String version) throws IOException {
        return bundle(path, symbolicName, version, symbolicName + " " + version);
    }

    /** A jar with no manifest. */
    public static Path withoutManifest(Path path) throws IOException {
        return jar(path, null, "no manifest");
    }

    /** What the entry of a jar written by {@link #bundle} says. */
    public static String content(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return new String(file.getInputStream(file.getEntry("content.txt")).readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Path jar(Path path, Manifest manifest, String content) throws IOException {
        Files.createDirectories(path.toAbsolutePath().getParent());
        try (OutputStream file = Files.newOutputStream(path);
             JarOutputStream jar = manifest == null ? new JarOutputStream(file) : new JarOutputStream(file, manifest)) {
            jar.putNextEntry(new JarEntry("content.txt"));
            jar.write(content.getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
        return path;
    }
}
