package io.troupe.client.cli;

import java.time.Duration;
import java.util.Set;

/**
 * The shape of a bench run.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param connections how many clients, each with its own connection
 * @param pipeline    requests each connection keeps in flight
 * @param size        payload bytes per request, random
 * @param duration    the measured time
 * @param warmup      the time before it, run but not measured
 * @param name        the handler to call; replies from {@code echo} are checked against requests
 * @param threads     IO threads shared by the connections
 */
record BenchOptions(int connections, int pipeline, int size, Duration duration, Duration warmup, String name,
        int threads) {

    static final Set<String> OPTIONS = Set.of("connections", "pipeline", "size", "duration", "warmup", "name",
            "threads");

    /** Keeps a request below the server's default 1 MiB frame limit, name and header included. */
    static final int MAX_SIZE = 1_000_000;

    static BenchOptions parse(Arguments arguments) throws UsageException {
        int connections = arguments.intOption("connections", 64, 1, 100_000);
        int pipeline = arguments.intOption("pipeline", 16, 1, 100_000);
        int size = arguments.intOption("size", 64, 0, MAX_SIZE);
        Duration duration = arguments.durationOption("duration", Duration.ofSeconds(10));
        Duration warmup = arguments.durationOption("warmup", Duration.ofSeconds(2));
        String name = arguments.option("name") == null ? "echo" : arguments.option("name");
        int defaultThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        int threads = arguments.intOption("threads", defaultThreads, 1, 256);
        if (duration.isZero()) {
            throw new UsageException("--duration must be positive");
        }
        if (name.isEmpty() || name.length() > 1024) {
            throw new UsageException("--name must have 1 to 1024 characters");
        }
        return new BenchOptions(connections, pipeline, size, duration, warmup, name, threads);
    }

    boolean verifiesEcho() {
        return name.equals("echo");
    }
}
