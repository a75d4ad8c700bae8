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
import io.troupe.config.ConfigurationProblem;

/**
 * The server's settings read through the typed model ({@link ServerConfiguration} and the metatype
 * document bnd generated from it in target/classes).
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class ServerSettingsTest {

    private static final String FILE = "file:/opt/troupe/etc/io.troupe.server.cfg";

    private final List<ConfigurationProblem> rejected = new ArrayList<>();

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
        assertEquals(List.of("0.0.0.0", 9000, 3, 65_536, 10, 2, 7, 1L << 20), List.of(settings.host(),
                settings.port(), settings.ioThreads(), settings.maxFrameBytes(), settings.idleTimeoutSeconds(),
                settings.authTimeoutSeconds(), settings.requestTimeoutSeconds(), settings.slowConsumerBytes()));
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
        assertEquals(List.of("configuration io.troupe.server: port = 'ninety': not an integer; keeping 9000",
                "configuration io.troupe.server: idleTimeoutSeconds = '-1': below the minimum 0; keeping 10"),
                messages());
    }

    @Test
    void aBadValueInAFileIsReportedWithTheFileKeyValueAndReason() {
        ServerSettings next = parse(Map.of("felix.fileinstall.filename", FILE, "maxFrameBytes", "abc"),
                ServerSettings.defaults());
        assertEquals(1_048_576, next.maxFrameBytes());
        assertEquals(List.of("file /opt/troupe/etc/io.troupe.server.cfg: maxFrameBytes = 'abc': not an integer; "
                + "keeping 1048576"), messages());
    }

    @Test
    void eachKindOfBadValueHasItsReason() {
        parse(Map.of("port", "70000", "authTimeoutSeconds", "0", "maxFrameBytes", "99999999999",
                "host", " ", "slowConsumerBytes", List.of("1", "2"), "requestTimeoutSeconds", "2.5"),
                ServerSettings.defaults());
        assertEquals(List.of(
                "configuration io.troupe.server: host = ' ': blank; keeping 127.0.0.1",
                "configuration io.troupe.server: port = '70000': above the maximum 65535; keeping 7878",
                "configuration io.troupe.server: maxFrameBytes = '99999999999': above the maximum 268435456; "
                        + "keeping 1048576",
                "configuration io.troupe.server: authTimeoutSeconds = '0': below the minimum 1; keeping 5",
                "configuration io.troupe.server: requestTimeoutSeconds = '2.5': not an integer; keeping 30",
                "configuration io.troupe.server: slowConsumerBytes = '[1, 2]': a list where one value is expected; "
                        + "keeping 16777216"), messages());
    }

    @Test
    void everyKeyRejectsValuesOutsideItsRange() {
        ServerSettings defaults = ServerSettings.defaults();
        Map<String, Object> bad = new HashMap<>();
        bad.put("host", "two words");
        bad.put("port", "65536");
        bad.put("ioThreads", "1025");
        bad.put("maxFrameBytes", "1023");
        bad.put("idleTimeoutSeconds", "86401");
        bad.put("authTimeoutSeconds", "0");
        bad.put("requestTimeoutSeconds", "0");
        bad.put("slowConsumerBytes", "1000");
        assertEquals(defaults, parse(bad, defaults));
        assertEquals(bad.size(), rejected.size(), rejected::toString);
        assertEquals("host = 'two words': a host name or address has no blanks; keeping 127.0.0.1",
                rejected.get(rejected.size() - 1).describe());
    }

    @Test
    void valuesOfTheWrongTypeAreRejected() {
        ServerSettings defaults = ServerSettings.defaults();
        assertEquals(defaults, parse(Map.of("port", 7.5, "host", 42, "maxFrameBytes", true), defaults));
        assertEquals(List.of("configuration io.troupe.server: host = '42': not a string (given as Integer); "
                + "keeping 127.0.0.1", "configuration io.troupe.server: port = '7.5': not an integer; keeping 7878",
                "configuration io.troupe.server: maxFrameBytes = 'true': not an integer; keeping 1048576"),
                messages());
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

    @Test
    void aValueRefusedTwiceKeepsTheValueAcceptedBeforeBoth() {
        ServerSettings first = parse(Map.of("port", "9000"), ServerSettings.defaults());
        ServerSettings second = parse(Map.of("port", "x"), first);
        ServerSettings third = parse(Map.of("port", "y"), second);
        assertEquals(9000, third.port());
        assertEquals("port = 'y': not an integer; keeping 9000", rejected.get(1).describe());
    }

    @Test
    void theDefaultsAreTheTypedModelsDefaults() {
        ServerSettings defaults = ServerSettings.defaults();
        assertEquals(Runtime.getRuntime().availableProcessors(), defaults.ioThreads(),
                "ioThreads 0 (not set) means the number of cores");
        assertEquals(FrameDecoder.DEFAULT_MAX_FRAME_BYTES, defaults.maxFrameBytes());
    }

    private List<String> messages() {
        return rejected.stream().map(ConfigurationProblem::toString).toList();
    }

    private ServerSettings parse(Map<String, ?> properties, ServerSettings previous) {
        return ServerSettings.parse(properties, previous, rejected::add);
    }
}
