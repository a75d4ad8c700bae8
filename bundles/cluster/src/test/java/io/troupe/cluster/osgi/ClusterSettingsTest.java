package io.troupe.cluster.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.cluster.engine.MemberAddress;

/**
 * The cluster's configuration checked against its typed model and its own rules: defaults, good values, bad
 * ones named with file, key and reason (the whole configuration refused), and the secret's rules.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class ClusterSettingsTest {

    private static final String CFG = "file:/opt/troupe/etc/io.troupe.cluster.cfg";
    private static final String SECRET = "0123456789abcdef-secret";

    private final List<String> warnings = new ArrayList<>();

    @TempDir
    Path home;

    private ClusterSettings parse(Map<String, ?> properties) throws InvalidClusterConfigurationException {
        Map<String, Object> all = new HashMap<>(properties);
        all.put("felix.fileinstall.filename", CFG);
        return ClusterSettings.parse(all, home, warnings::add);
    }

    private InvalidClusterConfigurationException refused(Map<String, ?> properties) {
        return assertThrows(InvalidClusterConfigurationException.class, () -> parse(properties));
    }

    @Test
    void onlyTheSecretIsNeededAndEverythingElseHasItsDefault() throws Exception {
        ClusterSettings settings = parse(Map.of("secret", SECRET));

        assertEquals("troupe", settings.clusterName());
        assertEquals(List.of(), settings.members());
        assertEquals(5701, settings.port());
        assertEquals("0.0.0.0", settings.bindAddress());
        assertEquals(Optional.empty(), settings.publicAddress());
        assertEquals("", settings.clientAddress());
        assertEquals(1, settings.backupCount());
        assertEquals(1, settings.minimumMembers());
        assertEquals(Duration.ofSeconds(10), settings.handoverTimeout());
        assertTrue(settings.syncDeploy());
        assertTrue(settings.syncTenants());
        assertEquals(SECRET, settings.secret());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void readsEveryKeyAsFileInstallDeliversThem() throws Exception {
        ClusterSettings settings = parse(Map.ofEntries(Map.entry("clusterName", "prod"),
                Map.entry("members", "10.0.0.1, 10.0.0.2:5802 ,[fd00::3]:5803,node-4.example.com"),
                Map.entry("port", "5801"), Map.entry("bindAddress", "10.0.0.1"),
                Map.entry("publicAddress", "203.0.113.7"), Map.entry("clientAddress", "troupe-1.example.com:7878"),
                Map.entry("secret", SECRET), Map.entry("backupCount", "2"), Map.entry("minimumMembers", "2"),
                Map.entry("handoverTimeoutSeconds", "30"), Map.entry("syncDeploy", "false"),
                Map.entry("syncTenants", "false")));

        assertEquals("prod", settings.clusterName());
        assertEquals(List.of(new MemberAddress("10.0.0.1", 5801), new MemberAddress("10.0.0.2", 5802),
                new MemberAddress("fd00::3", 5803), new MemberAddress("node-4.example.com", 5801)),
                settings.members());
        assertEquals("[fd00::3]:5803", settings.members().get(2).toString());
        assertEquals(5801, settings.port());
        assertEquals("10.0.0.1", settings.bindAddress());
        assertEquals(Optional.of(new MemberAddress("203.0.113.7", 5801)), settings.publicAddress());
        assertEquals("troupe-1.example.com:7878", settings.clientAddress());
        assertEquals(2, settings.backupCount());
        assertEquals(2, settings.minimumMembers());
        assertEquals(Duration.ofSeconds(30), settings.handoverTimeout());
        assertFalse(settings.syncDeploy());
        assertFalse(settings.syncTenants());
    }

    @Test
    void everyBadKeyIsNamedWithTheFileAndTheWholeConfigurationIsRefused() {
        InvalidClusterConfigurationException e = refused(Map.of("secret", SECRET, "port", "70000",
                "members", "10.0.0.1:5701,bad host:5702", "bindAddress", "eth0", "backupCount", "7",
                "clientAddress", "troupe-1.example.com"));

        List<String> problems = e.problems().stream().map(Object::toString).toList();
        assertEquals(List.of(
                "file /opt/troupe/etc/io.troupe.cluster.cfg: port = '70000': above the maximum 65535",
                "file /opt/troupe/etc/io.troupe.cluster.cfg: backupCount = '7': above the maximum 6",
                "file /opt/troupe/etc/io.troupe.cluster.cfg: members = '10.0.0.1:5701,bad host:5702': entry "
                        + "'bad host:5702': not a host name or IP address: 'bad host'",
                "file /opt/troupe/etc/io.troupe.cluster.cfg: bindAddress = 'eth0': not an IP address (an "
                        + "interface's address, or 0.0.0.0 for every one)",
                "file /opt/troupe/etc/io.troupe.cluster.cfg: clientAddress = 'troupe-1.example.com': needs a port "
                        + "(host:port)"), problems);
    }

    @Test
    void aMemberWithABadPortIsRefused() {
        InvalidClusterConfigurationException e = refused(Map.of("secret", SECRET, "members", "10.0.0.1:http"));

        assertEquals("members = '10.0.0.1:http': entry '10.0.0.1:http': '10.0.0.1:http': port 'http' is not a "
                + "number", e.problems().get(0).describe());
    }

    @Test
    void theSecretIsRequired() {
        InvalidClusterConfigurationException e = refused(Map.of("clusterName", "prod"));

        assertEquals(1, e.problems().size());
        assertEquals("secret", e.problems().get(0).key());
        assertTrue(e.problems().get(0).reason().startsWith("required: give secret (at least 16 characters) or "
                + "secretFile"), e.problems().get(0).reason());
    }

    @Test
    void aShortSecretIsRefusedAndNeverShown() {
        InvalidClusterConfigurationException e = refused(Map.of("secret", "too-short"));

        assertEquals("file /opt/troupe/etc/io.troupe.cluster.cfg: secret = '***': shorter than 16 characters",
                e.problems().get(0).toString());
        assertFalse(e.getMessage().contains("too-short"), e.getMessage());
    }

    @Test
    void secretAndSecretFileTogetherAreRefused() {
        InvalidClusterConfigurationException e = refused(Map.of("secret", SECRET, "secretFile", "etc/secret"));

        assertEquals("secret = '***': give secret or secretFile, not both", e.problems().get(0).describe());
    }

    @Test
    void theSecretFileIsReadRelativeToTheInstallation() throws Exception {
        Path file = Files.createDirectories(home.resolve("etc")).resolve("cluster.secret");
        Files.writeString(file, SECRET + "\nsecond line ignored\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        ClusterSettings settings = parse(Map.of("secretFile", "etc/cluster.secret"));

        assertEquals(SECRET, settings.secret());
        assertTrue(warnings.isEmpty(), warnings.toString());
        assertFalse(settings.toString().contains(SECRET), settings.toString());
    }

    @Test
    void aSecretFileOthersMayReadIsAcceptedWithAWarning() throws Exception {
        Path file = home.resolve("cluster.secret");
        Files.writeString(file, SECRET + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        ClusterSettings settings = parse(Map.of("secretFile", file.toString()));

        assertEquals(SECRET, settings.secret());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("file /opt/troupe/etc/io.troupe.cluster.cfg: secretFile " + file
                + " may be read by its group or others (rw-r--r--)"), warnings.get(0));
    }

    @Test
    void aMissingOrShortSecretFileIsRefusedWithItsPath() throws IOException {
        InvalidClusterConfigurationException missing = refused(Map.of("secretFile", "etc/none"));
        assertEquals("secretFile", missing.problems().get(0).key());
        assertTrue(missing.problems().get(0).reason().startsWith("cannot read " + home.resolve("etc/none")),
                missing.problems().get(0).reason());

        Path file = home.resolve("short.secret");
        Files.writeString(file, "short\n" + SECRET);
        InvalidClusterConfigurationException tooShort = refused(Map.of("secretFile", "short.secret"));
        assertEquals("secretFile = 'short.secret': the first line of " + file + " is shorter than 16 characters",
                tooShort.problems().get(0).describe());
    }

    @Test
    void unknownKeysAreWarnedAbout() throws Exception {
        parse(Map.of("secret", SECRET, "multicast", "true"));

        assertEquals(List.of("file /opt/troupe/etc/io.troupe.cluster.cfg: unknown key 'multicast' ignored"),
                warnings);
    }

    @Test
    void theClientAddressIsDerivedFromTheServersWhenNotConfigured() throws Exception {
        ClusterSettings plain = parse(Map.of("secret", SECRET));
        assertEquals("10.1.2.3:7878", plain.clientAddressFor("10.1.2.3:7878"));
        assertEquals("127.0.0.1:7878", plain.clientAddressFor("0.0.0.0:7878"));

        ClusterSettings published = parse(Map.of("secret", SECRET, "publicAddress", "203.0.113.7:5701"));
        assertEquals("203.0.113.7:7878", published.clientAddressFor("0.0.0.0:7878"));
        assertEquals("203.0.113.7:7878", published.clientAddressFor("[::]:7878"));

        ClusterSettings configured = parse(Map.of("secret", SECRET, "clientAddress", "lb.example.com:443"));
        assertEquals("lb.example.com:443", configured.clientAddressFor("0.0.0.0:7878"));
    }

    @Test
    void theChangedKeysOfALaterConfigurationAreNamed() throws Exception {
        ClusterSettings settings = parse(Map.of("secret", SECRET, "port", "5701"));

        assertEquals(Set.of(), settings.changedKeys(Map.of("secret", SECRET, "port", "5701",
                "felix.fileinstall.filename", CFG)));
        assertEquals(Set.of("port", "secret"), settings.changedKeys(Map.of("secret", "another-secret-value",
                "port", "5702")));
        assertEquals(Set.of("members"), settings.changedKeys(Map.of("secret", SECRET, "members", "10.0.0.1")));
    }
}
