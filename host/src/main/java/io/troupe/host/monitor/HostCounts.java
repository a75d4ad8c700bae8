package io.troupe.host.monitor;

import java.util.Objects;
import java.util.function.LongSupplier;

import io.troupe.host.deploy.SwapCounts;

/**
 * What other parts of the host count that the runtime statistics report beside the monitor's own
 * measurements: the logger's dropped records and queued bytes, and the deployer's swaps and rollbacks. Each
 * is read when a snapshot is taken, never copied or counted again.
 *
 * <p><b>Threading:</b> immutable; the suppliers and {@link SwapCounts} are read from any thread.
 *
 * @param logRecordsDropped the logger's records dropped at its buffer cap
 * @param logQueueBytes     the bytes the logger's buffer holds for records not yet written
 * @param swaps             the deployer's swaps and rollbacks
 */
public record HostCounts(LongSupplier logRecordsDropped, LongSupplier logQueueBytes, SwapCounts swaps) {

    public HostCounts {
        Objects.requireNonNull(logRecordsDropped, "logRecordsDropped");
        Objects.requireNonNull(logQueueBytes, "logQueueBytes");
        Objects.requireNonNull(swaps, "swaps");
    }

    /** The logger's drop count alone: no log queue to read, no deploy folder. */
    public static HostCounts logDropsOnly(LongSupplier logRecordsDropped) {
        return new HostCounts(logRecordsDropped, () -> 0, new SwapCounts());
    }
}
