package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;
import io.troupe.testsupport.PrometheusText;
import io.troupe.testsupport.PrometheusText.Format;
import io.troupe.testsupport.PrometheusText.Scrape;

/**
 * {@code /metrics} of the built distribution scraped while two tenants' clients send load over real sockets:
 * every scrape, in the text format and in OpenMetrics, passes a strict parser; the families and their labels
 * are those documented; no counter goes back from one scrape to the next; and once the load has been answered,
 * each tenant's request count is exactly what its clients sent, its latency histogram counts each answered
 * REQUEST once, and its errors are counted by code.
 *
 * <p><b>Threading:</b> JUnit's thread scrapes; the clients' completions run on their selector threads and only
 * count and send the next request. Every wait is bounded.
 */
class MetricsIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration LOAD = Duration.ofSeconds(60);
    private static final Duration STOP = Duration.ofSeconds(15);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final String LOOPBACK = "127.0.0.1";
    private static final String ACME_TOKEN = "acme-secret-acme-secret-acme-secret";
    private static final String GLOBEX_TOKEN = "globex-secret-globex-secret-globex";
    /** acme: three connections, each sending this many echo requests, a few in flight at a time. */
    private static final int ACME_CONNECTIONS = 3;
    private static final int ACME_PER_CONNECTION = 1500;
    private static final int IN_FLIGHT = 4;
    /** globex: one connection, echo requests and requests to a name nobody serves. */
    private static final int GLOBEX_ECHOES = 400;
    private static final int GLOBEX_UNSERVED = 7;
    private static final List<String> DOCUMENTED = List.of("troupe_messages_processed_total",
            "troupe_dead_letters_total", "troupe_mailbox_backlog_messages", "troupe_actors", "troupe_workers",
            "troupe_worker_pool_size", "troupe_worker_busy_ratio", "troupe_io_loop_busy_ratio",
            "troupe_plugin_swaps_total", "troupe_plugin_rollbacks_total", "troupe_log_queue_bytes",
            "troupe_log_records_dropped_total", "troupe_connections", "troupe_requests_total",
            "troupe_request_duration_seconds", "troupe_errors_total", "troupe_throttled_seconds_total",
            "troupe_store_writes_total");

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
        Files.writeString(home.resolve("etc/io.troupe.tenant-acme.cfg"), "token = " + ACME_TOKEN + "\n");
        Files.writeString(home.resolve("etc/io.troupe.tenant-globex.cfg"), "token = " + GLOBEX_TOKEN + "\n");
    }

    @Test
    void scrapesDuringLoadParseNeverGoBackAndCountEveryRequestTheClientsSent() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            String token = http.token();
            assertEquals(401, http.get(LOOPBACK, httpPort, "/metrics").statusCode(), "no token, no metrics");
            // the servlet is registered with the whiteboard by its bundle's component, possibly just after "ready"
            Await.until("/metrics answers 200", REPLY,
                    () -> http.get(LOOPBACK, httpPort, "/metrics", "Authorization", "Bearer " + token).statusCode()
                            == 200,
                    () -> http.get(LOOPBACK, httpPort, "/metrics", "Authorization", "Bearer " + token).body());

            Scrape before = scrape(token, Format.TEXT);
            assertEquals(0, before.value("troupe_requests_total", "tenant", "acme"));
            assertEquals(0, before.value("troupe_requests_total", "tenant", "globex"));
            assertFalse(before.samples().stream().anyMatch(sample -> sample.labels().containsKey("node")),
                    "no node label on a single node");
            assertFalse(before.families().containsKey("troupe_cluster_members"), "no cluster, no cluster metrics");

            List<TroupeClient> clients = new ArrayList<>();
            try {
                // each load sends its second half only once two scrapes were taken: scrapes fall inside the load
                // however fast this machine serves it
                CompletableFuture<Void> scrapedTwice = new CompletableFuture<>();
                List<Load> loads = new ArrayList<>();
                for (int i = 0; i < ACME_CONNECTIONS; i++) {
                    TroupeClient acme = connected(client("acme", ACME_TOKEN), clients);
                    loads.add(new Load(acme, "echo", ACME_PER_CONNECTION, scrapedTwice).start());
                }
                TroupeClient globex = connected(client("globex", GLOBEX_TOKEN), clients);
                loads.add(new Load(globex, "echo", GLOBEX_ECHOES, scrapedTwice).start());
                Load unserved = new Load(globex, "nobody.serves.this", GLOBEX_UNSERVED, scrapedTwice).start();

                int scrapes = scrapeUntilDone(token, before, loads, unserved, scrapedTwice);
                assertTrue(scrapes >= 2, "scraped during the load: " + scrapes + " times");
                for (Load load : loads) {
                    assertEquals(List.of(), load.failures(), "every echo answered");
                }
                assertEquals(GLOBEX_UNSERVED, unserved.failures().size());
                assertTrue(unserved.failures().stream().allMatch(code -> code.equals("no.handler")),
                        "unserved: " + unserved.failures());
            } finally {
                clients.forEach(TroupeClient::close);
            }

            long acmeSent = (long) ACME_CONNECTIONS * ACME_PER_CONNECTION;
            long globexSent = GLOBEX_ECHOES + GLOBEX_UNSERVED;
            Scrape text = scrape(token, Format.TEXT);
            assertEquals(acmeSent, text.value("troupe_request_duration_seconds_count", "tenant", "acme"),
                    "each answered REQUEST once in its tenant's histogram, counted before the client had its answer");
            assertEquals(GLOBEX_ECHOES, text.value("troupe_request_duration_seconds_count", "tenant", "globex"),
                    "no.handler answers reach no handler: not in the histogram");
            for (String family : DOCUMENTED) {
                text.family(family); // a family with no point yet (no handler actor, no error) is left out
            }
            Scrape after = scrape(token, Format.OPENMETRICS);
            assertEquals(acmeSent, after.value("troupe_requests_total", "tenant", "acme"),
                    "exactly the requests acme's clients sent");
            assertEquals(globexSent, after.value("troupe_requests_total", "tenant", "globex"),
                    "exactly the requests globex's client sent");
            assertEquals(GLOBEX_UNSERVED, after.value("troupe_errors_total", "tenant", "globex", "code",
                    "no.handler"));
            assertFalse(after.has("troupe_errors_total", "tenant", "acme", "code", "no.handler"));
            assertEquals(acmeSent, after.value("troupe_request_duration_seconds_bucket", "tenant", "acme", "le",
                    "+Inf"));
            assertTrue(after.value("troupe_request_duration_seconds_sum", "tenant", "acme") > 0);
            assertTrue(after.value("troupe_messages_processed_total", "handler", "echo")
                    >= acmeSent + GLOBEX_ECHOES, "the echo actors processed every echo");
            assertEquals("seconds", after.family("troupe_request_duration_seconds").unit());
            assertEquals(0, after.value("troupe_connections", "tenant", "acme"), "the clients closed");
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    /**
     * Scrapes, alternating the two formats, until every load has been answered; each scrape's counters are
     * checked against the last one's.
     *
     * @return how many scrapes were taken during the load
     */
    private int scrapeUntilDone(String token, Scrape first, List<Load> loads, Load unserved,
            CompletableFuture<Void> scrapedTwice) throws Exception {
        CompletableFuture<Void> done = CompletableFuture.allOf(loads.stream().map(load -> load.done)
                .toArray(CompletableFuture[]::new)).thenCombine(unserved.done, (a, b) -> null);
        long deadline = System.nanoTime() + LOAD.toNanos();
        Scrape previous = first;
        int scrapes = 0;
        while (!done.isDone()) {
            assertTrue(System.nanoTime() - deadline < 0, "the load did not end within " + LOAD);
            Scrape next = scrape(token, scrapes % 2 == 0 ? Format.OPENMETRICS : Format.TEXT);
            assertNoCounterWentBack(previous, next);
            previous = next;
            scrapes++;
            if (scrapes == 2) {
                scrapedTwice.complete(null);
            }
        }
        done.get(REPLY.toSeconds(), TimeUnit.SECONDS);
        assertNoCounterWentBack(previous, scrape(token, Format.TEXT));
        return scrapes;
    }

    /** Every counter and histogram series of {@code earlier} is in {@code later}, with no smaller value. */
    private static void assertNoCounterWentBack(Scrape earlier, Scrape later) {
        for (PrometheusText.Family family : earlier.families().values()) {
            if (!family.type().equals("counter") && !family.type().equals("histogram")) {
                continue;
            }
            for (PrometheusText.Sample sample : family.samples()) {
                if (sample.name().endsWith("_created")) {
                    continue;
                }
                String[] labels = sample.labels().entrySet().stream()
                        .flatMap(label -> Stream.of(label.getKey(), label.getValue()))
                        .toArray(String[]::new);
                double value = later.value(sample.name(), labels);
                assertTrue(value >= sample.value(), sample + " went back to " + value);
            }
        }
    }

    /** A scrape in {@code format}, checked for status and content type, parsed strictly. */
    private Scrape scrape(String token, Format format) throws IOException, InterruptedException {
        HttpResponse<String> response = format == Format.OPENMETRICS
                ? http.get(LOOPBACK, httpPort, "/metrics", "Authorization", "Bearer " + token, "Accept",
                        "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5")
                : http.get(LOOPBACK, httpPort, "/metrics", "Authorization", "Bearer " + token);
        assertEquals(200, response.statusCode(), response.body());
        Optional<String> type = response.headers().firstValue("Content-Type");
        String expected = format == Format.OPENMETRICS ? "application/openmetrics-text; version=1.0.0"
                : "text/plain; version=0.0.4";
        assertTrue(type.isPresent() && type.get().startsWith(expected), "Content-Type " + type);
        return PrometheusText.parse(response.body(), format);
    }

    private TroupeClient client(String tenant, String token) {
        return TroupeClient.builder().port(serverPort).tenant(tenant).token(token).requestTimeout(REPLY).build();
    }

    private static TroupeClient connected(TroupeClient client, List<TroupeClient> clients) throws Exception {
        clients.add(client);
        client.connect().get(REPLY.toSeconds(), TimeUnit.SECONDS);
        return client;
    }

    /**
     * {@code total} requests to {@code name} on one client, {@value #IN_FLIGHT} in flight; failures by code. The
     * second half is sent only once {@code gate} completes.
     */
    private static final class Load {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private final TroupeClient client;
        private final String name;
        private final int total;
        private final AtomicInteger sent = new AtomicInteger();
        private final AtomicLong answered = new AtomicLong();
        private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        private final CompletableFuture<Void> gate;

        Load(TroupeClient client, String name, int total, CompletableFuture<Void> gate) {
            this.client = client;
            this.name = name;
            this.total = total;
            this.gate = gate;
        }

        Load start() {
            for (int i = 0; i < IN_FLIGHT; i++) {
                next();
            }
            return this;
        }

        List<String> failures() {
            return List.copyOf(failures);
        }

        private void next() {
            int number = sent.incrementAndGet();
            if (number > total) {
                return;
            }
            if (number > total / 2 && !gate.isDone()) {
                gate.thenRun(this::send);
            } else {
                send();
            }
        }

        private void send() {
            client.request(name, "metrics".getBytes(UTF_8)).whenComplete((reply, failure) -> {
                if (failure != null) {
                    Throwable cause = failure;
                    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                            && cause.getCause() != null) {
                        cause = cause.getCause();
                    }
                    failures.add(cause instanceof TroupeClientException troupe ? troupe.code() : cause.toString());
                }
                if (answered.incrementAndGet() == total) {
                    done.complete(null);
                }
                next();
            });
        }
    }
}
