package io.troupe.benchmarks.features;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fetches a server's {@code GET /metrics} (Prometheus text, with the admin token) every period on a thread of
 * its own until closed, as a scraper would (only far more often), counting the answers, the bytes and the
 * failures. A scrape is a real read of every counter the server exports; what it costs the requests being
 * served at the same time is what the metrics run measures.
 *
 * <p><b>Threading:</b> {@link #start} and {@link #close} from one thread; the counters from any thread.
 */
final class MetricsScraper implements AutoCloseable {

    private final URI uri;
    private final String token;
    private final Duration period;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLong scrapes = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>();
    private final CountDownLatch stop = new CountDownLatch(1);
    private Thread thread;

    MetricsScraper(int httpPort, String adminToken, Duration period) {
        this.uri = URI.create("http://127.0.0.1:" + httpPort + "/metrics");
        this.token = adminToken;
        this.period = period;
    }

    /** One scrape now, on the caller's thread: fails when the endpoint does not answer 200 with metrics. */
    void check() throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 || !response.body().contains("troupe_")) {
            throw new IOException("GET " + uri + " answered " + response.statusCode() + ": "
                    + response.body().lines().findFirst().orElse(""));
        }
    }

    void start() {
        thread = new Thread(this::scrapeUntilClosed, "metrics-scraper");
        thread.setDaemon(true);
        thread.start();
    }

    private void scrapeUntilClosed() {
        try {
            do {
                try {
                    HttpResponse<byte[]> response = client.send(request(), HttpResponse.BodyHandlers.ofByteArray());
                    if (response.statusCode() == 200) {
                        scrapes.incrementAndGet();
                        bytes.addAndGet(response.body().length);
                    } else {
                        failed("HTTP " + response.statusCode());
                    }
                } catch (IOException e) {
                    failed(e.toString());
                }
            } while (!stop.await(period.toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpRequest request() {
        return HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(10))
                .GET().build();
    }

    private void failed(String why) {
        failures.incrementAndGet();
        lastFailure.set(why);
    }

    long scrapes() {
        return scrapes.get();
    }

    /** The size of the last answers, on average; 0 before the first. */
    long averageBytes() {
        long count = scrapes.get();
        return count == 0 ? 0 : bytes.get() / count;
    }

    long failures() {
        return failures.get();
    }

    String lastFailure() {
        return lastFailure.get();
    }

    @Override
    public void close() throws InterruptedException {
        stop.countDown();
        if (thread != null) {
            thread.join(TimeUnit.SECONDS.toMillis(15));
        }
    }
}
