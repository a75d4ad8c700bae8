package io.troupe.benchmarks.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

import io.troupe.client.ClientLoop;
import io.troupe.client.ConnectionListener;
import io.troupe.client.TroupeClient;

/**
 * A steady, paced load on the cluster's tenants: per tenant a few {@link TroupeClient}s given the nodes'
 * addresses (each list rotated, so that the first HELLOs reach different nodes; redirects lead to the
 * others), each sending {@code counter.add 1} (the sample's every-turn durable counter) at an even pace,
 * at most {@code window} in flight. Every answer is counted in the second of the run it came in (requests
 * per second, p99 latency per second, errors per second); each tenant keeps the gaps between its answers
 * and the times its clients were redirected, from which the suite measures the pause of each moved tenant.
 *
 * <p><b>Threading:</b> {@link #start}, {@link #stop} and the readers from the suite thread; each connection
 * has a sender thread; answers are recorded on the clients' loop threads (the per-second counters are
 * atomic, the histograms and each tenant's record are guarded by their monitors).
 */
final class SteadyLoad implements AutoCloseable {

    private static final Duration CONNECT = Duration.ofSeconds(60);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration JOIN = REQUEST_TIMEOUT.plusSeconds(20);
    private static final int MAX_SECONDS = 3600;
    private static final byte[] ONE = "1".getBytes(StandardCharsets.US_ASCII);

    private final long start = System.nanoTime();
    private final AtomicLongArray answers = new AtomicLongArray(MAX_SECONDS);
    private final AtomicLongArray errors = new AtomicLongArray(MAX_SECONDS);
    private final Histogram[] latencies = new Histogram[MAX_SECONDS];
    private final Map<String, TenantRecord> tenants = new LinkedHashMap<>();
    private final List<Sender> senders = new ArrayList<>();
    private final ClientLoop loop = ClientLoop.create("cluster-bench", 2);
    private volatile boolean running = true;

    private SteadyLoad() {
    }

    /**
     * Connects {@code clientsPerTenant} clients per tenant to {@code servers} and starts sending, {@code rate}
     * requests per second in all.
     */
    static SteadyLoad start(List<String> tenantIds, String token, List<String> servers, int clientsPerTenant,
            int rate, int window) throws Exception {
        SteadyLoad load = new SteadyLoad();
        try {
            int connections = tenantIds.size() * clientsPerTenant;
            long paceNanos = TimeUnit.SECONDS.toNanos(1) * connections / rate;
            int index = 0;
            for (String tenant : tenantIds) {
                TenantRecord record = load.new TenantRecord(tenant);
                load.tenants.put(tenant, record);
                for (int i = 0; i < clientsPerTenant; i++) {
                    List<String> seeds = new ArrayList<>();
                    for (int s = 0; s < servers.size(); s++) {
                        seeds.add(servers.get((index + s) % servers.size()));
                    }
                    index++;
                    TroupeClient client = connect(load.loop, tenant, token, seeds, record);
                    load.senders.add(load.new Sender(client, record, tenant + "-" + i, paceNanos, window));
                }
            }
        } catch (Exception e) {
            load.close();
            throw e;
        }
        load.senders.forEach(sender -> sender.thread.start());
        return load;
    }

    private static TroupeClient connect(ClientLoop loop, String tenant, String token, List<String> servers,
            ConnectionListener listener) throws Exception {
        long deadline = System.nanoTime() + CONNECT.toNanos();
        while (true) {
            TroupeClient client = TroupeClient.builder().servers(servers.toArray(String[]::new)).tenant(tenant)
                    .token(token).idempotent("counter.get").requestTimeout(REQUEST_TIMEOUT)
                    .reconnectBackoff(Duration.ofMillis(50), Duration.ofSeconds(1)).connectionListener(listener)
                    .loop(loop).build();
            try {
                client.connect().get(CONNECT.toSeconds(), TimeUnit.SECONDS);
                return client;
            } catch (ExecutionException | TimeoutException e) {
                client.close();
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("tenant " + tenant + " not served by " + servers + " within "
                            + CONNECT.toSeconds() + " s: " + (e.getCause() == null ? e : e.getCause()));
                }
                Thread.sleep(100);
            }
        }
    }

    /** Seconds since the load started (the time line of the report). */
    double now() {
        return (System.nanoTime() - start) / 1e9;
    }

    /** The answers counted in second {@code second} of the run. */
    long answers(int second) {
        return answers.get(second);
    }

    long errors(int second) {
        return errors.get(second);
    }

    /** The p99 latency of the answers of second {@code second}, in microseconds; -1 when none came. */
    long p99Micros(int second) {
        Histogram histogram = latencies[second];
        if (histogram == null) {
            return -1;
        }
        synchronized (histogram) {
            return histogram.getTotalCount() == 0 ? -1 : histogram.getValueAtPercentile(99);
        }
    }

    Map<String, TenantRecord> tenants() {
        return tenants;
    }

    /** Stops sending and waits until every request has its answer or failure. */
    void stop() throws InterruptedException {
        running = false;
        for (Sender sender : senders) {
            sender.thread.join(JOIN.toMillis());
            if (sender.thread.isAlive()) {
                throw new IllegalStateException(sender.thread.getName() + " did not finish within " + JOIN);
            }
        }
    }

    /** The stored total of each tenant's counter ({@code counter.get}, on the first client of the tenant). */
    Map<String, Long> storedTotals() throws Exception {
        Map<String, Long> totals = new LinkedHashMap<>();
        for (Sender sender : senders) {
            if (!totals.containsKey(sender.record.tenant())) {
                byte[] reply = sender.client.request("counter.get", new byte[0]).get(REQUEST_TIMEOUT.toSeconds(),
                        TimeUnit.SECONDS);
                totals.put(sender.record.tenant(), Long.parseLong(new String(reply, StandardCharsets.US_ASCII)));
            }
        }
        return totals;
    }

    @Override
    public void close() {
        running = false;
        for (Sender sender : senders) {
            sender.client.close();
        }
        loop.close();
    }

    private void answered(long sentNanos, boolean ok) {
        long now = System.nanoTime();
        int second = (int) Math.min(MAX_SECONDS - 1, (now - start) / 1_000_000_000L);
        if (!ok) {
            errors.incrementAndGet(second);
            return;
        }
        answers.incrementAndGet(second);
        Histogram histogram = latencies[second];
        if (histogram == null) {
            synchronized (latencies) {
                histogram = latencies[second];
                if (histogram == null) {
                    histogram = new Histogram(TimeUnit.MINUTES.toMicros(2), 3);
                    latencies[second] = histogram;
                }
            }
        }
        synchronized (histogram) {
            histogram.recordValue(Math.min(TimeUnit.MINUTES.toMicros(2), (now - sentNanos) / 1000));
        }
    }

    /**
     * What one tenant's clients saw: the acknowledged adds, the highest total told, the answer gaps of more
     * than {@link #GAP_MILLIS} ms (when each began, in seconds of the run, and how long it was) and the times
     * its clients were redirected. <b>Threading:</b> synchronised; loop threads record, the suite reads.
     */
    final class TenantRecord implements ConnectionListener {

        static final long GAP_MILLIS = 50;

        private final String tenant;
        private final List<double[]> gaps = new ArrayList<>();
        private final List<Double> redirects = new ArrayList<>();
        private final List<Double> disconnects = new ArrayList<>();
        private final List<Double> failures = new ArrayList<>();
        private long lastAnswer;
        private long acked;
        private long failed;
        private long highest;
        private String firstFailure;

        TenantRecord(String tenant) {
            this.tenant = tenant;
        }

        String tenant() {
            return tenant;
        }

        synchronized void added(long total) {
            long now = System.nanoTime();
            if (lastAnswer != 0 && now - lastAnswer > TimeUnit.MILLISECONDS.toNanos(GAP_MILLIS)) {
                gaps.add(new double[] {(lastAnswer - start) / 1e9, (now - lastAnswer) / 1e6});
            }
            lastAnswer = now;
            acked++;
            highest = Math.max(highest, total);
        }

        synchronized void failed(Throwable error) {
            failed++;
            failures.add(now());
            if (firstFailure == null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                        : error;
                firstFailure = cause.toString();
            }
        }

        @Override
        public synchronized void redirected(String from, String to, Duration delay) {
            redirects.add(now());
        }

        /** The longest gap that began in {@code [from, to)} seconds of the run, in ms; 0 when none. */
        synchronized double longestGap(double from, double to) {
            double longest = 0;
            for (double[] gap : gaps) {
                if (gap[0] >= from && gap[0] < to) {
                    longest = Math.max(longest, gap[1]);
                }
            }
            return longest;
        }

        @Override
        public synchronized void disconnected(Throwable cause) {
            disconnects.add(now());
        }

        /** Whether a client of the tenant was redirected in {@code [from, to)} seconds of the run. */
        synchronized boolean redirectedIn(double from, double to) {
            return redirects.stream().anyMatch(at -> at >= from && at < to);
        }

        /** Whether a client of the tenant lost its session in {@code [from, to)} seconds of the run. */
        synchronized boolean disconnectedIn(double from, double to) {
            return disconnects.stream().anyMatch(at -> at >= from && at < to);
        }

        /** The requests of the tenant that failed in {@code [from, to)} seconds of the run. */
        synchronized long failedIn(double from, double to) {
            return failures.stream().filter(at -> at >= from && at < to).count();
        }

        synchronized long acked() {
            return acked;
        }

        synchronized long failed() {
            return failed;
        }

        synchronized String firstFailure() {
            return firstFailure;
        }
    }

    /** A client and its paced sender thread. <b>Threading:</b> see the class. */
    private final class Sender implements Runnable {

        final Thread thread;
        final TroupeClient client;
        final TenantRecord record;
        private final long paceNanos;
        private final Semaphore window;
        private final int size;

        Sender(TroupeClient client, TenantRecord record, String name, long paceNanos, int window) {
            this.client = client;
            this.record = record;
            this.paceNanos = paceNanos;
            this.window = new Semaphore(window);
            this.size = window;
            this.thread = new Thread(this, "cluster-bench-" + name);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            long next = System.nanoTime();
            try {
                while (running) {
                    long now = System.nanoTime();
                    if (next - now > 0) {
                        LockSupport.parkNanos(next - now);
                        continue;
                    }
                    // a sender that fell behind (its window full) does not burst to catch up
                    next = Math.max(next, now - paceNanos) + paceNanos;
                    if (!window.tryAcquire(JOIN.toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                    long sent = System.nanoTime();
                    client.request("counter.add", ONE).whenComplete((reply, error) -> {
                        if (error == null) {
                            record.added(Long.parseLong(new String(reply, StandardCharsets.US_ASCII)));
                        } else {
                            record.failed(error);
                        }
                        answered(sent, error == null);
                        window.release();
                    });
                }
                window.tryAcquire(size, JOIN.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
