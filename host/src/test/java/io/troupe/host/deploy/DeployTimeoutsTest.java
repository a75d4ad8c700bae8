package io.troupe.host.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** {@link DeployTimeouts} read from framework properties through {@link DeploySettings}' typed model. */
class DeployTimeoutsTest {

    @Test
    void withoutPropertiesTheDefaultsApply() {
        List<String> problems = new ArrayList<>();

        DeployTimeouts timeouts = DeployTimeouts.read(key -> null, problems::add);

        assertEquals(new DeployTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(2)), timeouts);
        assertEquals(DeployTimeouts.defaults(), timeouts);
        assertEquals(List.of(), problems);
    }

    @Test
    void setValuesApply() {
        Map<String, String> properties = Map.of(DeploySettings.START_TIMEOUT_KEY, " 3 ",
                "troupe.deploy.stopTimeoutSeconds", "4");

        DeployTimeouts timeouts = DeployTimeouts.read(properties::get, problem -> {
            throw new AssertionError(problem);
        });

        assertEquals(new DeployTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(4)), timeouts);
    }

    @Test
    void aBadValueIsReportedWithItsKeyAndTheDefaultApplies() {
        List<String> problems = new ArrayList<>();
        Map<String, String> properties = Map.of(DeploySettings.START_TIMEOUT_KEY, "soon",
                "troupe.deploy.stopTimeoutSeconds", "0");

        DeployTimeouts timeouts = DeployTimeouts.read(properties::get, problems::add);

        assertEquals(DeployTimeouts.defaults(), timeouts);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("troupe.deploy.startTimeoutSeconds")
                && p.contains("soon")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("troupe.deploy.stopTimeoutSeconds")
                && p.contains("0")), problems.toString());
    }
}
