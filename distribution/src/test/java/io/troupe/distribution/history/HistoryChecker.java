package io.troupe.distribution.history;

/**
 * Checks a history against a promise as the history is recorded (or replayed from a file): it is given every
 * entry in {@code seq} order, keeps only what later entries need, and reports at the end.
 *
 * <p><b>Threading:</b> not thread-safe: {@link History} calls it under its own lock, one entry at a time and in
 * order; {@link #finish()} once, after the last entry.
 */
public interface HistoryChecker {

    /** The next entry of the history; entries about other functions are ignored. */
    void accept(Event event);

    /** The verdict once the history is complete: operations still pending count as of unknown outcome. */
    CheckReport finish();
}
