package io.troupe.host.actor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Collects the answers of the actors taking part in one step of a hot swap (detach or prepare), so
 * that the coordinating thread can wait for all of them and learn which failed.
 *
 * <p><b>Threading:</b> {@link #arrive} and {@link #fail} from the actors' turns; {@link #await} from
 * the coordinating (non-runtime) thread.
 */
public final class SwapBarrier {

    private final CountDownLatch pending;
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

    SwapBarrier(int parties) {
        this.pending = new CountDownLatch(parties);
    }

    void arrive() {
        pending.countDown();
    }

    void fail(String failure) {
        failures.add(failure);
        pending.countDown();
    }

    /**
     * Waits for every party; returns the failures, with one entry per party that did not answer in
     * time.
     */
    public List<String> await(Duration timeout) throws InterruptedException {
        List<String> result = new ArrayList<>();
        if (!pending.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            result.add(pending.getCount() + " actors did not answer within " + timeout);
        }
        result.addAll(failures);
        return result;
    }
}
