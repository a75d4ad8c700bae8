package io.troupe.host.deploy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How the plugin updates of the deploy folder ended, since the host started, for the runtime statistics
 * ({@link io.troupe.api.monitor.RuntimeSnapshot#pluginSwaps()}, {@code pluginRollbacks()}):
 * <ul>
 *   <li>a <em>swap</em>: a jar replaced a running plugin in place and its new revision took over (its
 *       actors moved to it);</li>
 *   <li>a <em>rollback</em>: a jar meant to replace a running plugin was refused or failed, and the
 *       previous revision kept serving (the jar was unusable, or its actors could not move) or was put back
 *       and serves again; the outcome {@code rolled-back} of the deploy folder's status file.</li>
 * </ul>
 * First installs, removals and failures that leave nothing running are neither.
 *
 * <p><b>Threading:</b> {@link #swapped()} and {@link #rolledBack()} from the deployer thread; the reads
 * from any thread.
 */
public final class SwapCounts {

    private final AtomicLong swaps = new AtomicLong();
    private final AtomicLong rollbacks = new AtomicLong();

    /** A new revision took over. */
    public void swapped() {
        swaps.incrementAndGet();
    }

    /** An update was refused or undone; the previous revision serves. */
    public void rolledBack() {
        rollbacks.incrementAndGet();
    }

    /** Swaps since the host started. */
    public long swaps() {
        return swaps.get();
    }

    /** Rollbacks since the host started. */
    public long rollbacks() {
        return rollbacks.get();
    }
}
