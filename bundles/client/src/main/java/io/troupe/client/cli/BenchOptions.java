package io.troupe.client.cli;

import java.time.Duration;

import picocli.CommandLine.Option;

/**
 * The shape of a bench run: the options of {@code troupe-client bench}, a picocli mixin whose fields
 * hold the defaults until the command line sets them.
 *
 * <p><b>Threading:</b> written by picocli while parsing, on the caller's thread; read-only afterwards.
 */
final class BenchOptions {

    /** Keeps a request below the server's default 1 MiB frame limit, name and header included. */
    static final int MAX_SIZE = 1_000_000;

    @Option(names = "--connections", paramLabel = "N", converter = OptionValues.Count.class,
            description = "connections (default ${DEFAULT-VALUE})")
    private int connections = 64;

    @Option(names = "--pipeline", paramLabel = "N", converter = OptionValues.Count.class,
            description = "requests in flight per connection (default ${DEFAULT-VALUE})")
    private int pipeline = 16;

    @Option(names = "--size", paramLabel = "BYTES", converter = OptionValues.PayloadSize.class,
            description = "random payload per request (default ${DEFAULT-VALUE})")
    private int size = 64;

    @Option(names = "--duration", paramLabel = "DURATION", converter = OptionValues.PositiveDuration.class,
            description = "measured time (default 10s)")
    private Duration duration = Duration.ofSeconds(10);

    @Option(names = "--warmup", paramLabel = "DURATION", converter = OptionValues.AnyDuration.class,
            description = "unmeasured time before it (default 2s)")
    private Duration warmup = Duration.ofSeconds(2);

    @Option(names = "--name", paramLabel = "NAME",
            description = "handler to call (default ${DEFAULT-VALUE}; echo replies are checked against their requests)")
    private String name = "echo";

    @Option(names = "--threads", paramLabel = "N", converter = OptionValues.Threads.class,
            description = "IO threads shared by the connections (default: cores, at most 4)")
    private int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    @Option(names = "--idempotent",
            description = "the requests may be handled twice without harm: a connection lost (a node crashed)"
                    + " reconnects, to the next server when it is gone, and sends its requests again, instead of"
                    + " ending that connection's part of the run")
    private boolean idempotent;

    /** @throws UsageException when the handler name is empty or longer than 1024 characters */
    void validate() throws UsageException {
        if (name.isEmpty() || name.length() > 1024) {
            throw new UsageException("--name must have 1 to 1024 characters");
        }
    }

    /** How many clients, each with its own connection. */
    int connections() {
        return connections;
    }

    /** Requests each connection keeps in flight. */
    int pipeline() {
        return pipeline;
    }

    /** Payload bytes per request, random. */
    int size() {
        return size;
    }

    /** The measured time. */
    Duration duration() {
        return duration;
    }

    /** The time before it, run but not measured. */
    Duration warmup() {
        return warmup;
    }

    /** The handler to call; replies from {@code echo} are checked against requests. */
    String name() {
        return name;
    }

    /** IO threads shared by the connections. */
    int threads() {
        return threads;
    }

    /** Whether the requests are idempotent: the connections reconnect and send them again. */
    boolean idempotent() {
        return idempotent;
    }

    boolean verifiesEcho() {
        return name.equals("echo");
    }
}
