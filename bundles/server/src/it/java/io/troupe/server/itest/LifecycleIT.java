package io.troupe.server.itest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;

import io.troupe.api.ActorInfo;
import io.troupe.api.TroupeRuntime;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.testsupport.Await;
import io.troupe.testsupport.TestClient;

/**
 * The server's own life: stopping (as on SIGTERM) while requests are in flight, first start with no
 * tenant (the demo tenant), starting only once tenant files are loaded, and settings that change
 * while it runs.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework (bundle stops also on a helper
 * thread); one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class LifecycleIT extends ServerTest {

    private static final String TENANT = "life";
    private static final String HOME_PROPERTY = "troupe.home";

    private static ServerControl server;
    private static String token;

    @Inject
    private BundleContext context;

    @Inject
    private TroupeRuntime runtime;

    private TestHandlers handlers;
    private final List<Path> temporary = new ArrayList<>();

    @Before
    public void serverRunsWithTestHandlers() throws Exception {
        handlers = TestHandlers.register(context);
        if (server == null) {
            server = new ServerControl(context);
            server.configure(Map.of());
            token = server.addTenant(TENANT);
        }
        if (!server.isActive()) {
            server.start();
        }
    }

    @After
    public void cleanUp() throws IOException {
        handlers.close();
        System.clearProperty(HOME_PROPERTY);
        for (Path path : temporary) {
            try (Stream<Path> files = Files.walk(path)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    @Test
    public void stoppingTheServerAnswersWhatItReceivedRefusesWhatItCannotRunThenSaysByeAndCloses() throws Exception {
        handlers.gate.close();
        try (TestClient busy = TestClient.open(server.port(), TENANT, token);
             TestClient idle = TestClient.open(server.port(), TENANT, token)) {
            busy.send(Frame.request(1, TestHandlers.GATE, "in flight".getBytes(UTF_8)));
            Await.until("the request waits at the gate", () -> handlers.gate.arrived.get() == 1);
            List<Frame> frames = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
                frames.add(Frame.send(0, TestHandlers.GATE, ("quiet " + i).getBytes(UTF_8)));
            }
            frames.add(Frame.request(2, TestHandlers.GATE, "held back".getBytes(UTF_8)));
            frames.add(Frame.request(3, "echo", "too late".getBytes(UTF_8)));
            busy.sendAll(frames);
            Await.until("backpressure holds request 2 back", () -> gateMailboxDepth() >= 5_000,
                    () -> "depth " + gateMailboxDepth());

            CompletableFuture<Long> stopped = CompletableFuture.supplyAsync(this::stopServer);

            ProtocolErrorsIT.assertError(ErrorCode.SERVER_SHUTDOWN, 2, busy.next());
            ProtocolErrorsIT.assertError(ErrorCode.SERVER_SHUTDOWN, 3, busy.next());
            assertEquals("a session with nothing in flight is told BYE at once", List.of(FrameType.BYE),
                    types(idle.untilClosed()));
            assertFalse("no new connection is accepted", server.accepts());
            assertEquals("nor announced", Optional.empty(), server.announcedAddress());

            handlers.gate.open();
            List<Frame> last = busy.untilClosed();
            assertEquals(last.toString(), 2, last.size());
            assertEquals(FrameType.REPLY, last.get(0).type());
            assertEquals(1, last.get(0).corrId());
            assertEquals("passed in flight", last.get(0).text());
            assertEquals(FrameType.BYE, last.get(1).type());
            long millis = stopped.get(10, TimeUnit.SECONDS);
            assertTrue("stopped within the shutdown budget: " + millis + " ms", millis < 8_000);
        }
        Await.until("the session actors are gone", () -> runtime.actors().stream()
                .noneMatch(actor -> actor.name().startsWith("session-")));
    }

    @Test
    public void aRequestThatCannotFinishWithinTheShutdownBudgetGetsServerShutdown() throws Exception {
        handlers.gate.close();
        try (TestClient busy = TestClient.open(server.port(), TENANT, token)) {
            busy.send(Frame.request(1, TestHandlers.GATE, "never in time".getBytes(UTF_8)));
            Await.until("the request waits at the gate", () -> handlers.gate.arrived.get() == 1);
            long millis = stopServer();
            List<Frame> frames = busy.untilClosed(Duration.ofSeconds(2));
            assertEquals(frames.toString(), 2, frames.size());
            ProtocolErrorsIT.assertError(ErrorCode.SERVER_SHUTDOWN, 1, frames.get(0));
            assertEquals(FrameType.BYE, frames.get(1).type());
            assertTrue("gave up after about 7 s, within 8 s: " + millis + " ms", millis >= 6_500 && millis < 8_500);
        } finally {
            handlers.gate.open();
        }
    }

    @Test
    public void withNoTenantAtAllTheServerCreatesTheDemoTenantThroughConfigAdmin() throws Exception {
        server.stop();
        server.deleteAllTenants();
        java.io.PrintStream standardOut = System.out;
        java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        try {
            System.setOut(new java.io.PrintStream(console, true, UTF_8));
            try {
                server.start();
            } finally {
                System.setOut(standardOut);
            }
            org.osgi.service.cm.Configuration[] demo = server.configAdmin()
                    .listConfigurations("(service.pid=io.troupe.tenant~demo)");
            assertEquals(1, demo.length);
            assertNull("never the token", demo[0].getProperties().get("token"));
            String hash = (String) demo[0].getProperties().get("tokenHash");
            assertTrue(hash, hash.startsWith("pbkdf2-sha256$600000$"));
            java.util.regex.Matcher printed = java.util.regex.Pattern.compile("with token ([A-Za-z0-9_-]{43}) ")
                    .matcher(console.toString(UTF_8));
            assertTrue(console.toString(UTF_8), printed.find());
            assertTrue("served at once", server.welcomes("demo", printed.group(1)));
        } finally {
            restoreTenants();
        }
    }

    @Test
    public void withAnInstallationDirectoryTheDemoTenantIsWrittenToEtcAndServedAtOnce() throws Exception {
        Path home = temporaryDirectory();
        server.stop();
        server.deleteAllTenants();
        System.setProperty(HOME_PROPERTY, home.toString());
        try {
            server.start();
            Path file = home.resolve("etc").resolve("io.troupe.tenant-demo.cfg");
            assertTrue(file + " exists", Files.isRegularFile(file));
            Properties properties = new Properties();
            try (Reader reader = Files.newBufferedReader(file, UTF_8)) {
                properties.load(reader);
            }
            assertNull("never the token", properties.getProperty("token"));
            assertTrue(properties.toString(), properties.getProperty("tokenHash").startsWith("pbkdf2-sha256$"));
            Path tokenFile = home.resolve("etc").resolve("io.troupe.tenant-demo.token");
            String demoToken = Files.readString(tokenFile, UTF_8).strip();
            assertTrue(demoToken, demoToken.matches("[A-Za-z0-9_-]{43}"));
            for (Path secret : List.of(file, tokenFile)) {
                assertEquals(secret.toString(), "rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(secret)));
            }
            assertTrue("served at once, before any FileInstall reads the file", server.welcomes("demo", demoToken));
            assertNull("no configuration was made for it", server.configAdmin()
                    .listConfigurations("(service.factoryPid=io.troupe.tenant)"));
        } finally {
            restoreTenants();
        }
    }

    @Test
    public void thePortOpensOnlyOnceTheTenantFilesInEtcAreLoaded() throws Exception {
        Path home = temporaryDirectory();
        Path file = Files.createDirectories(home.resolve("etc")).resolve("io.troupe.tenant-filed.cfg");
        Files.writeString(file, "token = from-file-from-file-from-file-from-file\n", UTF_8);
        server.stop();
        System.setProperty(HOME_PROPERTY, home.toString());
        Bundle bundle = server.bundle();
        CompletableFuture<Void> starting = CompletableFuture.runAsync(() -> {
            try {
                bundle.start();
            } catch (BundleException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            Await.until("the server bundle is starting", () -> bundle.getState() == Bundle.ACTIVE
                    || bundle.getState() == Bundle.STARTING);
            assertFalse("no port before the tenant files are loaded", server.accepts());

            // what FileInstall does with the file
            Hashtable<String, Object> properties = new Hashtable<>();
            properties.put("felix.fileinstall.filename", file.toUri().toString());
            properties.put("token", "from-file-from-file-from-file-from-file");
            server.updateTenant("filed", properties);

            starting.get(10, TimeUnit.SECONDS);
            assertTrue("the port is open once activation returns", server.accepts());
            assertTrue("and the tenant of the file is served from the first connection",
                    server.welcomes("filed", "from-file-from-file-from-file-from-file"));
            String migrated = Files.readString(file, UTF_8);
            assertTrue(migrated, migrated.startsWith("tokenHash = pbkdf2-sha256$600000$"));
            assertFalse(migrated, migrated.contains("from-file"));
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(file)));
        } finally {
            starting.get(10, TimeUnit.SECONDS);
            server.stop();
            server.deleteTenant("filed");
        }
    }

    @Test
    public void changedSettingsApplyWhileTheServerRunsAndANewPortIsBound() throws Exception {
        int oldPort = server.port();
        assertEquals(Optional.of("127.0.0.1:" + oldPort), server.announcedAddress());
        try (TestClient open = TestClient.open(server.port(), TENANT, token)) {
            server.configure(Map.of("maxFrameBytes", "2048"));
            Await.until("a frame above the new limit is refused", this::bigFrameIsRefused);

            server.usePort(ServerControl.freePort());
            server.configure(Map.of());
            Await.until("the server listens on the new port", server::accepts);
            Await.until("and no longer on the old one", () -> !ServerControl.accepts(oldPort));
            Optional<String> newAddress = Optional.of("127.0.0.1:" + server.port());
            Await.until("the announced address follows", () -> newAddress.equals(server.announcedAddress()),
                    () -> server.announcedAddress().toString());
            ProtocolErrorsIT.assertEcho(open, 1, "a session survives the re-bind");
            try (TestClient moved = TestClient.open(server.port(), TENANT, token)) {
                ProtocolErrorsIT.assertEcho(moved, 2, new String(new byte[3000], UTF_8));
            }
        }
    }

    @Test
    public void aBadValueWhileTheServerRunsKeepsThatKeysPreviousValueAndTheOtherKeysApply() throws Exception {
        int oldPort = server.port();
        server.configure(Map.of("maxFrameBytes", "2048"));
        Await.until("a frame above the new limit is refused", this::bigFrameIsRefused);

        server.usePort(ServerControl.freePort());
        server.configure(Map.of("maxFrameBytes", "lots"));
        Await.until("the good key beside the bad one applies: the new port", server::accepts);
        Await.until("and no longer the old one", () -> !ServerControl.accepts(oldPort));
        assertTrue("maxFrameBytes keeps 2048, not its default", bigFrameIsRefused());

        server.configure(Map.of());
        Await.until("without the key, its default applies again", () -> !bigFrameIsRefused());
    }

    @Test
    public void theMetaTypeServiceDescribesTheServerAndTenantConfigurations() throws Exception {
        ServerMetaType metaType = ServerMetaType.of(context, server.bundle());
        assertEquals(List.of(ServerControl.SERVER_PID), metaType.pids());
        assertEquals(List.of(ServerControl.TENANT_FACTORY_PID), metaType.factoryPids());
        assertEquals("Integer 7878", metaType.typeAndDefault(ServerControl.SERVER_PID, "port"));
        assertEquals("", metaType.validate(ServerControl.SERVER_PID, "port", "65535"));
        assertFalse("above the maximum", metaType.validate(ServerControl.SERVER_PID, "port", "65536").isEmpty());
        assertEquals("Password ", metaType.typeAndDefault(ServerControl.TENANT_FACTORY_PID, "token"));
        assertEquals("String ", metaType.typeAndDefault(ServerControl.TENANT_FACTORY_PID, "tokenHash"));
    }

    private boolean bigFrameIsRefused() {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            Frame answer = client.request(1, "echo", "x".repeat(3000));
            return answer.type() == FrameType.ERROR && ErrorCode.FRAME_TOO_LARGE.code().equals(answer.name());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Stops the server bundle; returns how long its stop took in milliseconds. */
    private long stopServer() {
        long start = System.nanoTime();
        try {
            server.stop();
        } catch (BundleException e) {
            throw new IllegalStateException(e);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    private void restoreTenants() throws Exception {
        server.stop();
        System.clearProperty(HOME_PROPERTY);
        server.deleteAllTenants();
        token = server.addTenant(TENANT);
    }

    private Path temporaryDirectory() throws IOException {
        Path directory = Files.createTempDirectory("troupe-home");
        temporary.add(directory);
        return directory;
    }

    private int gateMailboxDepth() {
        return runtime.actors().stream()
                .filter(actor -> actor.name().equals("handler:" + TestHandlers.GATE + "@" + TENANT))
                .mapToInt(ActorInfo::mailboxDepth)
                .findFirst()
                .orElse(-1);
    }

    private static List<FrameType> types(List<Frame> frames) {
        return frames.stream().map(Frame::type).toList();
    }
}
