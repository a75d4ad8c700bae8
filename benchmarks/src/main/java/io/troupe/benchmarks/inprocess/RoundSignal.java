package io.troupe.benchmarks.inprocess;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts a round and tells the benchmark thread that it is over: the message an actor receives to
 * begin, and the latch its last actor counts down.
 *
 * <p><b>Threading:</b> {@link #done} from any actor thread; {@link #await} from the benchmark thread.
 */
final class RoundSignal {

    private final CountDownLatch done;

    RoundSignal(int parties) {
        this.done = new CountDownLatch(parties);
    }

    void done() {
        done.countDown();
    }

    /** Waits for every party, at most {@link Workload#ROUND_TIMEOUT_SECONDS}. */
    void await() throws InterruptedException, TimeoutException {
        if (!done.await(Workload.ROUND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new TimeoutException("round did not complete within " + Workload.ROUND_TIMEOUT_SECONDS
                    + " s: " + done.getCount() + " parties missing");
        }
    }
}
