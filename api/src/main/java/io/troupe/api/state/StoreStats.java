package io.troupe.api.state;

/**
 * A {@link StateStore}'s counters since it opened, for {@code stats} and metrics.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param writes          snapshots written
 * @param bytesWritten    bytes of those snapshots
 * @param syncs           syncs to disk (each makes a batch of writes durable: writes / syncs is the batch)
 * @param writeNanosP99   the 99th percentile of a write's latency, from {@code write} to durable, over
 *                        the recent writes
 * @param storedStates    snapshots stored now
 * @param storedBytes     their size now
 */
public record StoreStats(long writes, long bytesWritten, long syncs, long writeNanosP99, long storedStates,
                         long storedBytes) {
}
