package io.troupe.client.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    static final int DEFAULT_SIZE = 64;

    @Option(names = "--connections", paramLabel = "N", converter = OptionValues.Count.class,
            description = "connections (default ${DEFAULT-VALUE})")
    private int connections = 64;

    @Option(names = "--pipeline", paramLabel = "N", converter = OptionValues.Count.class,
            description = "requests in flight per connection (default ${DEFAULT-VALUE})")
    private int pipeline = 16;

    @Option(names = "--rate", paramLabel = "N", converter = OptionValues.Rate.class,
            description = "send N requests/s in all, spread over the connections, each keeping at most --pipeline in"
                    + " flight; latency counts from when a request was due (default: as fast as the pipelines go)")
    private Integer rate;

    @Option(names = "--size", paramLabel = "BYTES", converter = OptionValues.PayloadSize.class,
            description = "random payload per request, new for each (default " + DEFAULT_SIZE + ")")
    private Integer size;

    @Option(names = "--payload", paramLabel = "TEXT",
            description = "send TEXT (UTF-8) as the payload of every request, instead of random bytes")
    private String payloadText;

    @Option(names = "--payload-file", paramLabel = "FILE",
            description = "send the bytes of FILE as the payload of every request, instead of random bytes")
    private Path payloadFile;

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

    private BenchPayload payload;

    /**
     * Checks what picocli cannot check alone, and reads the payload.
     *
     * @throws UsageException when the handler name is empty or longer than 1024 characters, when more
     *                        than one of {@code --size}, {@code --payload} and {@code --payload-file} is
     *                        given, or when the payload is unreadable or larger than {@link #MAX_SIZE}
     */
    void validate() throws UsageException {
        if (name.isEmpty() || name.length() > 1024) {
            throw new UsageException("--name must have 1 to 1024 characters");
        }
        int given = (size == null ? 0 : 1) + (payloadText == null ? 0 : 1) + (payloadFile == null ? 0 : 1);
        if (given > 1) {
            throw new UsageException("--size, --payload and --payload-file exclude each other: give one");
        }
        if (payloadText != null) {
            payload = BenchPayload.fixed(bounded(payloadText.getBytes(StandardCharsets.UTF_8), "--payload"), "text");
        } else if (payloadFile != null) {
            payload = BenchPayload.fixed(bounded(read(payloadFile), "--payload-file " + payloadFile),
                    "file " + payloadFile);
        } else {
            payload = BenchPayload.random(size == null ? DEFAULT_SIZE : size);
        }
    }

    private static byte[] read(Path file) throws UsageException {
        try {
            if (Files.isDirectory(file)) {
                throw new UsageException("--payload-file " + file + " is a directory");
            }
            long length = Files.size(file);
            if (length > MAX_SIZE) {
                throw tooLarge("--payload-file " + file, length);
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UsageException("cannot read --payload-file " + file + ": " + e);
        }
    }

    private static byte[] bounded(byte[] bytes, String what) throws UsageException {
        if (bytes.length > MAX_SIZE) {
            throw tooLarge(what, bytes.length);
        }
        return bytes;
    }

    private static UsageException tooLarge(String what, long length) {
        return new UsageException(what + " has " + length + " bytes; a payload may have at most " + MAX_SIZE
                + " (below the server's default frame limit of 1 MiB)");
    }

    /** How many clients, each with its own connection. */
    int connections() {
        return connections;
    }

    /** Requests each connection keeps in flight. */
    int pipeline() {
        return pipeline;
    }

    /** Requests per second over all connections, or 0: keep every pipeline full. */
    int rate() {
        return rate == null ? 0 : rate;
    }

    /** What each request carries; known once {@link #validate} has passed. */
    BenchPayload payload() {
        return payload;
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
