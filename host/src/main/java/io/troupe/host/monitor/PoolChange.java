package io.troupe.host.monitor;

/**
 * A resize of the worker pool decided by the monitor.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param from   workers before
 * @param to     workers after
 * @param reason why, in words, for the log
 */
public record PoolChange(int from, int to, String reason) {

    /** Whether the pool grew. */
    public boolean grew() {
        return to > from;
    }

    @Override
    public String toString() {
        return (grew() ? "Growing" : "Shrinking") + " the worker pool from " + from + " to " + to + ": " + reason;
    }
}
