package io.troupe.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.troupe.config.ConfigurationProblem;
import io.troupe.reliability.fuzz.CfgFile;

/**
 * Fuzzes {@link ServerSettings#parse}, which reads {@code etc/io.troupe.server.cfg}: a bad value is reported
 * as a {@link ConfigurationProblem} naming its key and the previous value is kept, so the only acceptable
 * outcome is a settings object (from which every derived view can be made) plus the problems; any exception
 * fails.
 *
 * <p><b>Threading:</b> on the fuzzing thread only.
 */
class ServerSettingsFuzzTest {

    private static final ServerSettings DEFAULTS = ServerSettings.defaults();

    @FuzzTest(maxDuration = "10s")
    void readsTheServerFileKeepingThePreviousValueOfEveryBadKey(FuzzedDataProvider data) {
        Map<String, Object> properties = CfgFile.properties(data);
        if (properties == null) {
            return;
        }
        List<ConfigurationProblem> problems = new ArrayList<>();
        ServerSettings settings = ServerSettings.parse(properties, DEFAULTS, problems::add);
        assertNotNull(settings);
        for (ConfigurationProblem problem : problems) {
            assertFalse(problem.key() == null || problem.key().isBlank(), "a problem names its key");
            assertNotNull(problem.describe());
        }
        assertTrue(settings.port() >= 0 && settings.port() <= 65535, () -> "port " + settings.port());
        assertTrue(settings.ioThreads() > 0, () -> "ioThreads " + settings.ioThreads());
        assertFalse(settings.host().chars().anyMatch(Character::isWhitespace), "host without blanks");
        assertNotNull(settings.sessionLimits());
        assertNotNull(settings.connectionOptions());
        assertNotNull(settings.admission(OptionalLong.of(1024)));
        assertNotNull(settings.admission(OptionalLong.empty()));
        settings.needsRebind(DEFAULTS);
        ServerSettings.unknownKeys(properties);
    }
}
