package io.troupe.client.cli;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.troupe.client.ConnectionLostException;
import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * Keeps {@code pipeline} requests in flight on one connection until the end of the run: each
 * answer (or failure) is recorded and replaced by a new request, on the client's loop thread.
 * After the end, answers are still awaited (and recorded as errors or dropped), then
 * {@code finished} counts down.
 *
 * <p>A connection that is lost stops: the bench does not reconnect (unless {@code --idempotent}, when the
 * client holds and resends the requests and no loss reaches this class), and its count of errors tells.
 * A redirect is no loss: the client follows it with the requests.
 *
 * <p><b>Threading:</b> {@link #start} on the bench's thread; the rest runs on the client's loop
 * thread, which completes the futures.
 */
final class BenchConnection {

    private final TroupeClient client;
    private final BenchOptions options;
    private final BenchResults results;
    private final long measureFrom;
    private final long measureUntil;
    private final CountDownLatch finished;
    private final AtomicInteger inFlight = new AtomicInteger();

    BenchConnection(TroupeClient client, BenchOptions options, BenchResults results, long measureFrom,
            long measureUntil, CountDownLatch finished) {
        this.client = client;
        this.options = options;
        this.results = results;
        this.measureFrom = measureFrom;
        this.measureUntil = measureUntil;
        this.finished = finished;
    }

    void start() {
        inFlight.set(options.pipeline());
        for (int i = 0; i < options.pipeline(); i++) {
            issue();
        }
    }

    private void issue() {
        byte[] payload = new byte[options.size()];
        ThreadLocalRandom.current().nextBytes(payload);
        long sent = System.nanoTime();
        CompletableFuture<byte[]> reply = client.request(options.name(), payload);
        reply.whenComplete((content, failure) -> answered(payload, sent, content, failure));
    }

    /**
     * The only failure that can complete a request inside {@code request()} itself is
     * {@link ConnectionLostException} (the payload size is bounded below the frame limit), and it
     * stops the connection: no recursion.
     */
    private void answered(byte[] payload, long sent, byte[] content, Throwable failure) {
        long now = System.nanoTime();
        boolean lost = false;
        if (failure != null) {
            lost = failure instanceof ConnectionLostException;
            results.recordError(kind(failure));
        } else if (options.verifiesEcho() && !Arrays.equals(payload, content)) {
            results.recordError(BenchResults.MISMATCH);
        } else if (now - measureFrom >= 0 && now - measureUntil < 0) {
            results.recordLatency(now - sent);
        }
        if (now - measureUntil < 0 && !lost) {
            issue();
        } else if (inFlight.decrementAndGet() == 0) {
            finished.countDown();
        }
    }

    private static String kind(Throwable failure) {
        if (failure instanceof TroupeClientException error) {
            return error.code();
        }
        if (failure instanceof TimeoutException) {
            return BenchResults.TIMEOUT;
        }
        if (failure instanceof ConnectionLostException) {
            return BenchResults.CONNECTION_LOST;
        }
        return failure.getClass().getSimpleName();
    }
}
