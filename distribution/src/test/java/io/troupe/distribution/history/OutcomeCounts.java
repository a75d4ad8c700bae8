package io.troupe.distribution.history;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Counts a workload's requests by outcome as they complete, and records the ones without a reply in the
 * history by {@link ClientOutcome}.
 *
 * <p><b>Threading:</b> thread-safe: completions on client loop threads, {@link #tally()} from any thread.
 */
final class OutcomeCounts {

    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicReference<String> firstProblem = new AtomicReference<>("none");

    void acknowledged() {
        acknowledged.incrementAndGet();
    }

    /** Operation {@code op} ({@code what}) ended with {@code error}: recorded FAIL or INFO, and counted. */
    void problem(History history, long op, Throwable error, String what) {
        ClientOutcome outcome = ClientOutcome.of(error);
        outcome.record(history, op);
        (outcome.type() == Event.Type.FAIL ? failed : unknown).incrementAndGet();
        firstProblem.compareAndSet("none", what + ": " + outcome.type() + " " + outcome.reason());
    }

    Tally tally() {
        return new Tally(acknowledged.get(), failed.get(), unknown.get(), firstProblem.get());
    }
}
