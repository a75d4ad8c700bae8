package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.troupe.reliability.fuzz.CfgFile;

/**
 * Fuzzes {@link TenantConfig#from}, which reads {@code etc/io.troupe.tenant-<id>.cfg}: the only acceptable
 * outcomes are a valid configuration or a {@link TenantConfigException} naming the source and the problem.
 *
 * <p>The input is a PID choice, then the file's text ({@link CfgFile}); the PID is one FileInstall makes
 * (a factory PID with a generated suffix), a named factory configuration's, or none.
 *
 * <p><b>Threading:</b> on the fuzzing thread only.
 */
class TenantConfigFuzzTest {

    private static final String[] PIDS = {
        null, TenantConfig.FACTORY_PID + ".6f1c2d0e-3b9a-4c55-9d1e-0a7b8c9d0e1f", TenantConfig.FACTORY_PID + "~acme",
    };

    @FuzzTest(maxDuration = "10s")
    void readsATenantFileOrNamesWhatIsWrong(FuzzedDataProvider data) {
        String pid = PIDS[data.consumeInt(0, PIDS.length - 1)];
        Map<String, Object> properties = CfgFile.properties(data);
        if (properties == null) {
            return;
        }
        TenantConfig config;
        try {
            config = TenantConfig.from(pid, properties);
        } catch (TenantConfigException e) {
            assertNotNull(e.source(), "a refusal names its source");
            assertFalse(e.problem() == null || e.problem().isBlank(), "a refusal says what is wrong");
            return;
        }
        assertTrue(TenantConfig.isValidId(config.id()), () -> "accepted tenant id " + config.id());
        assertNotNull(config.limits());
        assertTrue(config.tokenHash() != null || config.certificateSubject() != null, "a tenant has a credential");
        assertNotNull(config.toString());
    }
}
