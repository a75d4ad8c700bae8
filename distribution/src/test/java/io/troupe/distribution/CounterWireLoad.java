package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * Clients of a running server sending {@code counter.add 1} as fast as they can: one
 * {@link TroupeClient} connection per sender, each keeping up to {@code window} requests in flight
 * (pipelined). Every answer is recorded: the total a REPLY carries (by request sequence number, to
 * check the connection's order afterwards), or what failed; and the latency, under the {@link Phase}
 * in which the request was sent (none while warming up).
 *
 * <p><b>Threading:</b> {@link #start}, {@link #phase}, {@link #stop} and {@link #close} from the test
 * thread. Each connection has a sender thread, which issues requests, and the client's loop thread,
 * which completes them (or the sender itself, for a request refused at once); a connection's records
 * are guarded by its monitor, and {@link #stop} reads them after joining the sender, which waits for
 * every answer.
 */
final class CounterWireLoad implements AutoCloseable {

    private static final byte[] ONE = "1".getBytes(UTF_8);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Longer than the server's request timeout (30 s), so that the server answers first. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration JOIN_TIMEOUT = REQUEST_TIMEOUT.plusSeconds(10);
    private static final int MAX_KINDS = 10;

    /** What the connections saw. */
    record Result(long replies, long failed, Map<String, Long> failures, List<String> orderViolations,
                  Latencies steady, Latencies swapping) {

        String problems() {
            return failed + " requests failed " + failures + "; order violations " + orderViolations;
        }
    }

    private final List<Connection> connections = new ArrayList<>();
    private volatile boolean running = true;
    private volatile Phase phase = Phase.WARM_UP;

    /** What the server is going through while a request is sent. */
    enum Phase {
        /** The load has just started (class loading, JIT, in both JVMs): latencies are not recorded. */
        WARM_UP,
        /** Nothing but the load. */
        STEADY,
        /** The plugin is being swapped. */
        SWAPS
    }

    private CounterWireLoad() {
    }

    /** Connects {@code count} clients as {@code tenant} and starts sending on each, warming up. */
    static CounterWireLoad start(int port, String tenant, String token, int count, int window) throws Exception {
        CounterWireLoad load = new CounterWireLoad();
        for (int i = 0; i < count; i++) {
            TroupeClient client = TroupeClient.builder().port(port).tenant(tenant).token(token)
                    .requestTimeout(REQUEST_TIMEOUT).reconnect(false).build();
            client.connect().get(CONNECT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            load.connections.add(load.new Connection(i, client, window));
        }
        load.connections.forEach(connection -> connection.thread.start());
        return load;
    }

    /** Requests sent from now on count as sent in {@code phase}. */
    void phase(Phase phase) {
        this.phase = phase;
    }

    /** Stops sending, waits for every request in flight to be answered, closes the clients. */
    Result stop() throws InterruptedException {
        running = false;
        long replies = 0;
        long failed = 0;
        Map<String, Long> failures = new TreeMap<>();
        List<String> orderViolations = new ArrayList<>();
        List<Latencies> steady = new ArrayList<>();
        List<Latencies> swaps = new ArrayList<>();
        for (Connection connection : connections) {
            connection.thread.join(JOIN_TIMEOUT.toMillis());
            connection.client.close();
            if (connection.thread.isAlive()) {
                throw new AssertionError(connection.thread.getName() + " did not finish within " + JOIN_TIMEOUT);
            }
            if (connection.stuck != null) {
                throw new AssertionError(connection.stuck);
            }
            synchronized (connection) {
                replies += connection.replies;
                failed += connection.failed;
                connection.failures.forEach((kind, count) -> failures.merge(kind, count, Long::sum));
                orderViolations.addAll(connection.orderViolations());
                steady.add(connection.steady);
                swaps.add(connection.swapping);
            }
        }
        return new Result(replies, failed, failures, orderViolations, Latencies.merge(steady), Latencies.merge(swaps));
    }

    /**
     * Stops sending and closes the clients if {@link #stop} did not (a test that failed half-way),
     * without judging what they saw: requests in flight fail, which frees the senders.
     */
    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Connection connection : connections) {
            connection.client.close();
        }
        for (Connection connection : connections) {
            connection.thread.join(JOIN_TIMEOUT.toMillis());
        }
    }

    /** One client connection, its sender thread and its records. */
    private final class Connection implements Runnable {

        final Thread thread;
        final TroupeClient client;
        private final int window;
        private final Semaphore permits;
        // guarded by this
        final Latencies steady = new Latencies();
        final Latencies swapping = new Latencies();
        final Map<String, Long> failures = new TreeMap<>();
        long replies;
        long failed;
        private long[] totals = new long[1 << 16];
        /** Requests sent; written by the sender thread, read after it ended. */
        private int sent;
        String stuck;

        Connection(int index, TroupeClient client, int window) {
            this.client = client;
            this.window = window;
            this.permits = new Semaphore(window);
            this.thread = new Thread(this, "counter-wire-load-" + index);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (running) {
                    if (!permits.tryAcquire(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                        stuck = thread.getName() + ": no answer freed the window for " + REQUEST_TIMEOUT;
                        return;
                    }
                    send(sent++);
                }
                if (!permits.tryAcquire(window, JOIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    stuck = thread.getName() + ": " + (window - permits.availablePermits())
                            + " requests still unanswered " + JOIN_TIMEOUT + " after the load stopped";
                }
            } catch (InterruptedException e) {
                stuck = thread.getName() + " interrupted";
                Thread.currentThread().interrupt();
            }
        }

        private void send(int sequence) {
            Phase sentIn = phase;
            long begin = System.nanoTime();
            if (sequence == totals.length) {
                // the loop thread writes entries below sequence only; permits order this copy after those
                growTotals();
            }
            client.request("counter.add", ONE).whenComplete((reply, error) -> {
                record(sequence, sentIn, System.nanoTime() - begin, reply, error);
                permits.release();
            });
        }

        private synchronized void record(int sequence, Phase sentIn, long latency, byte[] reply, Throwable error) {
            if (sentIn != Phase.WARM_UP) {
                (sentIn == Phase.SWAPS ? swapping : steady).record(latency);
            }
            if (error == null) {
                replies++;
                totals[sequence] = Long.parseLong(new String(reply, UTF_8));
            } else {
                failed++;
                totals[sequence] = Long.MIN_VALUE;
                String kind = describe(error);
                if (failures.size() < MAX_KINDS || failures.containsKey(kind)) {
                    failures.merge(kind, 1L, Long::sum);
                }
            }
        }

        /** Takes every permit, so that no answer is on its way, and doubles the array. */
        private void growTotals() {
            permits.release(); // the one taken for this request
            try {
                if (!permits.tryAcquire(window, JOIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new AssertionError(thread.getName() + ": requests unanswered for " + JOIN_TIMEOUT);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(thread.getName() + " interrupted");
            }
            synchronized (this) {
                totals = Arrays.copyOf(totals, totals.length * 2);
            }
            permits.release(window - 1); // keeps the one for this request
        }

        /** Where a reply's total is not above the one of the request sent before it on this connection. */
        synchronized List<String> orderViolations() {
            List<String> violations = new ArrayList<>();
            long previous = Long.MIN_VALUE;
            for (int i = 0; i < sent && violations.size() < MAX_KINDS; i++) {
                if (totals[i] == Long.MIN_VALUE) {
                    continue; // failed: counted as such
                }
                if (totals[i] <= previous) {
                    violations.add(thread.getName() + ": request " + i + " got total " + totals[i] + " after "
                            + previous);
                }
                previous = totals[i];
            }
            return violations;
        }

        private static String describe(Throwable error) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null
                    ? error.getCause() : error;
            if (cause instanceof TroupeClientException failure) {
                return "ERROR " + failure.code() + ": " + failure.detail();
            }
            return cause.toString();
        }
    }

    /** Request latencies in nanoseconds. Not thread-safe: one writer, read after a hand-over. */
    static final class Latencies {

        private long[] nanos = new long[1 << 14];
        private int count;

        void record(long latencyNanos) {
            if (count == nanos.length) {
                nanos = Arrays.copyOf(nanos, count * 2);
            }
            nanos[count++] = latencyNanos;
        }

        static Latencies merge(List<Latencies> parts) {
            Latencies all = new Latencies();
            for (Latencies part : parts) {
                for (int i = 0; i < part.count; i++) {
                    all.record(part.nanos[i]);
                }
            }
            return all;
        }

        int count() {
            return count;
        }

        /** Nearest-rank percentile, in nanoseconds. */
        long percentile(double percent) {
            if (count == 0) {
                return 0;
            }
            long[] sorted = Arrays.copyOf(nanos, count);
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(percent / 100.0 * count);
            return sorted[Math.max(0, Math.min(count, rank) - 1)];
        }

        long max() {
            return count == 0 ? 0 : Arrays.stream(nanos, 0, count).max().getAsLong();
        }

        String summary() {
            return "n=" + count + ", p50=" + millis(percentile(50)) + " ms, p99=" + millis(percentile(99))
                    + " ms, max=" + millis(max()) + " ms";
        }

        private static String millis(long nanos) {
            return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
        }
    }
}
