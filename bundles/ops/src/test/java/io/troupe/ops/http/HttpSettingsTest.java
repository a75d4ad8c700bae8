package io.troupe.ops.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.troupe.config.ConfigurationProblem;

/**
 * etc/io.troupe.http.cfg checked: defaults, bad values named and kept at their previous value, the refusal of
 * plain HTTP on a non-loopback address, and what needs a re-bind.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class HttpSettingsTest {

    private static final String FILE = "file:/opt/troupe/etc/io.troupe.http.cfg";

    @Test
    void defaultsListenOnLoopbackPort7879WithTheTokenInEtc() {
        HttpSettings settings = HttpSettings.defaults();
        assertTrue(settings.enabled());
        assertEquals("127.0.0.1", settings.host());
        assertEquals(7879, settings.port());
        assertEquals("etc/admin.token", settings.tokenFile());
        assertFalse(settings.allowPlaintext());
        assertNull(settings.refusal());
    }

    @Test
    void readsEveryKeyAsFileInstallDeliversThem() {
        HttpSettings settings = parse(Map.of("enabled", "false", "host", "localhost", "port", "9100",
                "tokenFile", "/run/secrets/troupe-admin", "allowPlaintext", "true"), new ArrayList<>());
        assertFalse(settings.enabled());
        assertEquals("localhost", settings.host());
        assertEquals(9100, settings.port());
        assertEquals(Path.of("/run/secrets/troupe-admin"), settings.resolveTokenFile(Path.of("/opt/troupe")));
        assertTrue(settings.allowPlaintext());
    }

    @Test
    void aBadValueIsNamedWithFileKeyAndReasonAndKeepsThePreviousValue() {
        List<ConfigurationProblem> problems = new ArrayList<>();
        HttpSettings before = parse(Map.of("port", "9100"), problems);

        HttpSettings after = HttpSettings.parse(Map.of("port", "70000", "host", "my host",
                "felix.fileinstall.filename", FILE), before, problems::add);

        assertEquals(9100, after.port());
        assertEquals("127.0.0.1", after.host());
        assertEquals(List.of(
                "file /opt/troupe/etc/io.troupe.http.cfg: port = '70000': above the maximum 65535; keeping 9100",
                "file /opt/troupe/etc/io.troupe.http.cfg: host = 'my host': a host name or address has no blanks; "
                        + "keeping 127.0.0.1"),
                problems.stream().map(Object::toString).toList());
    }

    @Test
    void namesUnknownKeysButNotTheFrameworks() {
        assertEquals(List.of("prot"), HttpSettings.unknownKeys(Map.of("prot", "1", "service.pid", "io.troupe.http",
                "felix.fileinstall.filename", FILE)));
    }

    @Test
    void refusesPlainHttpOnANonLoopbackAddressUnlessAllowed() {
        String refusal = parse(Map.of("host", "0.0.0.0"), new ArrayList<>()).refusal();
        assertTrue(refusal.contains("plain HTTP on a non-loopback address")
                && refusal.contains("allowPlaintext = true"),
                refusal);
        assertNull(parse(Map.of("host", "0.0.0.0", "allowPlaintext", "true"), new ArrayList<>()).refusal());
        assertNull(parse(Map.of("host", "localhost"), new ArrayList<>()).refusal());
        assertNull(parse(Map.of("host", "::1"), new ArrayList<>()).refusal());
    }

    @Test
    void theAddressEnabledAndPlaintextNeedARebindTheTokenFileDoesNot() {
        HttpSettings base = HttpSettings.defaults();
        assertFalse(base.needsRebind(parse(Map.of("tokenFile", "etc/other.token"), new ArrayList<>())));
        assertTrue(base.needsRebind(parse(Map.of("port", "7880"), new ArrayList<>())));
        assertTrue(base.needsRebind(parse(Map.of("host", "localhost"), new ArrayList<>())));
        assertTrue(base.needsRebind(parse(Map.of("enabled", "false"), new ArrayList<>())));
        assertTrue(base.needsRebind(parse(Map.of("allowPlaintext", "true"), new ArrayList<>())));
    }

    @Test
    void theTokenFileIsRelativeToTheInstallation() {
        assertEquals(Path.of("/opt/troupe/etc/admin.token"), HttpSettings.defaults().resolveTokenFile(
                Path.of("/opt/troupe")));
    }

    private static HttpSettings parse(Map<String, ?> properties, List<ConfigurationProblem> problems) {
        return HttpSettings.parse(properties, HttpSettings.defaults(), problems::add);
    }
}
