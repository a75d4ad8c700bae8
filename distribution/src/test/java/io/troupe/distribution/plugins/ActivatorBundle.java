package io.troupe.distribution.plugins;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The bundle of a test plugin that is one activator class: its class file, taken from the test class path (the
 * tests' class path lacks the OSGi framework API it implements, so the class is only copied, never loaded), under
 * a manifest naming it {@code Bundle-Activator} and importing {@code org.osgi.framework}; and its drop into a
 * deploy folder the way an operator's tool would: written beside, then renamed into place.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class ActivatorBundle {

    private ActivatorBundle() {
    }

    /**
     * The bundle's bytes.
     *
     * @param activator    the activator's binary class name
     * @param symbolicName {@code Bundle-SymbolicName}
     * @param version      {@code Bundle-Version}
     * @param headers      further main attributes of the manifest (read by the activator)
     * @throws IllegalStateException when the activator's class file is not on the test class path
     */
    static byte[] jar(String activator, String symbolicName, String version, Map<String, String> headers) {
        return jar(activator, List.of(), symbolicName, version, headers);
    }

    /**
     * The bundle's bytes, with {@code classes} packed beside the activator (their class files, copied, never
     * loaded here). {@code headers} may give an {@code Import-Package} of its own, which replaces the activator's
     * {@code org.osgi.framework}.
     */
    static byte[] jar(String activator, List<String> classes, String symbolicName, String version,
            Map<String, String> headers) {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", symbolicName);
        main.putValue("Bundle-Version", version);
        main.putValue("Bundle-Activator", activator);
        main.putValue("Import-Package", "org.osgi.framework");
        headers.forEach(main::putValue);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
            List<String> packed = new ArrayList<>(List.of(activator));
            packed.addAll(classes);
            for (String type : packed) {
                pack(jar, type.replace('.', '/') + ".class");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void pack(JarOutputStream jar, String entry) throws IOException {
        try (InputStream in = ActivatorBundle.class.getClassLoader().getResourceAsStream(entry)) {
            if (in == null) {
                throw new IllegalStateException(entry + " is not on the test class path");
            }
            jar.putNextEntry(new JarEntry(entry));
            in.transferTo(jar);
            jar.closeEntry();
        }
    }

    /** Writes {@code jar} as {@code deploy/file}: beside it first, then renamed into place. */
    static Path deployTo(Path deploy, String file, byte[] jar) throws IOException {
        Path part = deploy.resolve("." + file + ".part");
        Files.write(part, jar);
        return Files.move(part, deploy.resolve(file), StandardCopyOption.ATOMIC_MOVE);
    }
}
