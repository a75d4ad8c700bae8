package io.troupe.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import io.troupe.api.net.AdmissionLimits;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.protocol.FrameDecoder;
import io.troupe.config.ConfigurationProblem;
import io.troupe.server.tls.ClientAuth;
import io.troupe.server.tls.TlsSettings;

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

    @Test
    void tlsIsOffByDefaultAndAdmissionIsDerived() {
        ServerSettings settings = ServerSettings.defaults();
        assertFalse(settings.tls().enabled());
        assertFalse(settings.allowPlaintext());
        assertEquals(List.of("TLSv1.3"), settings.tls().protocols());
        assertEquals(ClientAuth.NONE, settings.tls().clientAuth());
        assertEquals(List.of(0, 0, 0, 0), List.of(settings.maxConnections(), settings.maxConnectionsPerAddress(),
                settings.maxUnauthenticatedConnections(), settings.reservedFileDescriptors()));
        assertEquals(new AdmissionLimits(896, 112, 224), settings.admission(OptionalLong.of(1024)).limits());
    }

    @Test
    void everyTlsAndAdmissionKeyIsRead() {
        Map<String, Object> properties = new HashMap<>();
        properties.put("allowPlaintext", "true");
        properties.put("tls.keystore", "etc/tls/server.p12");
        properties.put("tls.keystorePassword", "secret-one");
        properties.put("tls.keystorePasswordFile", "etc/tls/server.pass");
        properties.put("tls.protocols", "TLSv1.3, TLSv1.2");
        properties.put("tls.clientAuth", "need");
        properties.put("tls.truststore", "etc/tls/clients.p12");
        properties.put("tls.truststorePassword", "secret-two");
        properties.put("tls.truststorePasswordFile", "etc/tls/clients.pass");
        properties.put("maxConnections", "500");
        properties.put("maxConnectionsPerAddress", "50");
        properties.put("maxUnauthenticatedConnections", "100");
        properties.put("reservedFileDescriptors", "200");
        ServerSettings settings = parse(properties, ServerSettings.defaults());
        assertTrue(rejected.isEmpty(), rejected::toString);
        assertTrue(settings.allowPlaintext());
        assertEquals(new TlsSettings("etc/tls/server.p12", "secret-one", "etc/tls/server.pass",
                List.of("TLSv1.3", "TLSv1.2"), ClientAuth.NEED, "etc/tls/clients.p12", "secret-two",
                "etc/tls/clients.pass"), settings.tls());
        assertTrue(settings.tls().enabled());
        assertEquals(new AdmissionLimits(500, 50, 100), settings.admission(OptionalLong.of(1024)).limits());
        assertEquals(200, settings.admission(OptionalLong.of(1024)).reserved());
        assertFalse(settings.tls().toString().contains("secret"), "passwords never in toString");
    }

    @Test
    void anyProtocolButTls13AndTls12IsRefused() {
        ServerSettings previous = parse(Map.of("tls.protocols", "TLSv1.2,TLSv1.3"), ServerSettings.defaults());
        for (String bad : List.of("TLSv1.1", "TLSv1.3,TLSv1", "SSLv3", " , ", "tlsv1.3")) {
            rejected.clear();
            ServerSettings next = parse(Map.of("tls.protocols", bad), previous);
            assertEquals(List.of("TLSv1.2", "TLSv1.3"), next.tls().protocols(), bad);
            assertEquals(1, rejected.size(), bad);
            assertEquals("tls.protocols", rejected.get(0).key());
            assertEquals("TLSv1.2, TLSv1.3", rejected.get(0).kept());
        }
        assertEquals("tls.protocols = 'tlsv1.3': 'tlsv1.3' is not allowed: only TLSv1.3 and TLSv1.2 (older versions "
                + "are broken); keeping TLSv1.2, TLSv1.3", rejected.get(0).describe());
    }

    @Test
    void badTlsAndAdmissionValuesAreRefusedWithTheirReason() {
        Map<String, Object> bad = new HashMap<>();
        bad.put("tls.clientAuth", "required");
        bad.put("allowPlaintext", "yes");
        bad.put("maxConnections", "-1");
        bad.put("maxConnectionsPerAddress", "many");
        bad.put("maxUnauthenticatedConnections", "2147483648");
        bad.put("reservedFileDescriptors", "-5");
        ServerSettings defaults = ServerSettings.defaults();
        assertEquals(defaults, parse(bad, defaults));
        assertEquals(List.of(
                "allowPlaintext = 'yes': not true or false; keeping false",
                "tls.clientAuth = 'required': not one of none, want, need; keeping none",
                "maxConnections = '-1': below the minimum 0; keeping 0",
                "maxConnectionsPerAddress = 'many': not an integer; keeping 0",
                "maxUnauthenticatedConnections = '2147483648': above the maximum 2147483647; keeping 0",
                "reservedFileDescriptors = '-5': below the minimum 0; keeping 0"),
                rejected.stream().map(ConfigurationProblem::describe).toList());
    }

    @Test
    void aBlankOptionalNumberIsAProblemNotAnException() {
        ServerSettings defaults = ServerSettings.defaults();
        assertEquals(defaults, parse(Map.of("felix.fileinstall.filename", FILE, "maxConnections", ""), defaults),
                "the line 'maxConnections =' a fuzzer found failing the parse with a NumberFormatException");
        assertEquals(List.of("file /opt/troupe/etc/io.troupe.server.cfg: maxConnections = '': blank; keeping 0"),
                messages());
    }

    @Test
    void aBlankOrWhiteSpaceValueOfANumberBooleanOrOptionKeyKeepsThePreviousValue() {
        Map<String, Object> good = new HashMap<>();
        good.put("port", "9000");
        good.put("ioThreads", "3");
        good.put("slowConsumerBytes", "65536");
        good.put("allowPlaintext", "true");
        good.put("tls.clientAuth", "want");
        good.put("maxConnections", "500");
        good.put("maxConnectionsPerAddress", "50");
        good.put("maxUnauthenticatedConnections", "100");
        good.put("reservedFileDescriptors", "200");
        ServerSettings previous = parse(good, ServerSettings.defaults());
        assertTrue(rejected.isEmpty(), rejected::toString);
        for (String blank : List.of("", " ", "\t", "  \t ")) {
            rejected.clear();
            Map<String, Object> blanks = new HashMap<>();
            good.keySet().forEach(key -> blanks.put(key, blank));
            assertEquals(previous, parse(blanks, previous), "every key keeps its value: '" + blank + "'");
            String shown = " = '" + blank + "': ";
            assertEquals(List.of("port" + shown + "blank; keeping 9000", "ioThreads" + shown + "blank; keeping 3",
                    "slowConsumerBytes" + shown + "blank; keeping 65536",
                    "allowPlaintext" + shown + "blank; keeping true",
                    "tls.clientAuth" + shown + "not one of none, want, need; keeping want",
                    "maxConnections" + shown + "blank; keeping 500",
                    "maxConnectionsPerAddress" + shown + "blank; keeping 50",
                    "maxUnauthenticatedConnections" + shown + "blank; keeping 100",
                    "reservedFileDescriptors" + shown + "blank; keeping 200"),
                    rejected.stream().map(ConfigurationProblem::describe).toList());
        }
    }

    @Test
    void passwordsAreMaskedInProblems() {
        parse(Map.of("tls.keystorePassword", List.of("a", "b")), ServerSettings.defaults());
        assertEquals(List.of("tls.keystorePassword = '***': a list where one value is expected; keeping ***"),
                rejected.stream().map(ConfigurationProblem::describe).toList());
    }

    @Test
    void turningTlsOnOrChangingAdmissionRebindsButOtherTlsKeysDoNot() {
        ServerSettings base = ServerSettings.defaults();
        ServerSettings tls = parse(Map.of("tls.keystore", "a.p12"), base);
        assertTrue(base.needsRebind(tls));
        assertFalse(tls.needsRebind(parse(Map.of("tls.keystore", "b.p12", "tls.protocols", "TLSv1.2"), base)),
                "a new context is swapped into the listener");
        assertTrue(base.needsRebind(parse(Map.of("allowPlaintext", "true"), base)));
        for (String key : List.of("maxConnections", "maxConnectionsPerAddress", "maxUnauthenticatedConnections",
                "reservedFileDescriptors")) {
            assertTrue(base.needsRebind(parse(Map.of(key, "77"), base)), key);
        }
    }

    private List<String> messages() {
        return rejected.stream().map(ConfigurationProblem::toString).toList();
    }

    private ServerSettings parse(Map<String, ?> properties, ServerSettings previous) {
        return ServerSettings.parse(properties, previous, rejected::add);
    }
}
