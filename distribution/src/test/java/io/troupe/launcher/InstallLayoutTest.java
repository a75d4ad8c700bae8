package io.troupe.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checking an installation's directories, its instance lock, and the console mode property.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class InstallLayoutTest {

    @TempDir
    Path dir;

    @Test
    void namesTheMissingDirectoryOfAnIncompleteInstallation() throws Exception {
        Files.createDirectories(dir.resolve("system"));
        Files.createDirectories(dir.resolve("etc"));

        LauncherException e = assertThrows(LauncherException.class, () -> InstallLayout.open(dir));

        assertEquals("missing deploy directory " + dir.resolve("deploy") + ": the installation is incomplete",
                e.getMessage());
    }

    @Test
    void createsLogAndDataWhenTheyAreMissing() throws Exception {
        InstallLayout layout = TestInstall.layout(dir.resolve("with space"), "");

        assertTrue(Files.isDirectory(layout.log()));
        assertTrue(Files.isDirectory(layout.data()));
        assertEquals(dir.resolve("with space/data/cache"), layout.cache());
    }

    @Test
    void refusesAnInstallationDirectoryThatDoesNotExist() {
        LauncherException e = assertThrows(LauncherException.class, () -> InstallLayout.open(dir.resolve("nope")));

        assertEquals("missing installation directory " + dir.resolve("nope") + ": the installation is incomplete",
                e.getMessage());
    }

    @Test
    void refusesASecondInstanceOnTheSameInstallation() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "");
        InstanceLock first = InstanceLock.acquire(layout);

        LauncherException e = assertThrows(LauncherException.class, () -> InstanceLock.acquire(layout));

        assertTrue(first.isHeld());
        assertEquals("Troupe is already running from " + layout.home() + " (" + layout.data().resolve("troupe.lock")
                + " is locked); stop it first, or run another copy from another directory", e.getMessage());
    }

    @Test
    void unknownConsoleModesAreAUsageError() {
        LauncherException e = assertThrows(LauncherException.class, () -> ConsoleMode.of("gui", true));

        assertEquals("troupe.console must be tty or script, was 'gui'", e.getMessage());
        assertEquals(LauncherException.USAGE, e.exitStatus());
    }
}
