package io.troupe.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import org.osgi.framework.Constants;
import org.osgi.framework.Version;

/**
 * The identity of a plugin jar, read from its manifest: Bundle-SymbolicName (without its directives)
 * and Bundle-Version. Reading it is how {@code deploy} and {@code update} refuse a file the host could
 * not install before it reaches the deploy folder.
 *
 * <p><b>Threading:</b> immutable.
 */
record PluginJar(String symbolicName, Version version) {

    /**
     * Reads the manifest of the jar at {@code path}; {@code shown} is how messages name it.
     *
     * @throws DeployException with code {@link DeployException#NOT_A_BUNDLE} if it is not a readable
     *                         jar with a Bundle-SymbolicName and a valid Bundle-Version
     */
    static PluginJar read(Path path, String shown) throws DeployException {
        if (!Files.exists(path)) {
            throw notABundle(shown, "it does not exist");
        }
        if (!Files.isRegularFile(path)) {
            throw notABundle(shown, "it is not a regular file");
        }
        if (!Files.isReadable(path)) {
            throw notABundle(shown, "it cannot be read (permission denied)");
        }
        Manifest manifest;
        try (JarFile jar = new JarFile(path.toFile(), false)) {
            manifest = jar.getManifest();
        } catch (IOException | SecurityException e) {
            throw notABundle(shown, "it is not a readable jar (" + e.getMessage() + ")");
        }
        if (manifest == null) {
            throw notABundle(shown, "the jar has no META-INF/MANIFEST.MF");
        }
        Attributes headers = manifest.getMainAttributes();
        String symbolicName = withoutDirectives(headers.getValue(Constants.BUNDLE_SYMBOLICNAME));
        if (symbolicName.isEmpty()) {
            throw notABundle(shown, "its manifest has no Bundle-SymbolicName");
        }
        String version = headers.getValue(Constants.BUNDLE_VERSION);
        try {
            return new PluginJar(symbolicName, version == null ? Version.emptyVersion : Version.parseVersion(version.strip()));
        } catch (IllegalArgumentException e) {
            throw notABundle(shown, "its Bundle-Version '" + version.strip() + "' is not an OSGi version");
        }
    }

    /** {@code io.troupe.sample.counter 1.0.0}. */
    @Override
    public String toString() {
        return symbolicName + " " + version;
    }

    private static String withoutDirectives(String header) {
        if (header == null) {
            return "";
        }
        int directives = header.indexOf(';');
        return (directives < 0 ? header : header.substring(0, directives)).strip();
    }

    private static DeployException notABundle(String shown, String why) {
        return new DeployException(DeployException.NOT_A_BUNDLE, shown + " is not a plugin bundle: " + why);
    }
}
