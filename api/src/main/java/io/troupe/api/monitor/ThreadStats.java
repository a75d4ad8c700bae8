package io.troupe.api.monitor;

/**
 * One runtime thread: a worker or an IO loop.
 *
 * <p><b>Threading:</b> immutable; share it freely.
 *
 * @param name        the thread name, for example {@code troupe-worker-2} or {@code troupe-io-1}
 * @param busyRatio   the share of the last sampling window the thread spent working (a worker in
 *                    actor turns, a loop outside its select), between 0 and 1
 * @param busyMillis  how long the current piece of work has run: a worker's current turn (timed from
 *                    the first monitor look that saw it, so a lower bound with the monitor period as
 *                    resolution), or a loop's time since it last left its select; 0 when the thread
 *                    waits
 * @param stalled     whether {@code busyMillis} is beyond the stall threshold for this kind of thread
 * @param alive       whether the thread runs: {@code false} for a runtime thread that ended while the runtime
 *                    still counts it (an error escaped it), which a liveness probe reports (since 1.4)
 */
public record ThreadStats(String name, double busyRatio, long busyMillis, boolean stalled, boolean alive) {

    /** A running thread: the constructor of version 1.3. */
    public ThreadStats(String name, double busyRatio, long busyMillis, boolean stalled) {
        this(name, busyRatio, busyMillis, stalled, true);
    }
}
