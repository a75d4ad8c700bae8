package io.troupe.host.monitor;

import java.time.Duration;

/**
 * Decides how many workers the pool needs, from what the monitor saw at one look. A pure function
 * of its inputs and of one remembered instant, so that it can be tested with made-up times.
 *
 * <h2>Rules</h2>
 * <pre>
 *   healthy = size - stalled          (workers able to take the next turn)
 *
 *   grow    when stalled &gt; 0, runnable actors wait (queued &gt; 0) and healthy &lt; min:
 *           by min - healthy, at most queued, never beyond max.
 *           Stalled (blocked) workers are replaced, so that min workers keep serving the queue.
 *           A pool that is merely saturated by CPU work does not grow: more threads than cores
 *           would not make it faster.
 *
 *   shrink  when size &gt; min + stalled (workers beyond what the grow rule asks for), and the pool
 *           had spare capacity (a worker between turns, nothing queued) at every look for the whole
 *           idle period: retire the surplus, at most the workers idle now, never below min.
 * </pre>
 *
 * <p><b>Threading:</b> confined to the monitor thread.
 */
final class PoolSizer {

    /** A decision: {@code delta} workers to add (positive) or retire (negative), and why. */
    record Decision(int delta, String reason) {

        static final Decision NONE = new Decision(0, "");

        boolean isNone() {
            return delta == 0;
        }
    }

    private final int min;
    private final int max;
    private final long idleNanos;
    private final String idleText;
    /** Since when the pool has had spare capacity at every look; 0 when it has not. */
    private long spareSince;

    PoolSizer(int min, int max, Duration idlePeriod) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("bad pool bounds " + min + ".." + max);
        }
        this.min = min;
        this.max = max;
        this.idleNanos = idlePeriod.toNanos();
        this.idleText = MonitorSettings.text(idlePeriod);
    }

    /**
     * @param now     the monitor's clock
     * @param size    workers serving the queue (retiring ones not counted)
     * @param busy    of those, workers in a turn
     * @param stalled of those, workers whose turn runs beyond the stall threshold
     * @param queued  runnable actors waiting for a worker
     */
    Decision decide(long now, int size, int busy, int stalled, int queued) {
        int healthy = size - stalled;
        if (stalled > 0 && queued > 0 && healthy < min && size < max) {
            spareSince = 0;
            int add = Math.min(Math.min(min - healthy, queued), max - size);
            return new Decision(add, stalled + " of " + size + " workers stalled while " + queued
                    + " runnable actor(s) wait; keeping " + min + " worker(s) able to serve (max " + max + ")");
        }
        int surplus = size - (min + stalled);
        int idle = size - busy;
        if (surplus <= 0 || idle <= 0 || queued > 0) {
            spareSince = 0;
            return Decision.NONE;
        }
        if (spareSince == 0) {
            spareSince = now == 0 ? 1 : now;
            return Decision.NONE;
        }
        if (now - spareSince < idleNanos) {
            return Decision.NONE;
        }
        spareSince = 0;
        int retire = Math.min(surplus, idle);
        return new Decision(-retire, "the " + surplus + " worker(s) above the configured " + min
                + (stalled > 0 ? " plus " + stalled + " stalled" : "") + " were not needed for " + idleText);
    }
}
