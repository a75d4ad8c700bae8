package io.troupe.host.monitor;

/**
 * Hears what the monitor decides, besides the log: for tests and, later, for alerting. The monitor
 * logs every event itself; a listener adds to that.
 *
 * <p><b>Threading:</b> called on the monitor thread (or the thread that drives
 * {@code RuntimeMonitor.tick} in a test); implementations must be quick and must not throw.
 */
public interface MonitorListener {

    /** Listens to nothing. */
    MonitorListener NONE = new MonitorListener() { };

    /** A stall was detected; called once per stall. */
    default void stalled(Stall stall) {
    }

    /** A reported stall is over: the turn ended or the loop is back in select. */
    default void recovered(Stall stall) {
    }

    /** The monitor resized the worker pool. */
    default void resized(PoolChange change) {
    }

    /** The monitor resized the actor pool of a poolable handler. */
    default void poolResized(ActorPoolChange change) {
    }

    /** The periodic summary line, as written to the log at INFO. */
    default void summarised(String line) {
    }
}
