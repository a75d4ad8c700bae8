package io.troupe.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationProblem;
import io.troupe.host.monitor.ActorPoolSettings;
import io.troupe.host.monitor.MonitorSettings;

/**
 * The host's runtime-tunable settings through the typed model ({@link HostConfiguration} and the
 * metatype document bnd generated from it in target/classes), and {@link HostTuning} turning each
 * configuration ConfigAdmin delivers into settings.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class HostSettingsTest {

    private static final int CORES = 2;
    private static final String FILE = "file:/opt/troupe/etc/io.troupe.host.cfg";

    private final List<String> warnings = new ArrayList<>();
    private final List<HostSettings> applied = new ArrayList<>();

    @Test
    void withNothingSetTheDefaultsFollowTheCores() {
        HostSettings settings = settings(Map.of());
        assertEquals(CORES, settings.workers());
        assertEquals(4 * CORES, settings.workersMax());
        assertEquals(Duration.ofNanos(50_000), settings.workerSpin());
        assertEquals(MonitorSettings.defaults(), settings.monitor());
        assertEquals(ActorPoolSettings.defaults(), settings.pools());
    }

    @Test
    void theOldFrameworkPropertiesAreTheInitialValues() {
        Map<String, String> framework = Map.of("troupe.workers", "3", "troupe.workers.max", "5",
                "troupe.monitor.stallMillis", "500", "troupe.pool.cooldownMillis", "0", "troupe.home", "/opt");
        CheckedConfiguration<HostConfiguration> initial = HostSettings.fromFrameworkProperties(framework::get);
        assertTrue(initial.valid(), initial.problems()::toString);
        HostSettings settings = HostSettings.of(initial.typed(), CORES, warnings::add);
        assertEquals(3, settings.workers());
        assertEquals(5, settings.workersMax());
        assertEquals(Duration.ofMillis(500), settings.monitor().stallThreshold());
        assertEquals(Duration.ZERO, settings.pools().cooldown());
    }

    @Test
    void aBadFrameworkPropertyIsReportedAndItsDefaultApplies() {
        Map<String, String> framework = Map.of("troupe.monitor.stallMillis", "soon", "troupe.workers", "2000");
        CheckedConfiguration<HostConfiguration> initial = HostSettings.fromFrameworkProperties(framework::get);
        assertEquals(List.of("framework properties (troupe.<key>): workers = '2000': above the maximum 1024; keeping 0",
                "framework properties (troupe.<key>): monitor.stallMillis = 'soon': not an integer; keeping 2000"),
                initial.problems().stream().map(ConfigurationProblem::toString).toList());
        assertEquals(Duration.ofMillis(2000), HostSettings.of(initial.typed(), CORES, warnings::add).monitor()
                .stallThreshold());
    }

    @Test
    void aMaximumBelowTheMinimumIsRaisedToItWithAWarning() {
        HostSettings settings = settings(Map.of("workers", "6", "workers.max", "4"));
        assertEquals(6, settings.workersMax());
        assertEquals(List.of("workers.max=4 is below workers=6; the pool keeps 6 workers"), warnings);
    }

    @Test
    void theConfigurationOverridesTheFrameworkPropertiesAndABadValueKeepsThePreviousOne() {
        CheckedConfiguration<HostConfiguration> initial = HostSettings.fromFrameworkProperties(
                Map.of("troupe.workers.max", "7", "troupe.monitor.summarySeconds", "0")::get);
        HostTuning tuning = new HostTuning(initial, CORES, applied::add);

        tuning.updated(null);
        assertEquals(7, last().workersMax(), "no configuration: the framework properties");

        tuning.updated(properties("workers.max", "12", "monitor.stallMillis", "300"));
        assertEquals(12, last().workersMax());
        assertEquals(Duration.ofMillis(300), last().monitor().stallThreshold());
        assertEquals(Duration.ZERO, last().monitor().summaryInterval(), "a key absent here: its framework property");

        tuning.updated(properties("workers.max", "lots", "monitor.stallMillis", "0", "workers.spinMicros", "0"));
        assertEquals(12, last().workersMax(), "kept");
        assertEquals(Duration.ofMillis(300), last().monitor().stallThreshold(), "kept");
        assertEquals(Duration.ZERO, last().workerSpin(), "the good value beside the bad ones applies");

        tuning.updated(properties());
        assertEquals(7, last().workersMax(), "the key removed from the file: its framework property again");
        assertEquals(MonitorSettings.DEFAULT_STALL, last().monitor().stallThreshold(), "or its default");
    }

    @Test
    void everyKeyIsReadIntoItsSetting() {
        HostSettings settings = settings(Map.ofEntries(Map.entry("workers", "2"), Map.entry("workers.max", "9"),
                Map.entry("workers.idleSeconds", "7"), Map.entry("workers.spinMicros", "11"),
                Map.entry("monitor.periodMillis", "40"), Map.entry("monitor.stallMillis", "900"),
                Map.entry("monitor.loopStallMillis", "60"), Map.entry("monitor.summarySeconds", "15"),
                Map.entry("pool.highWater", "3"), Map.entry("pool.growMillis", "250"),
                Map.entry("pool.idleSeconds", "5"), Map.entry("pool.cooldownMillis", "750")));
        assertEquals(new HostSettings(2, 9, Duration.ofNanos(11_000),
                new MonitorSettings(Duration.ofMillis(40), Duration.ofMillis(900), Duration.ofMillis(60),
                        Duration.ofSeconds(7), Duration.ofSeconds(15), MonitorSettings.DEFAULT_STATS_WINDOW),
                new ActorPoolSettings(3, Duration.ofMillis(250), Duration.ofSeconds(5), Duration.ofMillis(750))),
                settings);
    }

    @Test
    void onlyChangesOfTheMonitorOrTheBoundsRestartTheMonitor() {
        HostSettings base = settings(Map.of());
        assertFalse(base.monitorDiffers(settings(Map.of("workers.spinMicros", "0"))));
        assertTrue(base.monitorDiffers(settings(Map.of("monitor.stallMillis", "100"))));
        assertTrue(base.monitorDiffers(settings(Map.of("workers.max", "3"))));
        assertTrue(base.monitorDiffers(settings(Map.of("pool.highWater", "4"))));
    }

    private HostSettings settings(Map<String, String> values) {
        Hashtable<String, Object> properties = new Hashtable<>(values);
        properties.put("felix.fileinstall.filename", FILE);
        CheckedConfiguration<HostConfiguration> checked = HostSettings.CHECK.check(properties, Map.of(),
                io.troupe.config.ConfigurationSource.of(HostConfiguration.PID, properties),
                io.troupe.config.ConfigurationCheck.Fallback.PREVIOUS_VALUE);
        assertTrue(checked.valid(), checked.problems()::toString);
        return HostSettings.of(checked.typed(), CORES, warnings::add);
    }

    private HostSettings last() {
        return applied.get(applied.size() - 1);
    }

    private static Hashtable<String, Object> properties(String... keysAndValues) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("service.pid", HostConfiguration.PID);
        properties.put("felix.fileinstall.filename", FILE);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return properties;
    }
}
