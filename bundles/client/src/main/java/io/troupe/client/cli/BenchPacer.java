package io.troupe.client.cli;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Paces a {@code --rate} bench run: request {@code k} is due at {@code start + k / rate} and goes to
 * connection {@code k mod n}, from the start of the run (warm-up included) to the end of the measured
 * window; then every connection hears that pacing is over. The pacer wakes for each due instant (parking
 * in between) and, when it wakes late, hands out every request due meanwhile at once, each with the
 * instant it was due, so that the rate holds on average and the lateness shows in the latencies.
 *
 * <p><b>Threading:</b> runs on a daemon thread of its own ({@code troupe-bench-pacer}), started by
 * {@link #start}; {@link #stop} from any thread.
 */
final class BenchPacer {

    private final List<BenchConnection> connections;
    private final double nanosPerRequest;
    private final long start;
    private final long until;
    private final Thread thread;
    private volatile boolean stopped;

    /**
     * @param rate  requests per second over all connections
     * @param start {@link System#nanoTime} of the first due instant
     * @param until {@link System#nanoTime} from which nothing is due
     */
    BenchPacer(List<BenchConnection> connections, int rate, long start, long until) {
        this.connections = List.copyOf(connections);
        this.nanosPerRequest = (double) TimeUnit.SECONDS.toNanos(1) / rate;
        this.start = start;
        this.until = until;
        this.thread = new Thread(this::run, "troupe-bench-pacer");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * Ends the pacing early (the run is given up; the connections are not told) and waits up to a second
     * for the pacer to hand out its last request.
     */
    void stop() throws InterruptedException {
        stopped = true;
        LockSupport.unpark(thread);
        thread.join(1_000);
    }

    private void run() {
        for (long k = 0; !stopped; ) {
            long due = start + (long) (k * nanosPerRequest);
            if (due - until >= 0) {
                break;
            }
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
                continue; // woken early or on time: look again
            }
            connections.get((int) (k % connections.size())).due(due);
            k++;
        }
        if (!stopped) {
            for (BenchConnection connection : connections) {
                connection.pacingOver();
            }
        }
    }
}
