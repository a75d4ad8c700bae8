package io.troupe.client.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.troupe.client.TestCertificates;
import io.troupe.client.TestServer;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.testsupport.Await;
import io.troupe.testsupport.HostStatus;
import io.troupe.testsupport.TestJars;

class MainTest {

    @TempDir
    Path home;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Map<String, String> systemProperties = new HashMap<>();
    private final Map<String, String> environment = new HashMap<>();
    private TestServer server;

    @BeforeEach
    void startServer() throws IOException {
        server = TestServer.start("s3cret");
    }

    @AfterEach
    void stopServer() throws IOException {
        server.close();
    }

    private int run(String... args) {
        return runWithInput(new byte[0], args);
    }

    private int runWithInput(byte[] input, String... args) {
        Main main = new Main(new ByteArrayInputStream(input), new PrintStream(out, true, UTF_8),
                new PrintStream(err, true, UTF_8), systemProperties::get, environment::get);
        return main.run(args);
    }

    private String[] withCredentials(String... args) {
        environment.put("TROUPE_TOKEN", "s3cret");
        Stream<String> credentials = Stream.of("--port", String.valueOf(server.port()), "--tenant", "acme");
        return Stream.concat(credentials, Stream.of(args)).toArray(String[]::new);
    }

    private String stdout() {
        return out.toString(UTF_8);
    }

    private String stderr() {
        return err.toString(UTF_8);
    }

    @Test
    void requestPrintsTheReplyFollowedByANewlineAndExitsZero() {
        assertEquals(0, run(withCredentials("request", "echo", "héllo wörld")));

        assertEquals("héllo wörld\n", stdout());
        assertEquals("", stderr());
    }

    @Test
    void anErrorAnswerPrintsCodeAndDetailOnStandardErrorAndExitsTwo() {
        server.handler((peer, frame) -> {
            if (frame.type() == FrameType.REQUEST) {
                peer.error(frame, ErrorCode.NO_HANDLER, "no handler named '" + frame.name() + "'");
            } else {
                TestServer.ECHO.onFrame(peer, frame);
            }
        });

        assertEquals(2, run(withCredentials("request", "nope", "x")));

        assertEquals("no.handler: no handler named 'nope'\n", stderr());
        assertEquals("", stdout());
    }

    @Test
    void aWrongTokenExitsTwoWithAuthFailed() {
        assertEquals(2, run("--port", String.valueOf(server.port()), "--tenant", "acme", "--token", "wrong",
                "request", "echo", "x"));

        assertTrue(stderr().startsWith("troupe-client: warning: --token shows the token to every user of this "
                + "machine (ps); use --token-file FILE or the environment variable TROUPE_TOKEN\nauth.failed: "),
                stderr());
    }

    @Test
    void theTokenIsReadFromAFileOrTheEnvironment() throws Exception {
        Path tokenFile = Files.writeString(home.resolve("acme.token"), "s3cret\n");
        assertEquals(0, run("--port", String.valueOf(server.port()), "--tenant", "acme", "--token-file",
                tokenFile.toString(), "request", "echo", "a"), stderr());
        environment.put("TROUPE_TOKEN", " s3cret ");
        assertEquals(0, run("--port", String.valueOf(server.port()), "--tenant", "acme", "request", "echo", "b"),
                stderr());
        assertEquals("a\nb\n", stdout());
        assertEquals("", stderr(), "no warning without --token");
    }

    @Test
    void aTokenFileThatCannotBeUsedIsAUsageError() throws IOException {
        Path missing = home.resolve("none.token");
        assertEquals(64, run("--tenant", "acme", "--token-file", missing.toString(), "request", "echo", "x"));
        assertTrue(stderr().startsWith("troupe-client: --token-file " + missing + ": no such file"), stderr());
        err.reset();
        Path empty = Files.writeString(home.resolve("empty.token"), "\n");
        assertEquals(64, run("--tenant", "acme", "--token-file", empty.toString(), "request", "echo", "x"));
        assertTrue(stderr().startsWith("troupe-client: --token-file " + empty + ": its first line is empty"),
                stderr());
        err.reset();
        assertEquals(64, run("--tenant", "acme", "--token", "a", "--token-file", empty.toString(), "request", "echo",
                "x"));
        assertTrue(stderr().contains("--token and --token-file both give the token: give one"), stderr());
    }

    @Test
    void inAnInstallationTheTenantsTokenFileWinsOverItsConfiguration() throws Exception {
        writeConfig("io.troupe.server.cfg", "port = " + server.port() + "\n");
        writeConfig("io.troupe.tenant-demo.cfg", "tokenHash = pbkdf2-sha256$1$AA$AA\n");
        writeConfig("io.troupe.tenant-demo.token", "s3cret\n");
        systemProperties.put("troupe.home", home.toString());

        assertEquals(0, run("request", "echo", "hi"), stderr());
        assertEquals("s3cret", server.hellos.take().text());
    }

    @Test
    void tlsOptionsReachTheServerWithTheTrustStoreAndHostNameVerification() throws Exception {
        server.close();
        Path keys = TestCertificates.keystore(home.resolve("server.p12"), "troupe", "dns:localhost,ip:127.0.0.1");
        Path trust = TestCertificates.truststore(keys, home.resolve("trust.p12"));
        Path password = Files.writeString(home.resolve("trust.pass"), TestCertificates.PASSWORD + "\n");
        char[] secret = TestCertificates.PASSWORD.toCharArray();
        server = TestServer.startTls("s3cret", io.troupe.client.TlsContexts.of(null, null, keys, secret), false);
        environment.put("TROUPE_TOKEN", "s3cret");

        assertEquals(0, run("--host", "localhost", "--port", String.valueOf(server.port()), "--tenant", "acme",
                "--truststore", trust.toString(), "--truststore-password-file", password.toString(), "request", "echo",
                "over tls"), stderr());
        assertEquals("over tls\n", stdout());

        assertEquals(3, run("--port", String.valueOf(server.port()), "--tenant", "acme", "request", "echo", "x"),
                "plaintext against a TLS server gets no WELCOME");

        err.reset();
        assertEquals(64, run("--port", String.valueOf(server.port()), "--tenant", "acme", "--truststore",
                trust.toString(), "request", "echo", "x"));
        assertTrue(stderr().startsWith("troupe-client: trust store " + trust + ": wrong password"), stderr());
    }

    @Test
    void anInstallationWithTlsConfiguredUsesItsTrustStore() throws Exception {
        server.close();
        Files.createDirectories(home.resolve("etc/tls"));
        Path keys = TestCertificates.keystore(home.resolve("etc/tls/server.p12"), "troupe", "ip:127.0.0.1");
        TestCertificates.truststore(keys, home.resolve("etc/tls/trust.p12"));
        writeConfig("tls/trust.pass", TestCertificates.PASSWORD + "\n");
        char[] secret = TestCertificates.PASSWORD.toCharArray();
        server = TestServer.startTls("s3cret", io.troupe.client.TlsContexts.of(null, null, keys, secret), false);
        writeConfig("io.troupe.server.cfg", "port = " + server.port() + "\ntls.keystore = etc/tls/server.p12\n");
        writeConfig("io.troupe.tenant-demo.token", "s3cret\n");
        systemProperties.put("troupe.home", home.toString());

        assertEquals(0, run("request", "echo", "hi"), stderr());
        assertEquals("hi\n", stdout());
    }

    @Test
    void tlsOnlyOptionsWithoutTlsAreAUsageError() {
        environment.put("TROUPE_TOKEN", "b");
        assertEquals(64, run("--tenant", "a", "--no-hostname-verification", "request", "echo", "x"));
        assertTrue(stderr().contains("apply with TLS only: add --tls"), stderr());
    }

    @Test
    void nothingListeningExitsThreeWithAClearMessage() throws IOException {
        server.stopListening();

        assertEquals(3, run(withCredentials("request", "echo", "x")));

        assertTrue(stderr().startsWith("troupe-client: cannot connect to 127.0.0.1:" + server.port() + ": "), stderr());
        assertEquals("", stdout());
    }

    @Test
    void noReplyInTimeExitsThree() {
        server.handler((peer, frame) -> {
            if (frame.type() == FrameType.BYE) {
                peer.close();
            }
        });

        assertEquals(3, run(withCredentials("--timeout", "200ms", "request", "echo", "x")));

        assertTrue(stderr().startsWith("troupe-client: no reply from 127.0.0.1:"), stderr());
    }

    @Test
    void connectionOptionsMayFollowTheCommandInEitherSpelling() {
        assertEquals(0, run("request", "echo", "hi", "--port=" + server.port(), "--tenant", "acme", "--token=s3cret"));

        assertEquals("hi\n", stdout());
    }

    @Test
    void aDashReadsTheContentFromStandardInput() {
        assertEquals(0, runWithInput("from stdin".getBytes(UTF_8), withCredentials("request", "echo", "-")));

        assertEquals("from stdin\n", stdout());
    }

    @Test
    void contentStartingWithDashesFollowsADoubleDash() {
        assertEquals(0, run(withCredentials("request", "echo", "--", "--not-an-option")));

        assertEquals("--not-an-option\n", stdout());
    }

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of(List.of(), "no command"),
                Arguments.of(List.of("frobnicate"), "unknown command 'frobnicate'"),
                Arguments.of(List.of("--tenant", "a", "--token", "b", "request", "echo"),
                        "request needs NAME and CONTENT"),
                Arguments.of(List.of("--port", "x", "--tenant", "a", "--token", "b", "request", "echo", "c"),
                        "--port must be a whole number from 1 to 65535: 'x'"),
                Arguments.of(List.of("--bogus", "1", "request", "a", "b"), "unknown option --bogus"),
                Arguments.of(List.of("-x", "request", "a", "b"), "unknown option -x"),
                Arguments.of(List.of("--tenant"), "--tenant needs a value"),
                Arguments.of(List.of("--pipeline", "2", "request", "a", "b"), "--pipeline is a bench option"),
                Arguments.of(List.of("request", "a", "b"), "no tenant"),
                Arguments.of(List.of("--tenant", "acme", "request", "a", "b"), "no token for tenant 'acme'"),
                Arguments.of(List.of("--tenant", "a", "--token", "b", "bench", "--duration", "soon"),
                        "--duration must be a duration"),
                Arguments.of(List.of("--tenant", "a", "--token", "b", "bench", "--connections", "0"),
                        "--connections must be a whole number from 1"),
                Arguments.of(List.of("deploy"), "deploy needs JAR"),
                Arguments.of(List.of("deploy", "kv.jar"), "no deploy folder: give --deploy-dir DIR"),
                Arguments.of(List.of("--port", "1", "deploy", "--deploy-dir", "d", "kv.jar"),
                        "deploy copies into a folder and connects to no server"),
                Arguments.of(List.of("deploy", "--tenant", "a", "kv.jar"), "unknown option --tenant"),
                Arguments.of(List.of("deploy", "--timeout", "0s", "kv.jar"), "--timeout must be positive"),
                Arguments.of(List.of("--host", "a:1,,b", "--tenant", "a", "--token", "b", "request", "a", "b"),
                        "--host has an empty server address: 'a:1,,b'"),
                Arguments.of(List.of("--host", "a:1,b:x", "--tenant", "a", "--token", "b", "request", "a", "b"),
                        "--host: server address 'b:x' is not HOST[:PORT]: the port must be a whole number"),
                Arguments.of(List.of("--idempotent", "--tenant", "a", "--token", "b", "request", "a", "b"),
                        "--idempotent is an option of bench and request"));
    }

    @ParameterizedTest
    @MethodSource("badCommandLines")
    void aBadCommandLinePrintsTheProblemAndAShortUsageAndExits64(List<String> args, String problem) {
        assertEquals(64, run(args.toArray(String[]::new)));

        assertTrue(stderr().startsWith("troupe-client: " + problem), stderr());
        assertTrue(stderr().contains("\nusage: troupe-client "), stderr());
        assertTrue(stderr().endsWith(" --help' for more information\n"), stderr());
        assertTrue(stderr().lines().count() <= 6, "a short usage, not the help: " + stderr());
        assertEquals("", stdout());
    }

    @Test
    void aUsageErrorOfACommandShowsThatCommandsSynopsis() {
        assertEquals(64, run("--tenant", "a", "--token", "b", "request", "echo"));

        assertEquals("troupe-client: request needs NAME and CONTENT\n"
                + "usage: troupe-client [OPTIONS] request NAME CONTENT\n"
                + "try 'troupe-client request --help' for more information\n", stderr());
    }

    @Test
    void helpPrintsTheUsageOnStandardOutputAndExitsZero() {
        assertEquals(0, run("--help"));

        assertTrue(stdout().startsWith("usage: troupe-client [OPTIONS] request NAME CONTENT"), stdout());
        assertTrue(stdout().contains("exit status: 0 success;"), stdout());
        assertEquals("", stderr());
    }

    @Test
    void helpAfterACommandPrintsThatCommandsOptions() {
        assertEquals(0, run("bench", "--help"));

        assertTrue(stdout().startsWith("usage: troupe-client [OPTIONS] bench [BENCH OPTIONS]"), stdout());
        assertTrue(stdout().contains("--pipeline=N"), stdout());
        assertEquals("", stderr());
    }

    @Test
    void inAnInstallationTheDefaultsComeFromItsConfiguration() throws Exception {
        writeConfig("io.troupe.server.cfg", "host = 0.0.0.0\nport = " + server.port() + "\n");
        writeConfig("io.troupe.tenant-demo.cfg", "# the demo tenant\ntoken = s3cret\n");
        systemProperties.put("troupe.home", home.toString());

        assertEquals(0, run("request", "echo", "hi"), stderr());

        assertEquals("hi\n", stdout());
        Frame hello = server.hellos.take();
        assertEquals("demo", hello.name());
        assertEquals("s3cret", hello.text());
    }

    @Test
    void optionsOverrideTheInstallationsConfiguration() throws Exception {
        writeConfig("io.troupe.server.cfg", "port = 1\n");
        writeConfig("io.troupe.tenant-demo.cfg", "token = stale\n");
        systemProperties.put("troupe.home", home.toString());

        assertEquals(0, run("--port", String.valueOf(server.port()), "--token", "s3cret", "request", "echo", "hi"));

        assertEquals("demo", server.hellos.take().name());
    }

    @Test
    void aBadPortInTheInstallationsConfigurationIsReported() throws Exception {
        writeConfig("io.troupe.server.cfg", "port = seventy\n");
        writeConfig("io.troupe.tenant-demo.cfg", "token = s3cret\n");
        systemProperties.put("troupe.home", home.toString());

        assertEquals(64, run("request", "echo", "hi"));

        assertTrue(stderr().startsWith("troupe-client: port in " + home.resolve("etc/io.troupe.server.cfg")),
                stderr());
    }

    @Test
    void benchRunsAgainstTheEchoServerAndPrintsItsReport() {
        int status = run(withCredentials("bench", "--connections", "4", "--pipeline", "4", "--size", "32",
                "--duration", "1s", "--warmup", "200ms", "--threads", "2"));

        assertEquals(0, status, stderr());
        List<String> lines = stdout().lines().toList();
        List<String> expected = List.of(
                "target: acme@127\\.0\\.0\\.1:" + server.port() + " echo",
                "connections: 4",
                "pipeline: 4",
                "rate: max",
                "size: 32 bytes",
                "payload: random",
                "warmup: 0\\.200 s",
                "duration: 1\\.000 s",
                "requests: [1-9]\\d*",
                "throughput: \\d+\\.\\d requests/s",
                "latency p50: (\\d+ us|\\d+\\.\\d{3} ms)",
                "latency p99: (\\d+ us|\\d+\\.\\d{3} ms)",
                "latency p99\\.9: (\\d+ us|\\d+\\.\\d{3} ms)",
                "latency max: (\\d+ us|\\d+\\.\\d{3} ms)",
                "errors: 0");
        assertEquals(expected.size(), lines.size(), stdout());
        for (int i = 0; i < expected.size(); i++) {
            assertTrue(Pattern.matches(expected.get(i), lines.get(i)), lines.get(i) + " !~ " + expected.get(i));
        }
    }

    @Test
    void benchCountsEchoesThatDifferFromTheirRequestsAndExitsTwo() {
        server.handler((peer, frame) -> {
            if (frame.type() == FrameType.REQUEST) {
                peer.reply(frame, "not what was sent".getBytes(UTF_8));
            } else {
                TestServer.ECHO.onFrame(peer, frame);
            }
        });

        int status = run(withCredentials("bench", "--connections", "2", "--pipeline", "2", "--duration", "300ms",
                "--warmup", "0s"));

        assertEquals(2, status, stderr());
        assertTrue(Pattern.compile("^errors: (\\d+) \\(mismatch \\1\\)$", Pattern.MULTILINE).matcher(stdout()).find(),
                stdout());
        assertTrue(stdout().contains("requests: 0\n"), stdout());
    }

    /** A handler that answers only "hello" (as a handler that checks its input would), recording what it got. */
    private Set<String> answerOnlyHello() {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        server.handler((peer, frame) -> {
            if (frame.type() != FrameType.REQUEST) {
                TestServer.ECHO.onFrame(peer, frame);
                return;
            }
            seen.add(frame.text());
            if (frame.text().equals("héllo")) {
                peer.reply(frame, frame.content());
            } else {
                peer.error(frame, ErrorCode.BAD_REQUEST, "not a greeting");
            }
        });
        return seen;
    }

    @Test
    void benchWithAFixedPayloadSendsThoseBytesOnEveryRequest() {
        Set<String> seen = answerOnlyHello();

        int status = run(withCredentials("bench", "--connections", "2", "--pipeline", "4", "--payload", "héllo",
                "--duration", "500ms", "--warmup", "0s"));

        assertEquals(0, status, stderr());
        assertEquals(Set.of("héllo"), seen);
        assertTrue(stdout().contains("size: 6 bytes\npayload: text\n"), stdout());
        assertTrue(Pattern.compile("^requests: [1-9]\\d*$", Pattern.MULTILINE).matcher(stdout()).find(), stdout());
        assertTrue(stdout().endsWith("errors: 0\n"), stdout());
    }

    @Test
    void benchWithAPayloadFileSendsItsBytes() throws IOException {
        Set<String> seen = answerOnlyHello();
        Path file = Files.write(home.resolve("greeting.bin"), "héllo".getBytes(UTF_8));

        int status = run(withCredentials("bench", "--connections", "1", "--pipeline", "2", "--payload-file",
                file.toString(), "--duration", "300ms", "--warmup", "0s"));

        assertEquals(0, status, stderr());
        assertEquals(Set.of("héllo"), seen);
        assertTrue(stdout().contains("payload: file " + file + "\n"), stdout());
    }

    @Test
    void benchWithRandomPayloadsAgainstACheckingHandlerCountsItsErrorsByCode() {
        answerOnlyHello();

        int status = run(withCredentials("bench", "--connections", "1", "--pipeline", "2", "--duration", "300ms",
                "--warmup", "0s"));

        assertEquals(2, status, stderr());
        assertTrue(Pattern.compile("^errors: (\\d+) \\(bad\\.request \\1\\)$", Pattern.MULTILINE)
                .matcher(stdout()).find(), stdout());
    }

    @Test
    void benchPrintsAProgressLineEverySecondOnStandardError() {
        int status = run(withCredentials("bench", "--connections", "2", "--pipeline", "2", "--duration", "2500ms",
                "--warmup", "0s"));

        assertEquals(0, status, stderr());
        List<String> progress = stderr().lines().filter(line -> line.contains("requests/s")).toList();
        assertTrue(progress.size() >= 1 && progress.size() <= 2, stderr());
        Pattern line = Pattern.compile("troupe-client bench: +\\d+s measuring: +[1-9]\\d* requests/s, "
                + "p50 (\\d+ us|\\d+\\.\\d{3} ms), p99 (\\d+ us|\\d+\\.\\d{3} ms), errors 0");
        for (String each : progress) {
            assertTrue(line.matcher(each).matches(), each);
        }
        assertEquals("", stdout().lines().filter(each -> each.contains("requests/s,")).findAny().orElse(""));
    }

    @Test
    void benchAtARateSendsEachRequestWhenDueAndCountsThoseDueInTheWindow() {
        Set<String> seen = answerOnlyHello();

        int status = run(withCredentials("bench", "--connections", "3", "--pipeline", "2", "--rate", "200",
                "--payload", "héllo", "--warmup", "250ms", "--duration", "1s"));

        assertEquals(0, status, stderr());
        assertEquals(Set.of("héllo"), seen);
        assertTrue(stdout().contains("pipeline: 2\nrate: 200 requests/s\n"), stdout());
        // due every 5 ms from the start: 50 in the warm-up, exactly 200 in the measured second
        assertTrue(stdout().contains("\nrequests: 200\nthroughput: 200.0 requests/s\n"), stdout());
        assertTrue(stdout().endsWith("errors: 0\n"), stdout());
    }

    @ParameterizedTest
    @MethodSource("badPayloads")
    void aPayloadThatCannotBeSentIsAUsageError(List<String> bench, String message) {
        environment.put("TROUPE_TOKEN", "s3cret");
        List<String> args = new ArrayList<>(List.of("--tenant", "a", "bench"));
        args.addAll(bench.stream().map(each -> each.replace("HOME", home.toString())).toList());

        assertEquals(64, run(args.toArray(String[]::new)));

        assertTrue(stderr().startsWith("troupe-client: " + message.replace("HOME", home.toString())), stderr());
        assertEquals("", stdout());
    }

    static Stream<Arguments> badPayloads() {
        return Stream.of(
                Arguments.of(List.of("--size", "8", "--payload", "x"),
                        "--size, --payload and --payload-file exclude each other: give one"),
                Arguments.of(List.of("--payload", "x", "--payload-file", "HOME"),
                        "--size, --payload and --payload-file exclude each other: give one"),
                Arguments.of(List.of("--payload-file", "HOME/missing.bin"),
                        "cannot read --payload-file HOME/missing.bin: java.nio.file.NoSuchFileException"),
                Arguments.of(List.of("--payload-file", "HOME"), "--payload-file HOME is a directory"),
                Arguments.of(List.of("--rate", "0"), "--rate must be a whole number from 1 to 10000000: '0'"),
                Arguments.of(List.of("--payload", "x".repeat(BenchOptions.MAX_SIZE + 1)),
                        "--payload has 1000001 bytes; a payload may have at most 1000000"));
    }

    @Test
    void benchWithoutAServerExitsThree() throws IOException {
        server.stopListening();

        assertEquals(3, run(withCredentials("bench", "--connections", "3", "--duration", "1s")));

        assertTrue(stderr().contains("3 of 3 connections failed"), stderr());
        assertEquals("", stdout());
    }

    @Test
    void aListOfServersIsTriedInTurnAndTheFirstThatAnswersServes() throws IOException {
        int dead = deadPort();
        environment.put("TROUPE_TOKEN", "s3cret");

        assertEquals(0, run("--host", "127.0.0.1:" + dead + ", 127.0.0.1:" + server.port(), "--tenant", "acme",
                "request", "echo", "hi"), stderr());
        assertEquals(0, run("--host", "127.0.0.1:" + dead + ",127.0.0.1", "--port", String.valueOf(server.port()),
                "--tenant", "acme", "request", "echo", "again"), stderr());

        assertEquals("hi\nagain\n", stdout());
        assertEquals(2, server.hellos.size());
    }

    @Test
    void whenNoServerOfTheListAnswersTheMessageNamesThemAll() throws IOException {
        int dead = deadPort();
        server.stopListening();

        assertEquals(3, run(withCredentials("--host", "127.0.0.1:" + dead + ",127.0.0.1", "request", "echo", "x")));

        assertTrue(stderr().startsWith("troupe-client: cannot connect to 127.0.0.1:" + dead + ",127.0.0.1:"
                + server.port() + ": "), stderr());
    }

    @Test
    void requestAndBenchFollowARedirectToTheNodeThatServesTheTenant() throws Exception {
        try (TestServer elsewhere = TestServer.start("s3cret")) {
            elsewhere.redirectHellos(server.address());

            environment.put("TROUPE_TOKEN", "s3cret");
            String redirector = "127.0.0.1:" + elsewhere.port();
            assertEquals(0, run("--host", redirector, "--tenant", "acme", "request", "echo", "hi"), stderr());
            assertEquals("hi\n", stdout());
            out.reset();
            assertEquals(0, run("--host", redirector, "--tenant", "acme", "bench", "--connections", "3", "--pipeline",
                    "2", "--duration", "300ms", "--warmup", "0s"), stderr());

            assertTrue(stdout().contains("errors: 0"), stdout());
            assertEquals(4, elsewhere.hellos.size(), "one redirect per connection");
            assertEquals(4, server.hellos.size());
        }
    }

    @Test
    void anIdempotentRequestIsSentAgainAfterALostConnectionAndAnyOtherFailsAsOfUnknownOutcome() {
        AtomicInteger requests = new AtomicInteger();
        // Each odd request's connection is lost before the reply, as when a node crashes.
        server.handler((peer, frame) -> {
            if (frame.type() == FrameType.REQUEST && requests.incrementAndGet() % 2 == 1) {
                peer.close();
            } else {
                TestServer.ECHO.onFrame(peer, frame);
            }
        });

        assertEquals(0, run(withCredentials("request", "--idempotent", "kv.get", "k")), stderr());
        assertEquals("k\n", stdout());
        assertEquals(2, requests.get(), "sent twice");

        assertEquals(3, run(withCredentials("request", "kv.put", "v")));
        assertTrue(stderr().contains("outcome of REQUEST 'kv.put'") && stderr().contains("is unknown"), stderr());
        assertEquals(3, requests.get(), "sent once");
    }

    /** A loopback port nothing listens on: bound, then released. */
    private static int deadPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void deployHelpListsItsOptionsAndNoneThatChoosesAServer() {
        assertEquals(0, run("deploy", "--help"));

        assertTrue(stdout().startsWith("usage: troupe-client deploy [--deploy-dir DIR] [--timeout DURATION] JAR"),
                stdout());
        assertTrue(stdout().contains("--deploy-dir=DIR"), stdout());
        assertFalse(stdout().contains("--host"), stdout());
    }

    @Test
    void deployCopiesTheJarIntoTheInstallationsDeployFolderAndPrintsTheHostsOutcome() throws Exception {
        Path deploy = Files.createDirectories(home.resolve("deploy"));
        systemProperties.put("troupe.home", home.toString());
        Path jar = TestJars.bundle(home.resolve("build/kv.jar"), "kv", "6.0.0");
        Thread host = host(deploy, jar, "running", "6.0.0", null);

        assertEquals(0, run("deploy", "--timeout", "10s", jar.toString()), stderr());

        awaitEnd(host);
        assertEquals("deployed kv 6.0.0 as deploy/kv.jar: running\n", stdout());
        assertEquals("", stderr());
        assertEquals(HostStatus.sha256(jar), HostStatus.sha256(deploy.resolve("kv.jar")));
    }

    @Test
    void aJarTheHostRefusesPrintsTheReasonAndWhatStillRunsAndExitsFour() throws Exception {
        Path deploy = Files.createDirectories(home.resolve("plugins"));
        TestJars.bundle(deploy.resolve("kv.jar"), "kv", "5.0.0");
        Path jar = TestJars.bundle(home.resolve("build/kv.jar"), "kv", "6.0.0");
        Thread host = host(deploy, jar, "rolled-back", "5.0.0", "kv.Store cannot import the state of 5.0.0");

        assertEquals(4, run("deploy", "--deploy-dir", deploy.toString(), "--timeout", "10s", jar.toString()),
                stderr());

        awaitEnd(host);
        assertEquals("ERROR deploy.rejected: kv.Store cannot import the state of 5.0.0\nrunning: kv 5.0.0\n",
                stderr());
        assertEquals("", stdout());
    }

    @Test
    void aJarRefusedBeforeCopyingExitsFourAndChangesNothing() throws Exception {
        Path deploy = Files.createDirectories(home.resolve("deploy"));
        Path text = Files.writeString(home.resolve("kv.jar"), "not a jar");

        assertEquals(4, run("deploy", "--deploy-dir", deploy.toString(), text.toString()));

        assertTrue(stderr().startsWith("ERROR not.a.bundle: " + text + " is not a plugin bundle"), stderr());
        try (Stream<Path> files = Files.list(deploy)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void noOutcomeFromTheHostInTimeExitsFive() throws Exception {
        Path deploy = Files.createDirectories(home.resolve("deploy"));
        Path jar = TestJars.bundle(home.resolve("build/kv.jar"), "kv", "6.0.0");

        assertEquals(5, run("deploy", "--deploy-dir", deploy.toString(), "--timeout", "300ms", jar.toString()));

        assertTrue(stderr().startsWith("ERROR deploy.timeout: the host reported no outcome for deploy/kv.jar within"
                + " 300 ms (is Troupe running, and is " + deploy + " its deploy folder?)"), stderr());
        assertTrue(Files.exists(deploy.resolve("kv.jar")), "the jar stays for the host to find later");
    }

    /**
     * Plays the host's deploy watcher on another thread: once {@code deploy/<jar's name>} holds the
     * bytes of {@code jar}, writes its outcome.
     */
    private static Thread host(Path deploy, Path jar, String outcome, String runningVersion, String reason)
            throws IOException {
        String file = jar.getFileName().toString();
        String expected = HostStatus.sha256(jar);
        Thread host = new Thread(() -> {
            Await.until(file + " is deployed", () -> expected.equals(digestOrNull(deploy.resolve(file))));
            try {
                HostStatus.judge(deploy, file, outcome, "kv", "6.0.0", runningVersion, reason, Instant.now());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "host deploy watcher");
        host.start();
        return host;
    }

    private static void awaitEnd(Thread host) throws InterruptedException {
        host.join(Await.TIMEOUT.toMillis());
        assertFalse(host.isAlive(), "the host thread did not end");
    }

    private static String digestOrNull(Path file) {
        try {
            return HostStatus.sha256(file);
        } catch (IOException e) {
            return null;
        }
    }

    private void writeConfig(String name, String content) throws IOException {
        Files.createDirectories(home.resolve("etc"));
        Files.writeString(home.resolve("etc").resolve(name), content);
    }
}
