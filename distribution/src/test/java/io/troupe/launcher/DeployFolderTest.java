package io.troupe.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.startlevel.BundleStartLevel;

/**
 * Deploys into a real, empty Felix framework.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread, which owns the framework's lifecycle.
 */
class DeployFolderTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final LauncherLog log = new LauncherLog(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
    private InstallLayout layout;
    private Framework framework;

    @BeforeEach
    void startFramework() throws Exception {
        layout = TestInstall.layout(dir.resolve("troupe home"), "");
        framework = ServiceLoader.load(FrameworkFactory.class).findFirst().orElseThrow().newFramework(Map.of(
                Constants.FRAMEWORK_STORAGE, layout.cache().toString(),
                Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT,
                Constants.FRAMEWORK_BEGINNING_STARTLEVEL, "100",
                "felix.startlevel.bundle", "80"));
        framework.start();
    }

    @AfterEach
    void stopFramework() throws Exception {
        framework.stop();
        framework.waitForStop(10_000);
    }

    @Test
    void startsEveryGoodPluginAndNamesEachBadOneWithItsReason() throws Exception {
        TestInstall.bundle(layout.deploy().resolve("a-good.jar"), "com.example.good", "1.0.0");
        Files.write(layout.deploy().resolve("b-corrupt.jar"), "this is not a zip file".getBytes(StandardCharsets.UTF_8));
        TestInstall.plainJar(layout.deploy().resolve("c-plain.jar"));
        Files.writeString(layout.deploy().resolve("notes.txt"), "ignored");
        TestInstall.bundle(layout.deploy().resolve("d-good.jar"), "com.example.other", "2.0.0");

        DeployFolder.Outcome outcome = new DeployFolder(layout, log).deployAll(framework.getBundleContext());

        assertEquals(List.of("com.example.good", "com.example.other"),
                outcome.started().stream().map(Bundle::getSymbolicName).toList());
        for (Bundle bundle : outcome.started()) {
            assertEquals(Bundle.ACTIVE, bundle.getState());
            assertEquals(DeployFolder.START_LEVEL, bundle.adapt(BundleStartLevel.class).getStartLevel());
        }
        assertEquals(List.of("b-corrupt.jar", "c-plain.jar"),
                outcome.failed().stream().map(path -> path.getFileName().toString()).toList());
        String err = errBytes.toString(StandardCharsets.UTF_8);
        assertTrue(err.contains("troupe: error: plugin deploy/b-corrupt.jar was not started: not a readable jar ("), err);
        assertTrue(err.contains("troupe: error: plugin deploy/c-plain.jar was not started:"
                + " not an OSGi bundle (its manifest has no Bundle-SymbolicName)"), err);
    }

    @Test
    void reportsAPluginThatDoesNotResolveAndKeepsItInstalled() throws Exception {
        Path jar = TestInstall.bundle(layout.deploy().resolve("needy.jar"), "com.example.needy", "1.0.0");
        withImport(jar, "com.example.missing");

        DeployFolder.Outcome outcome = new DeployFolder(layout, log).deployAll(framework.getBundleContext());

        assertEquals(List.of(jar), outcome.failed());
        String err = errBytes.toString(StandardCharsets.UTF_8);
        assertTrue(err.contains("plugin deploy/needy.jar was not started: installed as com.example.needy 1.0.0"
                + " but not started: Unable to resolve"), err);
        assertTrue(err.contains("com.example.missing"), err);
        Bundle needy = framework.getBundleContext().getBundle(jar.toUri().toString());
        assertEquals(Bundle.INSTALLED, needy.getState());
        assertFalse(needy.adapt(BundleStartLevel.class).isPersistentlyStarted(), "still marked to start");
    }

    private static void withImport(Path jar, String pkg) throws Exception {
        Manifest manifest;
        try (JarFile file = new JarFile(jar.toFile())) {
            manifest = file.getManifest();
        }
        manifest.getMainAttributes().putValue("Import-Package", pkg);
        try (OutputStream out = Files.newOutputStream(jar)) {
            new JarOutputStream(out, manifest).finish();
        }
    }
}
