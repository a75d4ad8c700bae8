package io.troupe.server.tenant;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.troupe.api.TenantPolicy;

/**
 * Tenant configurations read through the typed model ({@link TenantConfiguration} and the metatype
 * document bnd generated from it in target/classes): a bad value of each kind refuses the whole
 * configuration and names every problem.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class TenantConfigTest {

    private static final String FILE = "file:/opt/troupe/etc/io.troupe.tenant-acme.cfg";

    @Test
    void theTenantIdIsTheAliasInTheFileName() throws Exception {
        TenantConfig config = TenantConfig.from("io.troupe.tenant~acme", props("felix.fileinstall.filename", FILE,
                "token", "s3cret"));
        assertEquals("acme", config.id());
        assertEquals("file /opt/troupe/etc/io.troupe.tenant-acme.cfg", config.source());
        assertEquals("io.troupe.tenant-acme.cfg", config.fileName());
        assertEquals(1000, config.maxConnections());
        assertEquals(0, config.maxRequestsPerSecond());
    }

    @Test
    void fileUrlsWithEscapesAndWindowsPathsAreUnderstood() throws Exception {
        assertEquals("a.b-c_d", TenantConfig.from(null, props("felix.fileinstall.filename",
                "file:/C:/Program%20Files/troupe/etc/io.troupe.tenant-a.b-c_d.cfg", "token", "t")).id());
        assertEquals("x", TenantConfig.from(null, props("felix.fileinstall.filename",
                "C:\\troupe\\etc\\io.troupe.tenant-x.cfg", "token", "t")).id());
    }

    @Test
    void anExplicitTenantPropertyNamesConfigurationsMadeWithoutAFile() throws Exception {
        TenantConfig config = TenantConfig.from("io.troupe.tenant.1234", props("tenant", "beta", "token", "t",
                "maxConnections", 2, "maxRequestsPerSecond", "50"));
        assertEquals("beta", config.id());
        assertEquals("configuration io.troupe.tenant.1234", config.source());
        assertEquals(2, config.maxConnections());
        assertEquals(50, config.maxRequestsPerSecond());
        assertNull(config.fileName());
    }

    @Test
    void aNamedFactoryConfigurationNamesItsTenant() throws Exception {
        assertEquals("demo", TenantConfig.from("io.troupe.tenant~demo", props("token", "t")).id());
    }

    @Test
    void aTenantPropertyThatContradictsTheFileNameIsRejected() {
        TenantConfigException e = assertThrows(TenantConfigException.class, () -> TenantConfig.from("p",
                props("felix.fileinstall.filename", FILE, "tenant", "other", "token", "t")));
        assertEquals("file /opt/troupe/etc/io.troupe.tenant-acme.cfg", e.source());
        assertTrue(e.problem().contains("contradicts"), e.problem());
    }

    @Test
    void invalidIdsAreRejected() {
        for (String id : new String[] {"with space", "a/b", "é"}) {
            TenantConfigException e = assertThrows(TenantConfigException.class,
                    () -> TenantConfig.from("p", props("tenant", id, "token", "t")), id);
            assertTrue(e.getMessage().contains("invalid"), e.getMessage());
        }
        assertEquals("tenant = '': blank", problem(props("tenant", "", "token", "t")));
        assertEquals("tenant = '" + "x".repeat(65) + "': longer than 64 characters",
                problem(props("tenant", "x".repeat(65), "token", "t")));
        assertEquals("tenant = '42': not a string (given as Integer)", problem(props("tenant", 42, "token", "t")));
        assertThrows(TenantConfigException.class, () -> TenantConfig.from("p", props("felix.fileinstall.filename",
                "file:/etc/io.troupe.tenant-bad id.cfg", "token", "t")));
        assertTrue(TenantConfig.isValidId("x".repeat(64)));
        assertTrue(TenantConfig.isValidId("A-z.0_9"));
    }

    @Test
    void aConfigurationWithNoWayToTellTheIdIsRejected() {
        TenantConfigException e = assertThrows(TenantConfigException.class,
                () -> TenantConfig.from("io.troupe.tenant.77", props("token", "t")));
        assertTrue(e.problem().startsWith("no tenant id"), e.problem());
    }

    @Test
    void aFileNamedOtherwiseIsRejected() {
        TenantConfigException e = assertThrows(TenantConfigException.class, () -> TenantConfig.from("p",
                props("felix.fileinstall.filename", "file:/etc/tenants.cfg", "token", "t")));
        assertEquals("file /etc/tenants.cfg", e.source());
    }

    @Test
    void aMissingOrBlankTokenIsRejected() {
        assertEquals("token: required and missing", problem(props("tenant", "a")));
        assertEquals("token = '***': blank", problem(props("tenant", "a", "token", "  ")));
        assertEquals("token = '***': not a string (given as Integer)", problem(props("tenant", "a", "token", 42)));
    }

    @Test
    void theTokenNeverAppearsInAProblem() {
        TenantConfigException e = assertThrows(TenantConfigException.class, () -> TenantConfig.from("p",
                props("tenant", "a", "token", new String[] {"s3cret", "other"}, "maxConnections", "lots")));
        assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
        assertEquals("configuration p: token = '***': a list where one value is expected; "
                + "maxConnections = 'lots': not an integer", e.getMessage());
    }

    @Test
    void negativeOrNonNumericLimitsAreRejectedAllAtOnce() {
        String problem = problem(props("felix.fileinstall.filename", FILE, "token", "t", "maxConnections", "-1",
                "maxRequestsPerSecond", "lots"));
        assertEquals("maxConnections = '-1': below the minimum 0; maxRequestsPerSecond = 'lots': not an integer",
                problem);
        assertEquals("maxRequestsPerSecond = '1000001': above the maximum 1000000",
                problem(props("tenant", "a", "token", "t", "maxRequestsPerSecond", 1_000_001)));
        assertEquals("maxConnections = '1.0': not an integer",
                problem(props("tenant", "a", "token", "t", "maxConnections", 1.0)));
    }

    @Test
    void theLimitsOfIssue13HaveTheirDefaultsAndBecomeTheRuntimesPolicy() throws Exception {
        TenantLimits defaults = TenantConfig.from(null, props("tenant", "a", "token", "t")).limits();
        assertEquals(new TenantLimits(1000, 0, 0, 0, 1, 0, 0, Set.of()), defaults);
        assertEquals(TenantPolicy.defaults(), defaults.policy());
        assertEquals(1 << 20, defaults.frameLimit(1 << 20), "0: the server's limit");

        TenantLimits set = TenantConfig.from(null, props("tenant", "a", "token", "t", "weight", "3",
                "maxBytesPerSecond", "65536", "maxActors", "20", "maxQueuedMessages", "500", "maxFrameBytes", "4096",
                "handlers", " echo , wordcount,counter.add ")).limits();
        assertEquals(new TenantLimits(1000, 0, 65536, 4096, 3, 20, 500, Set.of("echo", "wordcount", "counter.add")),
                set);
        assertEquals(TenantPolicy.defaults().withWeight(3).withMaxActors(20).withMaxQueuedMessages(500)
                .withHandlers(Set.of("counter.add", "echo", "wordcount")), set.policy());
        assertTrue(set.describe().contains("handlers=counter.add,echo,wordcount"), set.describe());
    }

    @Test
    void badValuesOfTheNewLimitsAreNamedPrecisely() {
        assertEquals("weight = '0': below the minimum 1; maxActors = '-1': below the minimum 0",
                problem(props("tenant", "a", "token", "t", "weight", "0", "maxActors", "-1")));
        assertEquals("weight = '1001': above the maximum 1000",
                problem(props("tenant", "a", "token", "t", "weight", "1001")));
        assertEquals("maxBytesPerSecond = 'fast': not an integer",
                problem(props("tenant", "a", "token", "t", "maxBytesPerSecond", "fast")));
        assertEquals("maxFrameBytes = '100': either 0 (the server's limit) or at least 1024",
                problem(props("tenant", "a", "token", "t", "maxFrameBytes", "100")));
        assertEquals("handlers = 'echo,,wordcount': name 2 is empty (a comma too many?)",
                problem(props("tenant", "a", "token", "t", "handlers", "echo,,wordcount")));
        assertEquals("handlers = 'echo wordcount': 'echo wordcount' is not a handler name (it has a blank or a "
                + "control character; separate names with commas)",
                problem(props("tenant", "a", "token", "t", "handlers", "echo wordcount")));
    }

    @Test
    void keysNoAttributeDefinesAreListedForTheLog() throws Exception {
        TenantConfig config = TenantConfig.from(null, props("tenant", "a", "token", "t", "maxConections", "5",
                "service.factoryPid", "io.troupe.tenant"));
        assertEquals(List.of("maxConections"), config.unknownKeys());
        assertEquals(1000, config.maxConnections(), "the misspelt key is not read");
    }

    @Test
    void theTokenIsComparedWithoutItsSurroundingWhitespace() throws Exception {
        TenantConfig config = TenantConfig.from(null, props("tenant", "a", "token", " s3cret\n"));
        assertTrue(config.matches(TenantConfig.digest("s3cret".getBytes(UTF_8))));
        assertFalse(config.matches(TenantConfig.digest("s3cret ".getBytes(UTF_8))));
        assertFalse(config.toString().contains("s3cret"), "never log the token");
    }

    @Test
    void tenantFileNamesAreRecognised() {
        assertEquals(Optional.of("demo"), TenantConfig.idOfFile("io.troupe.tenant-demo.cfg"));
        assertEquals(Optional.of("x"), TenantConfig.idOfFile("io.troupe.tenant-x.config"));
        assertEquals(Optional.empty(), TenantConfig.idOfFile("io.troupe.server.cfg"));
    }

    private static String problem(Map<String, Object> properties) {
        return assertThrows(TenantConfigException.class, () -> TenantConfig.from("p", properties)).problem();
    }

    private static Map<String, Object> props(Object... keysAndValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
