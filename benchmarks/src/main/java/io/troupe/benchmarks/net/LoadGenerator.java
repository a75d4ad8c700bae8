package io.troupe.benchmarks.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The one load generator of the network suite: the distribution's {@code bin/troupe-client bench}
 * run as a process against a server on loopback, its report parsed into a {@link BenchResult}. The
 * same engine, with the same options, drives every server. The durability suite calls other handlers
 * with it ({@link #LoadGenerator(Path, String, String, String, String, String)}).
 *
 * <p><b>Threading:</b> one suite thread; a daemon thread drains the client's standard error.
 */
public final class LoadGenerator {

    private final Path distribution;
    private final String tenant;
    private final String token;
    private final String warmup;
    private final String duration;
    private final String name;

    /**
     * A generator of {@code echo} requests, whose replies the client checks against the requests.
     *
     * @param warmup   as troupe-client takes it: {@code 3s}, {@code 500ms}
     * @param duration likewise
     */
    LoadGenerator(Path distribution, String tenant, String token, String warmup, String duration) {
        this(distribution, tenant, token, warmup, duration, "echo");
    }

    /**
     * A generator of requests to the handler {@code name}, each with a random payload of the shape's size;
     * only {@code echo} replies are checked (any other reply that is not a failure counts as a success).
     *
     * @param warmup   as troupe-client takes it: {@code 3s}, {@code 500ms}
     * @param duration likewise
     */
    public LoadGenerator(Path distribution, String tenant, String token, String warmup, String duration,
            String name) {
        this.distribution = distribution;
        this.tenant = tenant;
        this.token = token;
        this.warmup = warmup;
        this.duration = duration;
        this.name = name;
    }

    /** The same generator with another warm-up ({@code 15s}, as troupe-client takes it). */
    LoadGenerator warmingUpFor(String otherWarmup) {
        return new LoadGenerator(distribution, tenant, token, otherWarmup, duration, name);
    }

    /** The unmeasured time before each bench's window, as troupe-client takes it. */
    String warmup() {
        return warmup;
    }

    /** Each bench's measured window, as troupe-client takes it. */
    String duration() {
        return duration;
    }

    /**
     * Runs one bench against {@code port}.
     *
     * @throws IOException when the client fails (non-zero status other than "some requests
     *                     failed") or its report cannot be read
     */
    public BenchResult run(int port, Shape shape) throws IOException, InterruptedException {
        return run(port, shape, 0, line -> { });
    }

    /**
     * Runs one bench against {@code port} at {@code rate} requests/s over the shape's connections (its
     * pipeline then bounds the requests in flight per connection), or as fast as the pipelines go (0).
     *
     * @param progress told each line the client prints on standard error as it comes (on another thread):
     *                 {@code troupe-client bench: warming up for ...} once the connections are made, then
     *                 the progress lines
     * @throws IOException when the client fails (non-zero status other than "some requests
     *                     failed") or its report cannot be read
     */
    public BenchResult run(int port, Shape shape, int rate, Consumer<String> progress)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(distribution.resolve("bin/troupe-client").toString(),
                "--host", "127.0.0.1", "--port", Integer.toString(port), "--tenant", tenant, "--token", token,
                "--timeout", "30s", "bench",
                "--connections", Integer.toString(shape.connections()),
                "--pipeline", Integer.toString(shape.pipeline()),
                "--size", Integer.toString(shape.size()),
                "--warmup", warmup, "--duration", duration, "--name", name));
        if (rate > 0) {
            command.addAll(List.of("--rate", Integer.toString(rate)));
        }
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("JAVA_OPTS");
        Process process = builder.start();
        process.getOutputStream().close();
        StringBuilder stderr = new StringBuilder();
        Thread errors = drain(process.getErrorStream(), stderr, progress);
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException("troupe-client bench did not end");
        }
        errors.join(TimeUnit.SECONDS.toMillis(10));
        int status = process.exitValue();
        // 2: some requests failed; the report still stands and counts them.
        if (status != 0 && status != 2) {
            throw new IOException("troupe-client bench exited with " + status + ":\n" + stdout + stderr);
        }
        try {
            return BenchResult.parse(stdout.lines().toList());
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage() + "\n" + stderr, e);
        }
    }

    private static Thread drain(InputStream stream, StringBuilder into, Consumer<String> lines) {
        Thread thread = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line; (line = reader.readLine()) != null; ) {
                    synchronized (into) {
                        into.append(line).append('\n');
                    }
                    lines.accept(line);
                }
            } catch (IOException e) {
                synchronized (into) {
                    into.append("<stderr unreadable: ").append(e).append('>');
                }
            }
        }, "bench-stderr");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
