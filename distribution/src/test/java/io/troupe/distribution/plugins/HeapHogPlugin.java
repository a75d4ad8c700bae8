package io.troupe.distribution.plugins;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Builds the bundle of the heap-hog test plugin around {@link HeapHogActivator} (its class file, taken from the
 * test class path: the tests' class path lacks the OSGi API it implements, so it is only copied, never loaded)
 * and drops it into a deploy folder: written beside, then renamed into place.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class HeapHogPlugin {

    private static final String ACTIVATOR = "io.troupe.distribution.plugins.HeapHogActivator";

    private HeapHogPlugin() {
    }

    /** Writes the bundle as {@code deploy/file}. */
    public static Path deployTo(Path deploy, String file) throws IOException {
        Path part = deploy.resolve("." + file + ".part");
        Files.write(part, jar());
        return Files.move(part, deploy.resolve(file), StandardCopyOption.ATOMIC_MOVE);
    }

    private static byte[] jar() {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", "test.heap.hog");
        main.putValue("Bundle-Version", "1.0.0");
        main.putValue("Bundle-Activator", ACTIVATOR);
        main.putValue("Import-Package", "org.osgi.framework");
        String entry = ACTIVATOR.replace('.', '/') + ".class";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest);
             InputStream in = HeapHogPlugin.class.getClassLoader().getResourceAsStream(entry)) {
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
}
