package io.troupe.distribution;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Bounded waiting for a condition that the test checks over the network, in files or in a node's shell:
 * checked every 200 ms, never a fixed sleep.
 *
 * <p><b>Threading:</b> stateless; the calling thread waits.
 */
final class Await {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private Await() {
    }

    /** A condition that may throw: a probe over the network, a shell command. */
    @FunctionalInterface
    interface Condition {
        boolean holds() throws Exception;
    }

    /** A description of the state, for the failure message. */
    @FunctionalInterface
    interface State {
        String describe() throws Exception;
    }

    /**
     * Returns once {@code condition} holds (an {@link IOException} or a runtime exception counts as "not
     * yet"); fails with {@code what}, the last {@code state} and the last exception after {@code timeout}.
     */
    static void until(String what, Duration timeout, Condition condition, State state) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (condition.holds()) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() - deadline > 0) {
                String described;
                try {
                    described = state.describe();
                } catch (Exception e) {
                    described = "(" + e + ")";
                }
                AssertionError failure = new AssertionError("not within " + timeout + ": " + what + "; last seen "
                        + described);
                if (last != null) {
                    failure.initCause(last);
                }
                throw failure;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }
}
