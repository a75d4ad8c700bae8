package io.troupe.host.reactor;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heap that pending output of all of a reactor's connections together may hold: {@value
 * #HEAP_PERCENT}% of the maximum heap ({@code -Xmx}), so that the rest stays for the runtime's own work
 * (actors, mailboxes, the logger) whatever clients do. Each connection's own limits (its high-water mark,
 * its tenant's {@code maxPendingOutputBytes}) bound it alone; this bounds their sum, which with many
 * connections that never read could otherwise exceed the heap.
 *
 * <pre>
 *   OutputQueue.add / write / clear ──► pending (a LongAdder: no contention on the write path)
 *   a connection's pending output passes {@value #HELD_ABOVE_BYTES} bytes while the sum is over the budget
 *       ──► the connection is not read (as above its high-water mark) until its output is down to
 *           {@value #RESUME_AT_BYTES} bytes: peers that read their replies go on, peers that do not stay held
 * </pre>
 *
 * The sum is read only when a connection's own pending output passes {@value #HELD_ABOVE_BYTES} bytes,
 * never on the common path. Crossing the budget is logged once (WARN), and the next look that finds the sum
 * back under half of it logs once more (INFO).
 *
 * <p><b>Threading:</b> {@link #add} from any thread (writers and loops); {@link #exceeded} from the loops;
 * lock-free.
 */
final class OutputBudget {

    /** The share of the maximum heap that all connections' pending output may use. */
    static final int HEAP_PERCENT = 25;
    /** A connection with more pending output than this is not read while the budget is exceeded. */
    static final int HELD_ABOVE_BYTES = 64 << 10;
    /** A connection held by the budget is read again once its pending output is down to this. */
    static final int RESUME_AT_BYTES = 16 << 10;

    private static final Logger LOG = LoggerFactory.getLogger(OutputBudget.class);

    private final long limitBytes;
    private final LongAdder pending = new LongAdder();
    private final AtomicBoolean episode = new AtomicBoolean();

    OutputBudget(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("an output budget must be positive, got " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    /** {@value #HEAP_PERCENT}% of {@code maxHeapBytes} ({@link Runtime#maxMemory()}; {@link Long#MAX_VALUE}: none). */
    static OutputBudget ofHeap(long maxHeapBytes) {
        return new OutputBudget(maxHeapBytes == Long.MAX_VALUE ? Long.MAX_VALUE
                : (long) (maxHeapBytes * (HEAP_PERCENT / 100.0)));
    }

    /** A budget no output reaches: for connections made outside a reactor (tests). */
    static OutputBudget unlimited() {
        return new OutputBudget(Long.MAX_VALUE);
    }

    long limitBytes() {
        return limitBytes;
    }

    /** Pending output of all connections now (a sum of counters: not on the write path). */
    long pendingBytes() {
        return pending.sum();
    }

    /** A connection's pending output grew (positive) or shrank (negative) by {@code bytes}. */
    void add(long bytes) {
        pending.add(bytes);
    }

    /** Whether all connections' pending output is over the budget; logs the start and end of an episode. */
    boolean exceeded() {
        long sum = pending.sum();
        if (sum > limitBytes) {
            if (!episode.get() && episode.compareAndSet(false, true)) {
                LOG.warn("Pending output of all connections is {} KiB, above {} KiB ({}% of the heap): connections"
                        + " with more than {} KiB of unread output are not read until their clients take it",
                        sum >> 10, limitBytes >> 10, HEAP_PERCENT, HELD_ABOVE_BYTES >> 10);
            }
            return true;
        }
        if (episode.get() && sum <= limitBytes / 2 && episode.compareAndSet(true, false)) {
            LOG.info("Pending output of all connections is down to {} KiB, half the budget of {} KiB or less",
                    sum >> 10, limitBytes >> 10);
        }
        return false;
    }
}
