package io.troupe.sample.counter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;

/**
 * Checks the manifest bnd wrote for this build: both counter modules compile these tests, and each
 * must produce the same Bundle-SymbolicName at its own version, or updating one into the other
 * would install a second plugin instead of replacing the first. The build passes the manifest's
 * path and the expected version as system properties (see the modules' surefire configuration).
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class BuiltBundleTest {

    @Test
    void theBundleIsTheCounterAtTheVersionOfItsModule() throws Exception {
        String manifestPath = System.getProperty("counter.manifest");
        String expectedVersion = System.getProperty("counter.expected.version");
        assumeTrue(manifestPath != null && expectedVersion != null, "run by Maven only");

        Attributes headers;
        try (InputStream in = Files.newInputStream(Path.of(manifestPath))) {
            headers = new Manifest(in).getMainAttributes();
        }

        assertEquals("io.troupe.sample.counter", headers.getValue("Bundle-SymbolicName"));
        assertEquals(expectedVersion, headers.getValue("Bundle-Version"));
    }
}
