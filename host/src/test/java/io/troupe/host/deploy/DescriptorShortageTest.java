package io.troupe.host.deploy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.zip.ZipException;

import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleException;

/**
 * Which failures make the deployer try a jar again at the next scan: only those that say the process ran out
 * of file descriptors, as the JDK reports EMFILE and ENFILE, however deep they are wrapped.
 */
class DescriptorShortageTest {

    @Test
    void emfileAndEnfileAsTheJdkReportsThemAreShortages() {
        assertTrue(DeployWatcher.shortOfDescriptors(
                new FileSystemException("/opt/troupe/deploy/a.jar", null, "Too many open files")));
        assertTrue(DeployWatcher.shortOfDescriptors(
                new FileSystemException("/opt/troupe/deploy/a.jar", null, "Too many open files in system")));
        assertTrue(DeployWatcher.shortOfDescriptors(new BundleException("Unable to cache bundle",
                new IOException("/opt/troupe/felix-cache/bundle9/version0.0/revision.location (Too many open files)"))));
    }

    @Test
    void aBadOrMissingJarIsNotAShortage() {
        assertFalse(DeployWatcher.shortOfDescriptors(new NoSuchFileException("/opt/troupe/deploy/a.jar")));
        assertFalse(DeployWatcher.shortOfDescriptors(new ZipException("zip END header not found")));
        assertFalse(DeployWatcher.shortOfDescriptors(new IOException((String) null)));
    }
}
