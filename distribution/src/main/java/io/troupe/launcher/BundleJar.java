package io.troupe.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.Version;

/**
 * A bundle jar on disk, identified by the headers of its manifest.
 *
 * <p><b>Threading:</b> immutable; {@link #installOrUpdate} must be called by the thread that owns the
 * framework's lifecycle.
 *
 * @param path          the jar
 * @param symbolicName  {@code Bundle-SymbolicName} without its directives
 * @param version       {@code Bundle-Version}, {@code 0.0.0} when absent
 * @param fragment      whether it has a {@code Fragment-Host} (fragments are never started)
 */
record BundleJar(Path path, String symbolicName, Version version, boolean fragment) {

    /**
     * Reads the manifest of {@code path}.
     *
     * @throws LauncherException if the file is unreadable, not a jar, or not an OSGi bundle
     */
    static BundleJar read(Path path) throws LauncherException {
        Manifest manifest;
        try (JarFile jar = new JarFile(path.toFile())) {
            manifest = jar.getManifest();
        } catch (IOException | SecurityException e) {
            throw new LauncherException("not a readable jar (" + LauncherException.describe(e) + ")", e);
        }
        if (manifest == null) {
            throw new LauncherException("not an OSGi bundle (the jar has no META-INF/MANIFEST.MF)");
        }
        Attributes headers = manifest.getMainAttributes();
        String symbolicName = headers.getValue(Constants.BUNDLE_SYMBOLICNAME);
        if (symbolicName == null || symbolicName.isBlank()) {
            throw new LauncherException("not an OSGi bundle (its manifest has no Bundle-SymbolicName)");
        }
        Version version;
        try {
            String text = headers.getValue(Constants.BUNDLE_VERSION);
            version = text == null ? Version.emptyVersion : Version.parseVersion(text.strip());
        } catch (IllegalArgumentException e) {
            throw new LauncherException("invalid Bundle-Version in its manifest: " + e.getMessage());
        }
        int directives = symbolicName.indexOf(';');
        String name = (directives < 0 ? symbolicName : symbolicName.substring(0, directives)).strip();
        return new BundleJar(path, name, version, headers.getValue(Constants.FRAGMENT_HOST) != null);
    }

    /** The bundle location: the jar's {@code file:} URI. */
    String location() {
        return path.toUri().toString();
    }

    /**
     * Installs the jar, or, when a bundle with its location is already installed (a kept cache) and
     * the jar is newer, updates that bundle. The framework copies the jar into its cache.
     */
    Bundle installOrUpdate(BundleContext context) throws BundleException, IOException {
        Bundle existing = context.getBundle(location());
        if (existing == null) {
            try (InputStream in = Files.newInputStream(path)) {
                return context.installBundle(location(), in);
            }
        }
        if (Files.getLastModifiedTime(path).toMillis() > existing.getLastModified()) {
            try (InputStream in = Files.newInputStream(path)) {
                existing.update(in);
            }
        }
        return existing;
    }

    @Override
    public String toString() {
        return symbolicName + " " + version + " (" + path.getFileName() + ")";
    }
}
