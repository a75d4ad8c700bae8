package io.troupe.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading etc/config.properties: substitution, launcher-owned properties, clear errors.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class FrameworkConfigTest {

    @TempDir
    Path dir;

    @Test
    void replacesReferencesToTroupeHomeToOtherPropertiesAndToSystemProperties() throws Exception {
        InstallLayout layout = TestInstall.layout(dir.resolve("my troupe"), String.join("\n",
                "gosh.home=${troupe.home}",
                "a=${b}/x",
                "b=${user.name}",
                "price=$$5",
                ""));

        Map<String, String> properties = FrameworkConfig.load(layout, ConsoleMode.SCRIPT,
                Map.of("user.name", "alice")::get).properties();

        assertEquals(layout.home().toString(), properties.get("gosh.home"));
        assertEquals("alice/x", properties.get("a"));
        assertEquals("$5", properties.get("price"));
    }

    @Test
    void setsTheLauncherOwnedPropertiesWhateverTheFileSays() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "org.osgi.framework.storage=/elsewhere\ntroupe.console=nonsense\n");

        Map<String, String> properties = FrameworkConfig.load(layout, ConsoleMode.TTY, name -> null).properties();

        assertEquals(layout.home().resolve("data/cache").toString(), properties.get("org.osgi.framework.storage"));
        assertEquals(layout.home().toString(), properties.get("troupe.home"));
        assertEquals(layout.home().resolve("deploy").toString(), properties.get("troupe.deploy.dir"));
        assertEquals("tty", properties.get("troupe.console"));
        assertEquals("100", properties.get("org.osgi.framework.startlevel.beginning"));
    }

    @Test
    void keepsJettyFromListeningUntilTheOpsBundleConfiguresItWhateverTheFileSays() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "org.apache.felix.http.require.config=false\n");

        Map<String, String> properties = FrameworkConfig.load(layout, ConsoleMode.SCRIPT, name -> null).properties();

        assertEquals("true", properties.get("org.apache.felix.http.require.config"));
    }

    @Test
    void aClusterConfigurationInEtcMakesAClusterNodeWhateverTheFileSays() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "troupe.cluster=true\n");

        FrameworkConfig alone = FrameworkConfig.load(layout, ConsoleMode.SCRIPT, name -> null);
        Files.writeString(layout.etc().resolve("io.troupe.cluster.cfg"), "members = 127.0.0.1:5701\n");
        FrameworkConfig node = FrameworkConfig.load(layout, ConsoleMode.SCRIPT, name -> null);

        assertEquals("false", alone.properties().get("troupe.cluster"));
        assertEquals(false, alone.clustered());
        assertEquals("true", node.properties().get("troupe.cluster"));
        assertTrue(node.clustered());
    }

    @Test
    void namesThePropertyThatRefersToSomethingUndefined() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "gosh.home=${no.such.thing}\n");

        LauncherException e = assertThrows(LauncherException.class,
                () -> FrameworkConfig.load(layout, ConsoleMode.SCRIPT, name -> null));

        assertEquals("property gosh.home in etc/config.properties refers to ${no.such.thing}, which is not defined",
                e.getMessage());
    }

    @Test
    void refusesAPropertyThatRefersToItself() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "a=${a}\n");

        LauncherException e = assertThrows(LauncherException.class,
                () -> FrameworkConfig.load(layout, ConsoleMode.SCRIPT, name -> null));

        assertTrue(e.getMessage().contains("refers to itself"), e.getMessage());
    }

    @Test
    void saysTheConfigurationFileIsMissing() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "");
        Files.delete(layout.configFile());

        LauncherException e = assertThrows(LauncherException.class,
                () -> FrameworkConfig.load(layout, ConsoleMode.SCRIPT, name -> null));

        assertEquals("missing configuration file " + layout.configFile() + ": the installation is incomplete",
                e.getMessage());
    }

    @Test
    void saysTheConfigurationFileIsNotUtf8() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "");
        Files.write(layout.configFile(), new byte[] {'a', '=', (byte) 0xff, (byte) 0xfe, '\n'});

        LauncherException e = assertThrows(LauncherException.class,
                () -> FrameworkConfig.load(layout, ConsoleMode.SCRIPT, name -> null));

        assertEquals("cannot read " + layout.configFile() + ": it is not valid UTF-8", e.getMessage());
    }

    @Test
    void refusesABeginningStartLevelThatDoesNotReachThePlugins() throws Exception {
        InstallLayout layout = TestInstall.layout(dir, "org.osgi.framework.startlevel.beginning=10\n");
        FrameworkConfig config = FrameworkConfig.load(layout, ConsoleMode.SCRIPT, name -> null);

        LauncherException e = assertThrows(LauncherException.class, () -> config.requireBeginningStartLevelAtLeast(80));

        assertEquals("org.osgi.framework.startlevel.beginning=10 in etc/config.properties is too low:"
                + " Troupe starts bundles up to level 80", e.getMessage());
    }
}
