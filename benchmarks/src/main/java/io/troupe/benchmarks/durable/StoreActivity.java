package io.troupe.benchmarks.durable;

import java.util.Locale;

/**
 * What the state store did during one run, from two {@link StoreCounters} readings around it.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param writes         snapshots written
 * @param syncs          syncs to disk
 * @param seconds        time between the readings
 * @param writeP99Millis the store's write p99 read at the end (over its recent writes)
 */
record StoreActivity(long writes, long syncs, double seconds, double writeP99Millis) {

    /** Syncs per second, as {@code 412}. */
    String syncsPerSecond() {
        return String.format(Locale.ROOT, "%,.0f", syncs / Math.max(seconds, 1e-9));
    }

    /** Snapshots per sync, as {@code 3.2}, or {@code —} without syncs. */
    String writesPerSync() {
        return syncs == 0 ? "—" : String.format(Locale.ROOT, "%.1f", (double) writes / syncs);
    }

    /** {@code 1.8 ms}, or {@code —} when nothing was written. */
    String writeP99() {
        return writes == 0 ? "—" : String.format(Locale.ROOT, "%.1f ms", writeP99Millis);
    }
}
