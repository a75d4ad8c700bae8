package io.troupe.distribution.plugins;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", symbolicName);
        main.putValue("Bundle-Version", version);
        main.putValue("Bundle-Activator", activator);
        main.putValue("Import-Package", "org.osgi.framework");
        headers.forEach(main::putValue);
        String entry = activator.replace('.', '/') + ".class";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest);
             InputStream in = ActivatorBundle.class.getClassLoader().getResourceAsStream(entry)) {
            if (in == null) {
                throw new IllegalStateException(entry + " is not on the test class path");
            }
            jar.putNextEntry(new JarEntry(entry));
            in.transferTo(jar);
            jar.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Writes {@code jar} as {@code deploy/file}: beside it first, then renamed into place. */
    static Path deployTo(Path deploy, String file, byte[] jar) throws IOException {
        Path part = deploy.resolve("." + file + ".part");
        Files.write(part, jar);
        return Files.move(part, deploy.resolve(file), StandardCopyOption.ATOMIC_MOVE);
    }
}
