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
 * Builds the bundle of a misbehaving test plugin around {@link MisbehavingActivator} (its class file, taken
 * from the test class path) and drops it into a deploy folder the way an operator's tool would: written
 * beside, then renamed into place.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param symbolicName  the bundle's symbolic name
 * @param version       its version
 * @param misbehaviour  {@code block}, {@code spin}, {@code exit} or {@code none} (see {@link MisbehavingActivator})
 * @param leakedThread  the name of a thread its start leaves running, or {@code null} for none
 */
public record MisbehavingPlugin(String symbolicName, String version, String misbehaviour, String leakedThread) {

    /**
     * The activator, by name only: the tests' class path lacks the OSGi framework API it implements, so the
     * class is never loaded here, only copied.
     */
    private static final String ACTIVATOR = "io.troupe.distribution.plugins.MisbehavingActivator";

    /** The bundle's bytes. */
    public byte[] jar() {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", symbolicName);
        main.putValue("Bundle-Version", version);
        main.putValue("Bundle-Activator", ACTIVATOR);
        main.putValue("Import-Package", "org.osgi.framework");
        main.putValue("Misbehaviour", misbehaviour);
        if (leakedThread != null) {
            main.putValue("Leaked-Thread", leakedThread);
        }
        String entry = ACTIVATOR.replace('.', '/') + ".class";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest);
             InputStream in = MisbehavingPlugin.class.getClassLoader().getResourceAsStream(entry)) {
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

    /** Writes the bundle as {@code deploy/file}: beside it first, then renamed into place. */
    public Path deployTo(Path deploy, String file) throws IOException {
        Path part = deploy.resolve("." + file + ".part");
        Files.write(part, jar());
        return Files.move(part, deploy.resolve(file), StandardCopyOption.ATOMIC_MOVE);
    }
}
