package io.troupe.server.tenant;

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
import io.troupe.server.credential.TokenHash;

/**
 * Tenant configurations read through the typed model ({@link TenantConfiguration} and the metatype
 * document bnd generated from it in target/classes): a bad value of each kind refuses the whole
 * configuration and names every problem.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class TenantConfigTest {

    private static final String FILE = "file:/opt/troupe/etc/io.troupe.tenant-acme.cfg";
    private static final String HASH = TestTokens.HASH;

    @Test
    void theTenantIdIsTheAliasInTheFileName() throws Exception {
        TenantConfig config = TenantConfig.from("io.troupe.tenant~acme", props("felix.fileinstall.filename", FILE,
                "tokenHash", HASH));
        assertEquals("acme", config.id());
        assertEquals("file /opt/troupe/etc/io.troupe.tenant-acme.cfg", config.source());
        assertEquals("io.troupe.tenant-acme.cfg", config.fileName());
        assertEquals(1000, config.maxConnections());
        assertEquals(0, config.maxRequestsPerSecond());
    }

    @Test
    void fileUrlsWithEscapesAndWindowsPathsAreUnderstood() throws Exception {
        assertEquals("a.b-c_d", TenantConfig.from(null, props("felix.fileinstall.filename",
                "file:/C:/Program%20Files/troupe/etc/io.troupe.tenant-a.b-c_d.cfg", "tokenHash", HASH)).id());
        assertEquals("x", TenantConfig.from(null, props("felix.fileinstall.filename",
                "C:\\troupe\\etc\\io.troupe.tenant-x.cfg", "tokenHash", HASH)).id());
    }

    @Test
    void anExplicitTenantPropertyNamesConfigurationsMadeWithoutAFile() throws Exception {
        TenantConfig config = TenantConfig.from("io.troupe.tenant.1234", props("tenant", "beta", "tokenHash", HASH,
                "maxConnections", 2, "maxRequestsPerSecond", "50"));
        assertEquals("beta", config.id());
        assertEquals("configuration io.troupe.tenant.1234", config.source());
        assertEquals(2, config.maxConnections());
        assertEquals(50, config.maxRequestsPerSecond());
        assertNull(config.fileName());
    }

    @Test
    void aNamedFactoryConfigurationNamesItsTenant() throws Exception {
        assertEquals("demo", TenantConfig.from("io.troupe.tenant~demo", props("tokenHash", HASH)).id());
    }

    @Test
    void aTenantPropertyThatContradictsTheFileNameIsRejected() {
        TenantConfigException e = assertThrows(TenantConfigException.class, () -> TenantConfig.from("p",
                props("felix.fileinstall.filename", FILE, "tenant", "other", "tokenHash", HASH)));
        assertEquals("file /opt/troupe/etc/io.troupe.tenant-acme.cfg", e.source());
        assertTrue(e.problem().contains("contradicts"), e.problem());
    }

    @Test
    void invalidIdsAreRejected() {
        for (String id : new String[] {"with space", "a/b", "é"}) {
            TenantConfigException e = assertThrows(TenantConfigException.class,
                    () -> TenantConfig.from("p", props("tenant", id, "tokenHash", HASH)), id);
            assertTrue(e.getMessage().contains("invalid"), e.getMessage());
        }
        assertEquals("tenant = '': blank", problem(props("tenant", "", "tokenHash", HASH)));
        assertEquals("tenant = '" + "x".repeat(65) + "': longer than 64 characters",
                problem(props("tenant", "x".repeat(65), "tokenHash", HASH)));
        assertEquals("tenant = '42': not a string (given as Integer)", problem(props("tenant", 42, "tokenHash", HASH)));
        assertThrows(TenantConfigException.class, () -> TenantConfig.from("p", props("felix.fileinstall.filename",
                "file:/etc/io.troupe.tenant-bad id.cfg", "tokenHash", HASH)));
        assertTrue(TenantConfig.isValidId("x".repeat(64)));
        assertTrue(TenantConfig.isValidId("A-z.0_9"));
    }

    @Test
    void aConfigurationWithNoWayToTellTheIdIsRejected() {
        TenantConfigException e = assertThrows(TenantConfigException.class,
                () -> TenantConfig.from("io.troupe.tenant.77", props("tokenHash", HASH)));
        assertTrue(e.problem().startsWith("no tenant id"), e.problem());
    }

    @Test
    void aFileNamedOtherwiseIsRejected() {
        TenantConfigException e = assertThrows(TenantConfigException.class, () -> TenantConfig.from("p",
                props("felix.fileinstall.filename", "file:/etc/tenants.cfg", "tokenHash", HASH)));
        assertEquals("file /etc/tenants.cfg", e.source());
    }

    @Test
    void aTenantWithNeitherTokenHashNorCertificateSubjectIsRejected() {
        assertEquals("no credential: set tokenHash (troupe:tenant-add and troupe:tenant-rotate-token write it), or "
                + "certificateSubject for a tenant that proves itself with its TLS client certificate",
                problem(props("tenant", "a")));
        assertEquals("token = '***': not a string (given as Integer)", problem(props("tenant", "a", "token", 42)));
    }

    @Test
    void aPlaintextTokenShorterThan32CharactersIsRejectedWithoutQuotingIt() {
        TenantConfigException e = assertThrows(TenantConfigException.class, () -> TenantConfig.from(null,
                props("felix.fileinstall.filename", FILE, "token", "short-s3cret")));
        assertEquals("file /opt/troupe/etc/io.troupe.tenant-acme.cfg: token: the token has 12 characters; at least "
                + "32 are required (generate one with troupe:tenant-rotate-token)", e.getMessage());
    }

    @Test
    void aPlaintextTokenIsHashedAndMarkedForMigration() throws Exception {
        TenantConfig config = TenantConfig.from(null, props("tenant", "a", "token", " " + TestTokens.TOKEN + "\n"));
        assertTrue(config.hadPlaintextToken());
        assertEquals(TokenHash.DEFAULT_ITERATIONS, config.tokenHash().iterations());
        assertTrue(config.tokenHash().verify(TestTokens.TOKEN), "surrounding blanks are not part of the token");
        assertFalse(config.tokenHash().verify(TestTokens.TOKEN + " "));
        assertFalse(config.toString().contains(TestTokens.TOKEN), "never log the token");
    }

    @Test
    void aMalformedTokenHashIsRejectedWithWhatIsWrong() {
        assertEquals("tokenHash: not a token hash: unknown scheme 'bcrypt' (only pbkdf2-sha256 is supported)",
                problem(props("tenant", "a", "tokenHash", "bcrypt$1$2$3")));
    }

    @Test
    void theCertificateSubjectIsKeptInCanonicalFormAndMayReplaceTheToken() throws Exception {
        TenantConfig config = TenantConfig.from(null, props("tenant", "a", "certificateSubject",
                "CN=Client One, O=Example"));
        assertNull(config.tokenHash());
        assertEquals("cn=client one,o=example", config.certificateSubject());
        assertTrue(problem(props("tenant", "a", "certificateSubject", "not a name")).startsWith(
                "certificateSubject = 'not a name': not an X.500 name such as CN=client,O=Example"));
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
        String problem = problem(props("felix.fileinstall.filename", FILE, "tokenHash", HASH, "maxConnections", "-1",
                "maxRequestsPerSecond", "lots"));
        assertEquals("maxConnections = '-1': below the minimum 0; maxRequestsPerSecond = 'lots': not an integer",
                problem);
        assertEquals("maxRequestsPerSecond = '1000001': above the maximum 1000000",
                problem(props("tenant", "a", "tokenHash", HASH, "maxRequestsPerSecond", 1_000_001)));
        assertEquals("maxConnections = '1.0': not an integer",
                problem(props("tenant", "a", "tokenHash", HASH, "maxConnections", 1.0)));
    }

    @Test
    void aBlankLimitIsRejectedAsBlank() {
        for (String blank : List.of("", " ", "\t")) {
            assertEquals("maxConnections = '" + blank + "': blank; weight = '" + blank + "': blank",
                    problem(props("tenant", "a", "tokenHash", HASH, "maxConnections", blank, "weight", blank)));
        }
    }

    @Test
    void theLimitsOfIssue13HaveTheirDefaultsAndBecomeTheRuntimesPolicy() throws Exception {
        TenantLimits defaults = TenantConfig.from(null, props("tenant", "a", "tokenHash", HASH)).limits();
        assertEquals(new TenantLimits(1000, 0, 0, 0, 1, 0, 0, Set.of()), defaults);
        assertEquals(TenantPolicy.defaults(), defaults.policy());
        assertEquals(1 << 20, defaults.frameLimit(1 << 20), "0: the server's limit");

        TenantLimits set = TenantConfig.from(null, props("tenant", "a", "tokenHash", HASH, "weight", "3",
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
                problem(props("tenant", "a", "tokenHash", HASH, "weight", "0", "maxActors", "-1")));
        assertEquals("weight = '1001': above the maximum 1000",
                problem(props("tenant", "a", "tokenHash", HASH, "weight", "1001")));
        assertEquals("maxBytesPerSecond = 'fast': not an integer",
                problem(props("tenant", "a", "tokenHash", HASH, "maxBytesPerSecond", "fast")));
        assertEquals("maxFrameBytes = '100': either 0 (the server's limit) or at least 1024",
                problem(props("tenant", "a", "tokenHash", HASH, "maxFrameBytes", "100")));
        assertEquals("handlers = 'echo,,wordcount': name 2 is empty (a comma too many?)",
                problem(props("tenant", "a", "tokenHash", HASH, "handlers", "echo,,wordcount")));
        assertEquals("handlers = 'echo wordcount': 'echo wordcount' is not a handler name (it has a blank or a "
                + "control character; separate names with commas)",
                problem(props("tenant", "a", "tokenHash", HASH, "handlers", "echo wordcount")));
    }

    @Test
    void keysNoAttributeDefinesAreListedForTheLog() throws Exception {
        TenantConfig config = TenantConfig.from(null, props("tenant", "a", "tokenHash", HASH, "maxConections", "5",
                "service.factoryPid", "io.troupe.tenant"));
        assertEquals(List.of("maxConections"), config.unknownKeys());
        assertEquals(1000, config.maxConnections(), "the misspelt key is not read");
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
