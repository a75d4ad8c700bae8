package io.troupe.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.troupe.api.net.ConnectionOptions;
import io.troupe.protocol.FrameDecoder;

class ServerSettingsTest {

    private final List<String> rejected = new ArrayList<>();

    @Test
    void anEmptyConfigurationGivesTheDocumentedDefaults() {
        ServerSettings settings = parse(Map.of(), ServerSettings.defaults());
        assertEquals("127.0.0.1", settings.host());
        assertEquals(7878, settings.port());
        assertEquals(Runtime.getRuntime().availableProcessors(), settings.ioThreads());
        assertEquals(1_048_576, settings.maxFrameBytes());
        assertEquals(60, settings.idleTimeoutSeconds());
        assertEquals(5, settings.authTimeoutSeconds());
        assertEquals(30, settings.requestTimeoutSeconds());
        assertEquals(16L << 20, settings.slowConsumerBytes());
        assertTrue(rejected.isEmpty(), rejected::toString);
    }

    @Test
    void valuesAreReadFromStringsAsFileInstallDeliversThemAndFromNumbers() {
        ServerSettings settings = parse(Map.of("host", " 0.0.0.0 ", "port", "9000", "maxFrameBytes", 65_536,
                "idleTimeoutSeconds", 10L, "authTimeoutSeconds", "2", "requestTimeoutSeconds", " 7 ",
                "slowConsumerBytes", "1048576", "ioThreads", "3"), ServerSettings.defaults());
        assertEquals(new ServerSettings("0.0.0.0", 9000, 3, 65_536, 10, 2, 7, 1L << 20), settings);
        assertTrue(rejected.isEmpty(), rejected::toString);
    }

    @Test
    void aBadValueKeepsThePreviousValueAndSaysWhy() {
        ServerSettings previous = parse(Map.of("port", "9000", "idleTimeoutSeconds", "10"), ServerSettings.defaults());
        ServerSettings next = parse(Map.of("port", "ninety", "idleTimeoutSeconds", "-1", "requestTimeoutSeconds", "5"),
                previous);
        assertEquals(9000, next.port());
        assertEquals(10, next.idleTimeoutSeconds());
        assertEquals(5, next.requestTimeoutSeconds(), "the good value beside the bad ones applies");
        assertEquals(List.of("port=ninety is not an integer; keeping port=9000",
                "idleTimeoutSeconds=-1 is outside 0..86400; keeping idleTimeoutSeconds=10"), rejected);
    }

    @Test
    void everyKeyRejectsValuesOutsideItsRange() {
        ServerSettings defaults = ServerSettings.defaults();
        Map<String, Object> bad = new HashMap<>();
        bad.put("host", "two words");
        bad.put("port", "65536");
        bad.put("ioThreads", "0");
        bad.put("maxFrameBytes", "1023");
        bad.put("idleTimeoutSeconds", "86401");
        bad.put("authTimeoutSeconds", "0");
        bad.put("requestTimeoutSeconds", "0");
        bad.put("slowConsumerBytes", "1000");
        assertEquals(defaults, parse(bad, defaults));
        assertEquals(bad.size(), rejected.size(), rejected::toString);
    }

    @Test
    void valuesOfTheWrongTypeAreRejected() {
        ServerSettings defaults = ServerSettings.defaults();
        assertEquals(defaults, parse(Map.of("port", 7.5, "host", 42, "maxFrameBytes", true), defaults));
        assertEquals(3, rejected.size(), rejected::toString);
    }

    @Test
    void aKeyThatDisappearsReturnsToItsDefault() {
        ServerSettings changed = parse(Map.of("port", "9000"), ServerSettings.defaults());
        assertEquals(7878, parse(Map.of(), changed).port());
    }

    @Test
    void unknownKeysAreReportedButFrameworkKeysAreNot() {
        Map<String, Object> properties = Map.of("prot", "1", "host", "h", "service.pid", "io.troupe.server",
                "felix.fileinstall.filename", "file:/x", "component.id", 3L);
        assertEquals(List.of("prot"), ServerSettings.unknownKeys(properties));
    }

    @Test
    void sessionLimitsCarryTheTimeoutsAndTheFrameLimit() {
        ServerSettings settings = parse(Map.of("idleTimeoutSeconds", "0", "requestTimeoutSeconds", "3"),
                ServerSettings.defaults());
        assertEquals(Duration.ofSeconds(3), settings.sessionLimits().requestTimeout());
        assertFalse(settings.sessionLimits().closesIdleSessions());
        assertEquals(1_048_576, settings.sessionLimits().maxFrameBytes());
    }

    @Test
    void theInputBufferAlwaysHoldsTheLargestFrame() {
        ServerSettings big = parse(Map.of("maxFrameBytes", "16777216"), ServerSettings.defaults());
        ConnectionOptions options = big.connectionOptions();
        assertTrue(options.maxInputBuffer() >= 16_777_216 + FrameDecoder.LENGTH_FIELD_BYTES);
        assertEquals(16L << 20, options.maxPendingOutput());
    }

    @Test
    void aSmallSlowConsumerLimitStillMakesValidOptions() {
        ServerSettings small = parse(Map.of("slowConsumerBytes", "65536"), ServerSettings.defaults());
        ConnectionOptions options = small.connectionOptions();
        assertEquals(65_536, options.maxPendingOutput());
        assertTrue(options.highWaterMark() <= 65_536);
    }

    @Test
    void onlyAddressAndConnectionOptionsNeedARebind() {
        ServerSettings base = ServerSettings.defaults();
        assertFalse(base.needsRebind(parse(Map.of("idleTimeoutSeconds", "5", "requestTimeoutSeconds", "1"), base)));
        assertTrue(base.needsRebind(parse(Map.of("port", "7879"), base)));
        assertTrue(base.needsRebind(parse(Map.of("host", "localhost"), base)));
        assertTrue(base.needsRebind(parse(Map.of("slowConsumerBytes", "65536"), base)));
        assertTrue(base.needsRebind(parse(Map.of("maxFrameBytes", "8388608"), base)));
        assertFalse(base.needsRebind(parse(Map.of("maxFrameBytes", "4096"), base)),
                "a smaller frame limit fits the buffer the connections already have");
    }

    private ServerSettings parse(Map<String, ?> properties, ServerSettings previous) {
        return ServerSettings.parse(properties, previous, rejected::add);
    }
}
