package io.troupe.host.actor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Collects the answers of the actors taking part in one step of a hot swap (detach or prepare), so
 * that the coordinating thread can wait for all of them and learn which failed. The number of
 * parties may grow while the step runs: an actor that detaches brings its children in
 * ({@link #register}) before it {@linkplain #arrive arrives} itself, so the count never reaches zero
 * while a party is still to come.
 *
 * <p><b>Threading:</b> {@link #register}, {@link #arrive} and {@link #fail} from the actors' turns
 * (and the coordinating thread, before it waits); {@link #await} from the coordinating (non-runtime)
 * thread.
 */
public final class SwapBarrier {

    private final AtomicLong pending;
    private final CountDownLatch done = new CountDownLatch(1);
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

    SwapBarrier(int parties) {
        this.pending = new AtomicLong(parties);
        if (parties == 0) {
            done.countDown();
        }
    }

    /** {@code parties} more actors take part; called by a party before it arrives. */
    void register(int parties) {
        pending.addAndGet(parties);
    }

    void arrive() {
        if (pending.decrementAndGet() == 0) {
            done.countDown();
        }
    }

    void fail(String failure) {
        failures.add(failure);
        arrive();
    }

    /**
     * Waits for every party; returns the failures, with one entry naming how many parties did not
     * answer in time.
     */
    public List<String> await(Duration timeout) throws InterruptedException {
        List<String> result = new ArrayList<>();
        if (!done.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            result.add(pending.get() + " actors did not answer within " + timeout);
        }
        result.addAll(failures);
        return result;
    }
}
