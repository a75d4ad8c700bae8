package io.troupe.host.reactor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connection's pending output: a lock-free multi-producer queue of buffers, an atomic count of the
 * bytes not yet written, and the loop's batch of buffers for one gathering write.
 *
 * <pre>
 *  any thread ─add()─► queue ─(loop: up to MAX_GATHER buffers)─► batch[head..tail) ─write(batch)─► socket
 *                                                                 ▲ a partly written buffer stays at head
 * </pre>
 *
 * Buffers in the batch always precede those in the queue, so bytes leave in the order they were
 * added. A gathering write covers at most {@link #MAX_BYTES_PER_WRITE} bytes, which also bounds the
 * temporary direct buffers the JDK copies heap buffers into.
 *
 * <p>Every change of the pending count is also counted in the reactor's {@link OutputBudget}.
 *
 * <p><b>Threading:</b> {@link #add} and {@link #pending} from any thread; everything else on the
 * owning loop only.
 */
final class OutputQueue {

    static final int MAX_GATHER = 64;
    static final int MAX_BYTES_PER_WRITE = 256 * 1024;

    private final ConcurrentLinkedQueue<ByteBuffer> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong pending = new AtomicLong();
    /** Counts this queue's pending bytes among those of every connection of the reactor. */
    private final OutputBudget budget;
    private final ByteBuffer[] batch = new ByteBuffer[MAX_GATHER];
    private int head;
    private int tail;

    /** A queue counted in no reactor's budget. */
    OutputQueue() {
        this(OutputBudget.unlimited());
    }

    OutputQueue(OutputBudget budget) {
        this.budget = budget;
    }

    /**
     * Queues {@code bytes} (which must have bytes remaining).
     *
     * @return the pending byte count including {@code bytes}
     */
    long add(ByteBuffer bytes) {
        budget.add(bytes.remaining());
        long after = pending.addAndGet(bytes.remaining());
        queue.offer(bytes);
        return after;
    }

    /**
     * Puts what a direct write left of {@code bytes} in front of everything; only valid while the
     * queue is {@link #isEmpty() empty}.
     *
     * @return the pending byte count afterwards
     */
    long addRemainder(ByteBuffer bytes) {
        budget.add(bytes.remaining());
        long after = pending.addAndGet(bytes.remaining());
        batch[tail++] = bytes;
        return after;
    }

    /** Bytes added and not yet written. */
    long pending() {
        return pending.get();
    }

    /** Whether nothing is left to write, including what other threads added but the loop has not seen. */
    boolean isEmpty() {
        return head == tail && queue.isEmpty();
    }

    /**
     * One gathering write of the oldest pending buffers.
     *
     * @return the bytes written, 0 when the socket takes nothing more (or nothing is pending)
     */
    long writeTo(GatheringByteChannel channel) throws IOException {
        fillBatch();
        if (head == tail) {
            return 0;
        }
        long room = MAX_BYTES_PER_WRITE;
        int end = head;
        ByteBuffer clipped = null;
        int clippedLimit = 0;
        while (end < tail && room > 0) {
            ByteBuffer buffer = batch[end++];
            int remaining = buffer.remaining();
            if (remaining > room) {
                clipped = buffer;
                clippedLimit = buffer.limit();
                buffer.limit(buffer.position() + (int) room);
            }
            room -= remaining;
        }
        long written;
        try {
            written = channel.write(batch, head, end - head);
        } finally {
            if (clipped != null) {
                clipped.limit(clippedLimit);
            }
        }
        dropWritten();
        pending.addAndGet(-written);
        budget.add(-written);
        return written;
    }

    /** Forgets everything pending (the connection is closed or aborted). */
    void clear() {
        ByteBuffer dropped;
        long bytes = 0;
        while ((dropped = queue.poll()) != null) {
            bytes += dropped.remaining();
        }
        for (int i = head; i < tail; i++) {
            bytes += batch[i].remaining();
            batch[i] = null;
        }
        head = 0;
        tail = 0;
        pending.addAndGet(-bytes);
        budget.add(-bytes);
    }

    private void fillBatch() {
        if (head > 0) {
            int live = tail - head;
            System.arraycopy(batch, head, batch, 0, live);
            Arrays.fill(batch, live, tail, null);
            head = 0;
            tail = live;
        }
        ByteBuffer next;
        while (tail < MAX_GATHER && (next = queue.poll()) != null) {
            batch[tail++] = next;
        }
    }

    private void dropWritten() {
        while (head < tail && !batch[head].hasRemaining()) {
            batch[head++] = null;
        }
        if (head == tail) {
            head = 0;
            tail = 0;
        }
    }
}
