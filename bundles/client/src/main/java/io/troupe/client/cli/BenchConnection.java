package io.troupe.client.cli;

import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.troupe.client.ConnectionLostException;
import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * The requests of one connection of a bench run, in one of two modes:
 * <ul>
 *   <li><b>closed loop</b> ({@link #start}): keeps {@code pipeline} requests in flight until the end of the
 *       run, each answer (or failure) recorded and replaced by a new request; a request counts in the
 *       measured window when its answer arrives in it, and its latency runs from its sending;</li>
 *   <li><b>paced</b> ({@link #due}, {@link #pacingOver}, for {@code --rate}): the bench's pacer says when each
 *       request is due; one is sent at once when fewer than {@code pipeline} are in flight, else it waits
 *       in a backlog for the next answer. A request counts in the window it was due in, and its latency runs
 *       from when it was due, so that a server that stalls shows in the latency instead of lowering the
 *       rate unseen (no coordinated omission).</li>
 * </ul>
 * Either way, after the end the answers still due are awaited and recorded, then {@code finished}
 * counts down once.
 *
 * <p>A connection that is lost stops: the bench does not reconnect (unless {@code --idempotent}, when the
 * client holds and resends the requests and no loss reaches this class), and its count of errors tells;
 * paced requests due on it afterwards count as {@code connection.lost} too. A redirect is no loss: the
 * client follows it with the requests.
 *
 * <p><b>Threading:</b> {@link #start} on the bench's thread; {@link #due} and {@link #pacingOver} on the
 * pacer's thread; answers on the client's loop thread, which completes the futures. The paced state is a
 * lock-free backlog and an in-flight count claimed by compare-and-set: whoever adds to the backlog or
 * frees a slot drains it afterwards, so no due request is left waiting while a slot is free.
 */
final class BenchConnection {

    private final TroupeClient client;
    private final BenchOptions options;
    private final BenchResults results;
    private final long measureFrom;
    private final long measureUntil;
    private final CountDownLatch finished;
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Paced mode: when each request waiting for a free slot was due ({@link System#nanoTime}). */
    private final Queue<Long> backlog = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean counted = new AtomicBoolean();
    private volatile boolean pacingOver;
    private volatile boolean lost;

    BenchConnection(TroupeClient client, BenchOptions options, BenchResults results, long measureFrom,
            long measureUntil, CountDownLatch finished) {
        this.client = client;
        this.options = options;
        this.results = results;
        this.measureFrom = measureFrom;
        this.measureUntil = measureUntil;
        this.finished = finished;
    }

    /** Closed loop: fills the pipeline; each answer sends the next request until the end of the run. */
    void start() {
        inFlight.set(options.pipeline());
        for (int i = 0; i < options.pipeline(); i++) {
            issue();
        }
    }

    private void issue() {
        byte[] payload = options.payload().next();
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
        boolean lostNow = record(payload, sent, now, now, content, failure);
        if (now - measureUntil < 0 && !lostNow) {
            issue();
        } else if (inFlight.decrementAndGet() == 0) {
            finished.countDown();
        }
    }

    /** Paced: a request was due at {@code due} ({@link System#nanoTime}); sent now if the pipeline has room. */
    void due(long due) {
        if (lost) {
            results.recordError(BenchResults.CONNECTION_LOST);
            return;
        }
        backlog.add(due);
        drain();
        if (lost) {
            failBacklog(); // lost while this one was added: the loss's own sweep may have missed it
        }
    }

    /** Paced: no request will be due any more; the connection finishes once those due are answered. */
    void pacingOver() {
        pacingOver = true;
        finishIfIdle();
    }

    /** Sends what the backlog holds while a slot is free; returns when it is empty or the pipeline full. */
    private void drain() {
        while (!lost && !backlog.isEmpty()) {
            int flying = inFlight.get();
            if (flying >= options.pipeline()) {
                return; // the answer that frees a slot drains again
            }
            if (!inFlight.compareAndSet(flying, flying + 1)) {
                continue;
            }
            Long due = backlog.poll();
            if (due == null) {
                inFlight.decrementAndGet(); // another thread took it: look again
                continue;
            }
            sendPaced(due);
        }
    }

    private void sendPaced(long due) {
        byte[] payload = options.payload().next();
        client.request(options.name(), payload)
                .whenComplete((content, failure) -> answeredPaced(payload, due, content, failure));
    }

    private void answeredPaced(byte[] payload, long due, byte[] content, Throwable failure) {
        if (record(payload, due, due, System.nanoTime(), content, failure)) {
            lost = true;
            failBacklog();
        }
        inFlight.decrementAndGet();
        drain();
        finishIfIdle();
    }

    /** Counts every request waiting in the backlog of a lost connection as lost, emptying it. */
    private void failBacklog() {
        while (backlog.poll() != null) {
            results.recordError(BenchResults.CONNECTION_LOST);
        }
    }

    /**
     * Records one answer, arrived at {@code now}: an error by kind, an echo that differs from its request,
     * or the latency from {@code start} in the phase the instant {@code at} falls in (nothing after the
     * measured window).
     *
     * @return whether the connection was lost
     */
    private boolean record(byte[] payload, long start, long at, long now, byte[] content, Throwable failure) {
        if (failure != null) {
            results.recordError(kind(failure));
            return failure instanceof ConnectionLostException;
        }
        if (options.verifiesEcho() && !Arrays.equals(payload, content)) {
            results.recordError(BenchResults.MISMATCH);
        } else if (at - measureFrom < 0) {
            results.recordWarmUpLatency(now - start);
        } else if (at - measureUntil < 0) {
            results.recordLatency(now - start);
        }
        return false;
    }

    private void finishIfIdle() {
        if (pacingOver && inFlight.get() == 0 && (lost || backlog.isEmpty()) && counted.compareAndSet(false, true)) {
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
