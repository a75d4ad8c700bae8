package io.troupe.client.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The identity of a plugin jar, read from its manifest: Bundle-SymbolicName (without its directives)
 * and Bundle-Version, normalised as OSGi prints versions ({@code 2} is {@code 2.0.0}). Reading it is
 * how a deploy refuses a file the host could not install before it reaches the deploy folder. It
 * needs no OSGi classes, so that {@code troupe-client} reads jars without a framework.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param symbolicName the Bundle-SymbolicName, never empty
 * @param version      the Bundle-Version as {@code major.minor.micro[.qualifier]}; {@code 0.0.0} when absent
 */
public record PluginJar(String symbolicName, String version) {

    /** OSGi's version syntax: major[.minor[.micro[.qualifier]]], the qualifier of letters, digits, _ and -. */
    private static final Pattern VERSION = Pattern.compile(
            "(\\d{1,9})(?:\\.(\\d{1,9})(?:\\.(\\d{1,9})(?:\\.([A-Za-z0-9_-]+))?)?)?");

    /**
     * Reads the manifest of the jar at {@code path}; {@code shown} is how messages name it.
     *
     * @throws DeployException with code {@link DeployException#NOT_A_BUNDLE} if it is not a readable
     *                         jar with a Bundle-SymbolicName and a valid Bundle-Version
     */
    public static PluginJar read(Path path, String shown) throws DeployException {
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
        String symbolicName = withoutDirectives(headers.getValue("Bundle-SymbolicName"));
        if (symbolicName.isEmpty()) {
            throw notABundle(shown, "its manifest has no Bundle-SymbolicName");
        }
        String version = headers.getValue("Bundle-Version");
        if (version == null || version.isBlank()) {
            return new PluginJar(symbolicName, "0.0.0");
        }
        String normal = normalVersion(version.strip());
        if (normal == null) {
            throw notABundle(shown, "its Bundle-Version '" + version.strip() + "' is not an OSGi version");
        }
        return new PluginJar(symbolicName, normal);
    }

    /** {@code io.troupe.sample.counter 1.0.0}. */
    @Override
    public String toString() {
        return symbolicName + " " + version;
    }

    /** The version as OSGi prints it, or null when {@code text} is not one. */
    static String normalVersion(String text) {
        Matcher matcher = VERSION.matcher(text);
        if (!matcher.matches()) {
            return null;
        }
        String normal = Integer.parseInt(matcher.group(1)) + "." + number(matcher.group(2)) + "." + number(matcher.group(3));
        return matcher.group(4) == null ? normal : normal + "." + matcher.group(4);
    }

    private static int number(String digits) {
        return digits == null ? 0 : Integer.parseInt(digits);
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
