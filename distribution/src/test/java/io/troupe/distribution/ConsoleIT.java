package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;

import io.troupe.client.TroupeClient;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * The web console of the built distribution in a real browser (Debian's headless Chromium driven by Selenium):
 * the login form when not signed in, then, signed in with the admin token, the page loads without a console
 * error, shows the sample actors with the plugin each runs, reflects a hot swap of the counter and a new tenant
 * within 2 s of the server having them, disconnects a tenant, and undeploys a plugin, an action the endpoint
 * refuses without the token (and, by cookie, without the console's CSRF header). The JSON API answers scripts
 * with the Bearer token, a rollback included. Screenshots of the views go to
 * {@code target/console-screenshots/}.
 *
 * <p><b>Threading:</b> JUnit's thread; the server's output is read by {@link TroupeProcess}'s threads. Every
 * wait is bounded ({@link Await}, {@link ConsoleBrowser#await}).
 */
class ConsoleIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration APPLIED = Duration.ofSeconds(30);
    private static final Duration PAGE = Duration.ofSeconds(15);
    /** What the issue asks of the console: a change shows within 2 s of the server having it. */
    private static final Duration LIVE = Duration.ofSeconds(2);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final String LOOPBACK = "127.0.0.1";
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots").toAbsolutePath();

    @TempDir
    Path dir;
    private Path home;
    private int serverPort;
    private int httpPort;
    private HttpEndpoint http;
    private TestTenants tenants;

    @BeforeEach
    void install() throws IOException {
        serverPort = TestInstallation.freePort();
        home = TestInstallation.copy(dir, serverPort);
        http = new HttpEndpoint(home);
        httpPort = http.port();
        tenants = new TestTenants(home, serverPort);
        tenants.write("acme");
    }

    @Test
    void theConsoleShowsTheRuntimeLiveAndActsOnlyWithTheAdminToken() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
             ConsoleBrowser browser = new ConsoleBrowser(Files.createDirectories(dir.resolve("profile")),
                     SCREENSHOTS)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            Await.until("the HTTP endpoint answers /health/live", APPLIED,
                    () -> http.get(LOOPBACK, httpPort, "/health/live").statusCode() == 200, () -> "no answer");
            Await.until("the admin token file exists", APPLIED, () -> Files.isRegularFile(home.resolve(
                    "etc/admin.token")), () -> "no etc/admin.token");
            String token = http.token();
            try (TroupeClient client = TroupeClient.builder().port(serverPort).tenant("acme")
                    .token(TestTenants.TOKEN).build()) {
                client.connect().get(REPLY.toSeconds(), TimeUnit.SECONDS);
                useEverySample(client);

                signIn(browser, token);
                actorsShowWithTheirPlugins(browser);
                anActorStoppedFromThePageGoesAndItsHandlerComesBackOnUse(browser, client);
                overviewShowsChartsAndThreads(browser, client);
                aHotSwapShowsWithinTwoSeconds(browser, client);
                aNewTenantShowsWithinTwoSecondsAndCanBeDisconnected(browser);
                theJsonApiServesScriptsWithTheToken(token, client);
                undeployIsRefusedWithoutTheTokenAndWorksWithIt(browser, token, client);
                deadLettersAndLogShow(browser);
            }
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    /** Requests to each sample plugin, so that their handler actors exist. */
    private static void useEverySample(TroupeClient client) throws Exception {
        assertEquals("hello", request(client, "echo", "hello"));
        assertEquals("3", request(client, "wordcount", "a b c"));
        assertEquals("5", request(client, "counter.add", "5"));
        assertEquals("1.0.0", request(client, "counter.version", ""));
        assertEquals("ok", request(client, "chat.join", "lobby"));
    }

    /**
     * Not signed in, the page shows its login form (the API's 401, which tells the page so, is the one thing in
     * the browser's console); the form refuses a wrong token with the endpoint's message and signs in with the
     * right one; the signed-in page, reloaded, writes nothing to the console at warning level or above; signing
     * out clears the cookie and shows the form again.
     */
    private void signIn(ConsoleBrowser browser, String token) throws Exception {
        browser.open(consoleUrl());
        WebElement form = browser.element("#login-form", PAGE);
        browser.await("the login form is shown", PAGE, d -> form.isDisplayed());
        browser.screenshot("login");
        for (LogEntry entry : browser.consoleLog()) {
            assertTrue(entry.getLevel().intValue() < Level.SEVERE.intValue()
                    || (entry.getMessage().contains("/console/api/overview") && entry.getMessage().contains("401")),
                    "signed out, the page logs only the API's 401: " + entry);
        }
        signInWithTheForm(browser, token.substring(1));
        awaitText(browser, "#login-error", "wrong admin token", PAGE);
        signInWithTheForm(browser, token);
        awaitLive(browser);
        assertTrue(browser.driver().manage().getCookieNamed("troupe_admin") != null, "no console cookie");

        browser.consoleLog();
        browser.driver().navigate().refresh();
        awaitLive(browser);
        browser.element("#cards .card", PAGE);
        assertEquals(List.of(), browser.consoleLog().stream().filter(entry -> entry.getLevel().intValue()
                >= Level.WARNING.intValue()).map(LogEntry::toString).collect(Collectors.toList()),
                "the signed-in page's console");

        browser.element("#sign-out", PAGE).click();
        browser.await("the login form is shown again", PAGE, d -> d.findElement(By.id("login-form")).isDisplayed());
        Cookie cleared = browser.driver().manage().getCookieNamed("troupe_admin");
        assertTrue(cleared == null || cleared.getValue().isEmpty(), "signing out clears the cookie");
        signInWithTheForm(browser, token);
        awaitLive(browser);
    }

    private static void signInWithTheForm(ConsoleBrowser browser, String token) {
        WebElement field = browser.element("#token", PAGE);
        field.clear();
        field.sendKeys(token);
        browser.element("#login-button", PAGE).click();
    }

    private void actorsShowWithTheirPlugins(ConsoleBrowser browser) throws IOException {
        tab(browser, "actors");
        for (String[] expected : new String[][] {{"handler:echo", "io.troupe.sample.echo 1.0.0"},
            {"handler:wordcount", "io.troupe.sample.wordcount 1.0.0"},
            {"handler:counter.add", "io.troupe.sample.counter 1.0.0"},
            {"handler:chat.join", "io.troupe.sample.chat 1.0.0"}}) {
            awaitActorPlugin(browser, expected[0], expected[1], PAGE);
        }
        browser.screenshot("actors");
    }

    private void anActorStoppedFromThePageGoesAndItsHandlerComesBackOnUse(ConsoleBrowser browser,
                                                                          TroupeClient client) throws Exception {
        WebElement row = actorRow(browser, "handler:wordcount");
        String id = row.getAttribute("data-actor-id");
        clickTwice(row.findElement(By.cssSelector("button.act")));
        browser.await("actor " + id + " leaves the tree", PAGE, d -> d.findElements(
                By.cssSelector("#actors tr[data-actor-id='" + id + "']")).isEmpty());
        assertEquals("2", request(client, "wordcount", "again again"), "a new handler actor serves wordcount");
        browser.await("a new wordcount actor shows", PAGE, d -> {
            WebElement next = actorRow(browser, "handler:wordcount");
            return next != null && !id.equals(next.getAttribute("data-actor-id"));
        });
    }

    /** The actor row whose origin is {@code origin}, or null. */
    private static WebElement actorRow(ConsoleBrowser browser, String origin) {
        for (WebElement row : browser.driver().findElements(By.cssSelector("#actors tbody tr"))) {
            List<WebElement> cells = row.findElements(By.tagName("td"));
            if (cells.size() > 3 && origin.equals(cells.get(3).getText())) {
                return row;
            }
        }
        return null;
    }

    /** Under a little load the charts draw lines of several seconds; workers and IO loops show their threads. */
    private void overviewShowsChartsAndThreads(ConsoleBrowser browser, TroupeClient client) throws Exception {
        tab(browser, "overview");
        Await.until("both charts draw several seconds of load", APPLIED, () -> {
            for (int i = 0; i < 50; i++) {
                request(client, "counter.get", "");
            }
            return segments(browser, "#chart-throughput path") >= 5 && segments(browser, "#chart-p99 path") >= 5;
        }, () -> "throughput " + segments(browser, "#chart-throughput path") + " segments, p99 "
                + segments(browser, "#chart-p99 path"));
        assertTrue(browser.driver().findElements(By.cssSelector("#workers tr")).size() >= 1, "no worker shown");
        assertTrue(browser.driver().findElements(By.cssSelector("#loops tr")).size() >= 1, "no IO loop shown");
        browser.screenshot("overview");
    }

    /** The line segments of the first path matching {@code css}: its {@code L} commands. */
    private static int segments(ConsoleBrowser browser, String css) {
        List<WebElement> paths = browser.driver().findElements(By.cssSelector(css));
        return paths.isEmpty() ? 0 : paths.get(0).getAttribute("d").replaceAll("[^L]", "").length();
    }

    /** The counter's 2.0.0 jar renamed over deploy/counter.jar, as a deploy tool does. */
    private void aHotSwapShowsWithinTwoSeconds(ConsoleBrowser browser, TroupeClient client) throws Exception {
        tab(browser, "plugins");
        awaitText(browser, "tr[data-plugin-file='counter.jar'] td.version", "1.0.0", PAGE);
        Path part = home.resolve("deploy/.counter.jar.part");
        Files.copy(home.resolve("samples/counter-2.0.0.jar"), part, StandardCopyOption.REPLACE_EXISTING);
        Files.move(part, home.resolve("deploy/counter.jar"), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        awaitCounterVersion(client, "2.0.0");
        long swapped = System.nanoTime();
        awaitText(browser, "tr[data-plugin-file='counter.jar'] td.version", "2.0.0", LIVE);
        awaitText(browser, "tr[data-plugin-file='counter.jar'] td.revision", "2", LIVE);
        browser.await("the swap history shows the update", LIVE, d -> d.findElements(By.cssSelector(
                "#history tr")).stream().anyMatch(row -> row.getText().contains("updated")
                && row.getText().contains("1.0.0 → 2.0.0")));
        System.out.println("[console] the hot swap showed in the plugins view "
                + (System.nanoTime() - swapped) / 1_000_000 + " ms after counter.version answered 2.0.0");
        browser.screenshot("plugins");
        tab(browser, "actors");
        awaitActorPlugin(browser, "handler:counter.add", "io.troupe.sample.counter 2.0.0 (rev 2)", LIVE);
    }

    private void aNewTenantShowsWithinTwoSecondsAndCanBeDisconnected(ConsoleBrowser browser) throws Exception {
        tab(browser, "tenants");
        tenants.write("fresh");
        try (WireClient session = tenants.served("fresh", APPLIED)) {
            long served = System.nanoTime();
            WebElement row = browser.element("tr[data-tenant='fresh']", LIVE);
            browser.await("the new tenant's session is counted", LIVE,
                    d -> row.findElements(By.tagName("td")).get(1).getText().startsWith("1"));
            System.out.println("[console] the new tenant showed with its session "
                    + (System.nanoTime() - served) / 1_000_000 + " ms after the server welcomed it");
            browser.screenshot("tenants");

            clickTwice(row.findElement(By.cssSelector("button.act")));
            Frame bye = awaitFrame(session, FrameType.BYE);
            assertEquals("disconnected by an administrator", bye.text(), "the BYE's reason");
            awaitText(browser, "#notice", "1 session(s) of tenant 'fresh' told BYE (disconnected by an "
                    + "administrator); its clients may connect again", PAGE);
        }
    }

    private void theJsonApiServesScriptsWithTheToken(String token, TroupeClient client) throws Exception {
        String bearer = "Bearer " + token;
        HttpResponse<String> overview = http.get(LOOPBACK, httpPort, "/console/api/overview", "Authorization", bearer);
        assertEquals(200, overview.statusCode(), overview.body());
        assertTrue(overview.body().contains("\"server\":\"" + LOOPBACK + ":" + serverPort + "\""), overview.body());
        HttpResponse<String> actors = http.get(LOOPBACK, httpPort, "/console/api/actors?tenant=acme",
                "Authorization", bearer);
        assertTrue(actors.body().contains("\"origin\":\"handler:counter.add\""), actors.body());
        HttpResponse<String> badLines = http.get(LOOPBACK, httpPort, "/console/api/log?lines=0", "Authorization",
                bearer);
        assertEquals(400, badLines.statusCode(), badLines.body());
        assertEquals("{\"error\":\"bad.request\",\"message\":\"parameter lines = 0 is outside 1..2000\"}",
                badLines.body());
        HttpResponse<String> missing = http.postForm(LOOPBACK, httpPort, "/console/api/actors/999999/stop", "",
                "Authorization", bearer);
        assertEquals(404, missing.statusCode(), missing.body());
        assertEquals("{\"error\":\"not.found\",\"message\":\"no live actor has the id 999999\"}", missing.body());
        HttpResponse<String> getAction = http.get(LOOPBACK, httpPort, "/console/api/plugins/counter.jar/rollback",
                "Authorization", bearer);
        assertEquals(405, getAction.statusCode(), getAction.body());
        assertEquals(Optional.of("POST"), getAction.headers().firstValue("Allow"));

        // the console kept 1.0.0 when 2.0.0 took over: a rollback puts it back, the host swaps in place
        HttpResponse<String> rollback = http.postForm(LOOPBACK, httpPort, "/console/api/plugins/counter.jar/rollback",
                "", "Authorization", bearer);
        assertEquals(200, rollback.statusCode(), rollback.body());
        assertTrue(rollback.body().contains("\"to\":\"io.troupe.sample.counter 1.0.0\""), rollback.body());
        awaitCounterVersion(client, "1.0.0");
        assertEquals("5", request(client, "counter.get", ""), "the counter kept its state across both swaps");
    }

    private void undeployIsRefusedWithoutTheTokenAndWorksWithIt(ConsoleBrowser browser, String token,
                                                                TroupeClient client) throws Exception {
        Path echo = home.resolve("deploy/echo.jar");
        String path = "/console/api/plugins/echo.jar/undeploy";
        HttpResponse<String> anonymous = http.postForm(LOOPBACK, httpPort, path, "");
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        HttpResponse<String> wrong = http.postForm(LOOPBACK, httpPort, path, "", "Authorization",
                "Bearer " + token.substring(1));
        assertEquals(401, wrong.statusCode(), wrong.body());
        Cookie session = browser.driver().manage().getCookieNamed("troupe_admin");
        assertTrue(session != null, "signed in, the browser holds the console's cookie");
        HttpResponse<String> forged = http.postForm(LOOPBACK, httpPort, path, "", "Cookie",
                "troupe_admin=" + session.getValue());
        assertEquals(403, forged.statusCode(), "by cookie without X-Troupe-Console: " + forged.body());
        assertTrue(Files.isRegularFile(echo), "a refused undeploy left deploy/echo.jar");
        assertEquals("still", request(client, "echo", "still"));

        tab(browser, "plugins");
        WebElement row = browser.element("tr[data-plugin-file='echo.jar']", PAGE);
        clickTwice(row.findElement(By.cssSelector("button[data-action='undeploy']")));
        Await.until("deploy/echo.jar is deleted", APPLIED, () -> !Files.exists(echo), () -> "still there");
        browser.await("the echo plugin leaves the plugins view", APPLIED,
                d -> d.findElements(By.cssSelector("tr[data-plugin-file='echo.jar']")).isEmpty());
        for (String event : new String[] {"undeploy", "uninstalled"}) {
            browser.await("the swap history shows the " + event + " of echo.jar", LIVE, d -> d.findElements(
                    By.cssSelector("#history tr")).stream().anyMatch(r -> r.getText().contains("echo.jar")
                    && r.getText().contains(event)));
        }
        browser.await("the swap history shows the rollback asked by the API", LIVE, d -> d.findElements(
                By.cssSelector("#history tr")).stream().anyMatch(r -> r.getText().contains("rollback")
                && r.getText().contains("2.0.0 → 1.0.0") && r.getText().contains("by an administrator from")));
        browser.screenshot("plugins-after-undeploy");
        Await.until("echo has no handler any more", APPLIED, () -> {
            try {
                request(client, "echo", "gone?");
                return false;
            } catch (java.util.concurrent.ExecutionException e) {
                return String.valueOf(e.getCause()).contains("no.handler");
            }
        }, () -> "echo still answers");
    }

    private void deadLettersAndLogShow(ConsoleBrowser browser) throws IOException {
        tab(browser, "deadletters");
        browser.element("#deadletters-count", PAGE);
        browser.await("the dead letters view says how many", PAGE,
                d -> d.findElement(By.id("deadletters-count")).getText().contains("dead letters since"));
        browser.screenshot("deadletters");
        tab(browser, "log");
        browser.await("the log tail shows the server's start", PAGE,
                d -> d.findElement(By.id("log-lines")).getText().contains("Troupe ready on"));
        browser.screenshot("log");
    }

    // ---- helpers ----------------------------------------------------------------------------------------

    private String consoleUrl() {
        return "http://" + LOOPBACK + ":" + httpPort + "/console";
    }

    private static void awaitLive(ConsoleBrowser browser) {
        browser.await("the page is signed in and receives live updates", PAGE,
                d -> d.findElement(By.id("app")).isDisplayed()
                        && "live".equals(d.findElement(By.id("live")).getText()));
    }

    private static void tab(ConsoleBrowser browser, String view) {
        browser.element("#tabs button[data-view='" + view + "']", PAGE).click();
        browser.await("the " + view + " view is shown", PAGE,
                d -> d.findElement(By.id("view-" + view)).isDisplayed());
    }

    private static void awaitText(ConsoleBrowser browser, String css, String text, Duration timeout) {
        browser.await(css + " reads '" + text + "'", timeout, d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            return !found.isEmpty() && text.equals(found.get(0).getText().strip());
        });
    }

    /** Waits for an actor row whose origin is {@code origin} and whose plugin cell reads {@code plugin}. */
    private static void awaitActorPlugin(ConsoleBrowser browser, String origin, String plugin, Duration timeout) {
        browser.await("an actor of " + origin + " running " + plugin, timeout, d -> d.findElements(
                By.cssSelector("#actors tbody tr")).stream().anyMatch(row -> {
                    List<WebElement> cells = row.findElements(By.tagName("td"));
                    return cells.size() > 4 && origin.equals(cells.get(3).getText())
                            && cells.get(4).getText().startsWith(plugin);
                }));
    }

    /** A destructive button asks for a second click. */
    private static void clickTwice(WebElement button) {
        button.click();
        button.click();
    }

    private static Frame awaitFrame(WireClient session, FrameType type) throws IOException {
        long deadline = System.nanoTime() + PAGE.toNanos();
        while (System.nanoTime() - deadline < 0) {
            Optional<Frame> frame = session.next(PAGE);
            if (frame.isEmpty()) {
                break;
            }
            if (frame.get().type() == type) {
                return frame.get();
            }
        }
        throw new AssertionError("no " + type + " within " + PAGE);
    }

    private static String request(TroupeClient client, String name, String content) throws Exception {
        byte[] reply = client.request(name, content.getBytes(StandardCharsets.UTF_8))
                .get(REPLY.toSeconds(), TimeUnit.SECONDS);
        return new String(reply, StandardCharsets.UTF_8);
    }

    private static void awaitCounterVersion(TroupeClient client, String expected) throws Exception {
        Await.until("counter.version answers " + expected, APPLIED,
                () -> expected.equals(request(client, "counter.version", "")), () -> "another version");
    }
}
