package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operators' HTTP endpoint of the built distribution, over real sockets: {@code /health/live} and
 * {@code /health/ready} open and in JSON, readiness following the message server's port as its configuration
 * closes and reopens it, every other path refused without the admin token and served with it (or with the
 * console's cookie), the token file made 0600 at first start, the port bound to loopback only by default, a
 * non-loopback host refused until {@code allowPlaintext}, and a changed port re-bound live.
 *
 * <p><b>Threading:</b> JUnit's thread; the server's output is read by {@link TroupeProcess}'s threads, and every
 * wait is bounded ({@link Await}).
 */
class HttpIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration APPLIED = Duration.ofSeconds(30);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final String LOOPBACK = "127.0.0.1";
    private static final List<String> GUARDED = List.of("/metrics", "/console/api/overview", "/",
            "/no/such/path", "/healthz");

    @TempDir
    Path dir;
    private Path home;
    private int serverPort;
    private int httpPort;
    private HttpEndpoint http;

    @BeforeEach
    void install() throws IOException {
        serverPort = TestInstallation.freePort();
        home = TestInstallation.copy(dir, serverPort);
        http = new HttpEndpoint(home);
        httpPort = http.port();
    }

    @Test
    void healthIsOpenInJsonAndEveryOtherPathNeedsTheAdminToken() throws Exception {
        assertFalse(Files.exists(home.resolve("etc/admin.token")), "the distribution ships no token");
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            Path tokenFile = home.resolve("etc/admin.token");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
            String token = http.token();
            assertTrue(token.length() >= 43, "a generated token of 32 random bytes: " + token.length());
            awaitLog("Admin token created in " + tokenFile);
            awaitLog("HTTP endpoint listening on http://127.0.0.1:" + httpPort + "/: /health/live and /health/ready "
                    + "open, every other path needs the admin token of " + tokenFile);

            HttpResponse<String> live = http.get(LOOPBACK, httpPort, "/health/live");
            assertEquals(200, live.statusCode(), live.body());
            assertEquals(Optional.of("application/json;charset=utf-8"),
                    live.headers().firstValue("Content-Type").map(type -> type.replace(" ", "").toLowerCase()));
            assertTrue(live.body().startsWith(
                    "{\"status\":\"UP\",\"checks\":[{\"name\":\"framework\",\"status\":\"UP\""),
                    live.body());
            assertTrue(live.headers().firstValue("Server").isEmpty(), "no Server header naming Jetty's version");
            HttpResponse<String> trace = http.request("TRACE", LOOPBACK, httpPort, "/health/live", "Authorization",
                    "Bearer " + token);
            assertEquals(405, trace.statusCode(), trace.body());
            assertFalse(trace.body().contains(token), trace.body());
            awaitReady(200);
            HttpResponse<String> ready = http.get(LOOPBACK, httpPort, "/health/ready");
            assertTrue(ready.body().contains("{\"name\":\"server\",\"status\":\"UP\",\"detail\":\"listening on "
                    + LOOPBACK + ":" + serverPort + "\"}"), ready.body());
            assertTrue(ready.body().contains("{\"name\":\"store\",\"status\":\"UP\""), ready.body());

            for (String path : GUARDED) {
                HttpResponse<String> refused = http.get(LOOPBACK, httpPort, path);
                assertEquals(401, refused.statusCode(), path + ": " + refused.body());
                assertEquals(Optional.of("Bearer realm=\"troupe\""), refused.headers().firstValue("WWW-Authenticate"));
                assertTrue(refused.body().startsWith("{\"error\":\"unauthorized\",\"message\":"), refused.body());
                HttpResponse<String> wrong = http.get(LOOPBACK, httpPort, path, "Authorization",
                        "Bearer " + token.substring(1));
                assertEquals(401, wrong.statusCode(), path + " with a wrong token: " + wrong.body());
                HttpResponse<String> admitted = http.get(LOOPBACK, httpPort, path, "Authorization", "Bearer " + token);
                assertTrue(admitted.statusCode() != 401 && admitted.statusCode() != 403,
                        path + " with the token: " + admitted.statusCode() + " " + admitted.body());
            }
            HttpResponse<String> unknown = http.get(LOOPBACK, httpPort, "/no/such/path", "Authorization",
                    "Bearer " + token);
            assertEquals(404, unknown.statusCode());
            assertEquals("{\"error\":\"not_found\",\"message\":\"nothing at /no/such/path\"}", unknown.body());

            HttpResponse<String> badLogin = http.postForm(LOOPBACK, httpPort, "/console/login", "token=nope");
            assertEquals(401, badLogin.statusCode(), badLogin.body());
            assertTrue(badLogin.headers().firstValue("Set-Cookie").isEmpty());
            HttpResponse<String> login = http.postForm(LOOPBACK, httpPort, "/console/login", "token=" + token);
            assertEquals(303, login.statusCode(), login.body());
            assertEquals(Optional.of("/console"), login.headers().firstValue("Location"));
            String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
            assertTrue(setCookie.startsWith("troupe_admin=")
                    && setCookie.contains("; Path=/; HttpOnly; SameSite=Strict"),
                    setCookie);
            String cookie = setCookie.substring(0, setCookie.indexOf(';'));
            assertFalse(cookie.contains(token), "the cookie does not carry the token");
            assertEquals(404, http.get(LOOPBACK, httpPort, "/no/such/path", "Cookie", cookie).statusCode());
            HttpResponse<String> forged = http.postForm(LOOPBACK, httpPort, "/no/such/path", "", "Cookie", cookie);
            assertEquals(403, forged.statusCode(), "a change by cookie without X-Troupe-Console: " + forged.body());
            assertEquals(404, http.postForm(LOOPBACK, httpPort, "/no/such/path", "", "Cookie", cookie,
                    "X-Troupe-Console", "1").statusCode());

            String replaced = "an-operators-own-token-" + System.nanoTime();
            Files.writeString(tokenFile, replaced + "\n", StandardCharsets.UTF_8);
            assertEquals(401, http.get(LOOPBACK, httpPort, "/metrics", "Authorization", "Bearer " + token)
                    .statusCode());
            assertEquals(401, http.get(LOOPBACK, httpPort, "/metrics", "Cookie", cookie).statusCode());
            assertTrue(http.get(LOOPBACK, httpPort, "/metrics", "Authorization", "Bearer " + replaced).statusCode()
                    != 401, "a new token in the file applies from the next request");
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    @Test
    void readinessFailsWhileTheServersPortIsClosedByItsConfigurationAndRecovers() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            awaitReady(200);

            configureServer("host = 0.0.0.0\n");
            awaitLog("Not listening on 0.0.0.0:" + serverPort + ": the protocol would be plaintext");
            awaitReady(503);
            HttpResponse<String> down = http.get(LOOPBACK, httpPort, "/health/ready");
            assertTrue(down.body().startsWith("{\"status\":\"DOWN\""), down.body());
            assertTrue(down.body().contains("{\"name\":\"server\",\"status\":\"DOWN\",\"detail\":\"the message server "
                    + "listens nowhere"), down.body());
            assertEquals(200, http.get(LOOPBACK, httpPort, "/health/live").statusCode(), "alive all along");

            configureServer("host = 127.0.0.1\n");
            awaitReady(200);
            assertTrue(HttpEndpoint.accepts(LOOPBACK, serverPort));
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    @Test
    void listensOnLoopbackOnlyRefusesAnotherHostWithoutAllowPlaintextAndRebindsLive() throws Exception {
        Optional<String> external = nonLoopbackAddress();
        assumeTrue(external.isPresent(), "this machine has no non-loopback IPv4 address to try");
        String address = external.get();
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            assertEquals(200, http.get(LOOPBACK, httpPort, "/health/live").statusCode());
            assertFalse(HttpEndpoint.accepts(address, httpPort), "the default host is loopback: " + address
                    + " must not answer");

            http.configure("host = 0.0.0.0\nport = " + httpPort + "\n");
            awaitLog("HTTP endpoint not listening on 0.0.0.0:" + httpPort + ": the endpoint would serve plain HTTP on "
                    + "a non-loopback address");
            Await.until("nothing listens on the refused endpoint", APPLIED,
                    () -> !HttpEndpoint.accepts(LOOPBACK, httpPort) && !HttpEndpoint.accepts(address, httpPort),
                    () -> "a connection is still accepted");

            http.configure("host = 0.0.0.0\nport = " + httpPort + "\nallowPlaintext = true\n");
            Await.until("the endpoint answers on " + address, APPLIED,
                    () -> http.get(address, httpPort, "/health/live").statusCode() == 200, () -> "no answer");
            awaitLog("HTTP endpoint on 0.0.0.0:" + httpPort + " in PLAINTEXT (allowPlaintext = true)");
            assertEquals(401, http.get(address, httpPort, "/metrics").statusCode());

            int moved;
            do {
                moved = TestInstallation.freePort();
            } while (moved == httpPort || moved == serverPort);
            http.configure("host = 127.0.0.1\nport = " + moved + "\n");
            int next = moved;
            Await.until("the endpoint answers on its new port " + next, APPLIED,
                    () -> http.get(LOOPBACK, next, "/health/live").statusCode() == 200, () -> "no answer");
            assertFalse(HttpEndpoint.accepts(LOOPBACK, httpPort), "the old port is closed");
            assertFalse(HttpEndpoint.accepts(address, next), "the new port is on loopback only");
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    private void awaitReady(int status) throws Exception {
        Await.until("/health/ready answers " + status, APPLIED,
                () -> http.get(LOOPBACK, httpPort, "/health/ready").statusCode() == status,
                () -> http.get(LOOPBACK, httpPort, "/health/ready").body());
    }

    private void configureServer(String lines) throws IOException {
        Path serverConfig = home.resolve("etc/io.troupe.server.cfg");
        String base = Files.readString(serverConfig).replaceAll("(?m)^(host|allowPlaintext) = .*\n", "");
        Files.writeString(serverConfig, base + lines);
    }

    private void awaitLog(String text) throws Exception {
        Path log = home.resolve("log/troupe.log");
        Await.until("log/troupe.log has a line with: " + text, APPLIED,
                () -> Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains(text),
                () -> logTail(log));
    }

    private static String logTail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log/troupe.log)";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return "last lines of log/troupe.log:\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** An IPv4 address of an interface that is up and not loopback, if the machine has one. */
    private static Optional<String> nonLoopbackAddress() throws IOException {
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!network.isUp() || network.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(network.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                    return Optional.of(address.getHostAddress());
                }
            }
        }
        return Optional.empty();
    }
}
