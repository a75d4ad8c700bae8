package io.troupe.benchmarks.durable;

import java.io.IOException;
import java.time.Duration;

import io.troupe.benchmarks.net.ServerProcess;

/**
 * Reads the state store's counters from a running installation through its shell: writes
 * {@code troupe:stats} to {@code bin/troupe}'s standard input (script mode) and parses the
 * {@code store} line of the answer ({@link StoreCounters}). The first failure (no store line: no store
 * runs, or a shell without it) is kept as the reason and ends the probing, so that later runs are not
 * slowed by timeouts.
 *
 * <p><b>Threading:</b> one suite thread.
 */
final class StoreProbe {

    private static final String COMMAND = "troupe:stats";
    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final ServerProcess server;
    private String unavailable;

    StoreProbe(ServerProcess server) {
        this.server = server;
    }

    /** The counters now, or null when they cannot be read ({@link #unavailable()} says why). */
    StoreCounters read() throws InterruptedException {
        if (unavailable != null) {
            return null;
        }
        try {
            String line = server.command(COMMAND, StoreCounters.PREFIX, TIMEOUT);
            return StoreCounters.parse(line, System.nanoTime());
        } catch (IOException | IllegalArgumentException e) {
            unavailable = e.getMessage();
            return null;
        }
    }

    /** Why the counters could not be read, or null while they could. */
    String unavailable() {
        return unavailable;
    }
}
