package io.troupe.client.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.troupe.client.ClientLoop;
import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * {@code bench}: opens the connections on a shared {@link ClientLoop}, lets each keep its pipeline
 * full for warm-up plus duration ({@link BenchConnection}), waits for the answers still due, and
 * prints {@link BenchResults} on standard output. Progress goes to standard error: what the run does,
 * then a {@link BenchProgress} line every second until the measured window ends.
 *
 * <p>With {@code --rate}, a {@link BenchPacer} hands each connection its requests at their due instants
 * instead of the connections keeping their pipelines full.
 *
 * <p>Every connection follows redirects ({@code tenant.moved}): the requests a node left unanswered when
 * its tenant moved are sent to the new one and count once, their latency including the move. With
 * {@code --idempotent}, a lost connection reconnects and sends its requests again.
 *
 * <p>Exit status: 0 when every request succeeded, 2 when some failed (the report counts them), 3
 * when a connection could not be made (2 if the server refused it with an ERROR).
 *
 * <p><b>Threading:</b> one run per instance, on the caller's thread.
 */
final class Bench {

    private static final Duration SLACK = Duration.ofSeconds(5);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
    private static final long PROGRESS_EVERY = TimeUnit.SECONDS.toNanos(1);

    private final ServerTarget target;
    private final BenchOptions options;
    private final PrintStream out;
    private final PrintStream err;

    Bench(ServerTarget target, BenchOptions options, PrintStream out, PrintStream err) {
        this.target = target;
        this.options = options;
        this.out = out;
        this.err = err;
    }

    int run() throws InterruptedException {
        List<TroupeClient> clients = new ArrayList<>();
        try (ClientLoop loop = ClientLoop.create("troupe-bench", options.threads())) {
            try {
                err.println("troupe-client bench: connecting " + options.connections() + " connections to "
                        + target.address());
                for (int i = 0; i < options.connections(); i++) {
                    TroupeClient.Builder builder = target.clientBuilder().loop(loop).reconnect(options.idempotent())
                            .closeTimeout(CLOSE_TIMEOUT);
                    if (options.idempotent()) {
                        builder.idempotent(options.name());
                    }
                    clients.add(builder.build());
                }
                Integer failed = connectAll(clients);
                if (failed != null) {
                    return failed;
                }
                return measure(clients);
            } finally {
                closeAll(clients);
            }
        }
    }

    /** @return null when all connected, else the exit status */
    private Integer connectAll(List<TroupeClient> clients) throws InterruptedException {
        List<CompletableFuture<String>> connects = new ArrayList<>();
        for (TroupeClient client : clients) {
            connects.add(client.connect());
        }
        try {
            CompletableFuture.allOf(connects.toArray(CompletableFuture[]::new))
                    .get(target.timeout().plus(SLACK).toNanos(), TimeUnit.NANOSECONDS);
            return null;
        } catch (ExecutionException e) {
            long failures = connects.stream().filter(CompletableFuture::isCompletedExceptionally).count();
            Throwable cause = e.getCause();
            String prefix = "troupe-client bench: " + failures + " of " + clients.size()
                    + " connections failed, the first with ";
            if (cause instanceof TroupeClientException error) {
                err.println(prefix + Main.describe(error));
                return Main.EXIT_SERVER_ERROR;
            }
            err.println(prefix + (cause instanceof IOException ? cause.getMessage() : cause.toString()));
            return Main.EXIT_UNREACHABLE;
        } catch (TimeoutException e) {
            err.println("troupe-client bench: connections still pending after " + target.timeout().toMillis() + " ms");
            return Main.EXIT_UNREACHABLE;
        }
    }

    private int measure(List<TroupeClient> clients) throws InterruptedException {
        BenchResults results = new BenchResults();
        CountDownLatch finished = new CountDownLatch(clients.size());
        long start = System.nanoTime();
        long measureFrom = start + options.warmup().toNanos();
        long measureUntil = measureFrom + options.duration().toNanos();
        err.println("troupe-client bench: warming up for " + BenchResults.duration(options.warmup().toNanos())
                + ", then measuring for " + BenchResults.duration(options.duration().toNanos()));
        List<BenchConnection> connections = new ArrayList<>();
        for (TroupeClient client : clients) {
            connections.add(new BenchConnection(client, options, results, measureFrom, measureUntil, finished));
        }
        BenchPacer pacer = null;
        if (options.rate() > 0) {
            pacer = new BenchPacer(connections, options.rate(), start, measureUntil);
            pacer.start();
        } else {
            connections.forEach(BenchConnection::start);
        }
        Duration allowed = options.warmup().plus(options.duration()).plus(target.timeout()).plus(SLACK);
        try {
            if (!awaitWithProgress(finished, new BenchProgress(results, start, measureFrom), start, measureUntil,
                    start + allowed.toNanos())) {
                err.println("troupe-client bench: " + finished.getCount() + " connections still had requests in "
                        + "flight at the end; reporting without them");
            }
        } finally {
            if (pacer != null) {
                pacer.stop();
            }
        }
        results.print(out, target, options);
        return results.errorCount() == 0 ? Main.EXIT_OK : Main.EXIT_SERVER_ERROR;
    }

    /**
     * Waits for every connection to finish, printing a progress line every second until the measured
     * window ends.
     *
     * @return whether all finished before {@code deadline}
     */
    private boolean awaitWithProgress(CountDownLatch finished, BenchProgress progress, long start,
            long measureUntil, long deadline) throws InterruptedException {
        long nextLine = start + PROGRESS_EVERY;
        while (true) {
            long now = System.nanoTime();
            boolean lineDue = now - measureUntil < 0 && nextLine - measureUntil < 0;
            long wakeAt = lineDue ? nextLine : deadline;
            if (finished.await(Math.max(0, wakeAt - now), TimeUnit.NANOSECONDS)) {
                return true;
            }
            now = System.nanoTime();
            if (now - deadline >= 0) {
                return false;
            }
            if (now - nextLine >= 0 && now - measureUntil < 0) {
                err.println(progress.line(now));
                while (nextLine - now <= 0) {
                    nextLine += PROGRESS_EVERY; // a late wake-up skips the lines it missed
                }
            }
        }
    }

    private static void closeAll(List<TroupeClient> clients) throws InterruptedException {
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (TroupeClient client : clients) {
            closing.add(client.closeAsync());
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
                    .get(CLOSE_TIMEOUT.plus(SLACK).toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // The loop's close, which follows, closes whatever is left.
        }
    }
}
