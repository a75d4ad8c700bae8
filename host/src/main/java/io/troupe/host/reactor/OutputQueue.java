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
 * added. A group of buffers added at once ({@link #add(ByteBuffer[], long)}: a frame's header, its
 * content and its CRC) is one entry of the queue, so no other producer's buffer can come between them;
 * the loop unpacks it into the batch. A write covers at most {@link #MAX_BYTES_PER_WRITE} bytes, the
 * size of the loop's staging buffer that a plaintext socket's writes are copied into
 * ({@link StagedChannel}). The batch array starts at
 * {@link #INITIAL_GATHER} slots and doubles, up to {@link #MAX_GATHER}, only when more buffers wait than it
 * holds: a connection that never has more than a few replies pending (most of them, and every idle one)
 * keeps a 32-byte array rather than a 272-byte one.
 *
 * <p>Every change of the pending count is also counted in the reactor's {@link OutputBudget}.
 *
 * <p><b>Threading:</b> {@link #add} and {@link #pending} from any thread; everything else on the
 * owning loop only.
 */
final class OutputQueue {

    static final int MAX_GATHER = 64;
    static final int INITIAL_GATHER = 4;
    private static final ByteBuffer[] NO_BATCH = new ByteBuffer[0];
    static final int MAX_BYTES_PER_WRITE = 256 * 1024;

    /** Each entry a {@link ByteBuffer} or a {@code ByteBuffer[]} group whose buffers go out together. */
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    /**
     * Bytes added and not yet written. An object of its own rather than a field with a VarHandle: producers on
     * workers update it at every reply, and as a field it would share a cache line with the loop's batch fields
     * (see the note on TcpConnection's atomics).
     */
    private final AtomicLong pending = new AtomicLong();
    /** Counts this queue's pending bytes among those of every connection of the reactor. */
    private final OutputBudget budget;
    private ByteBuffer[] batch = NO_BATCH;
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
     * Queues {@code group} (buffers with {@code bytes} remaining in all, at least one) as one entry:
     * they leave in order with nothing between them.
     *
     * @return the pending byte count including the group
     */
    long add(ByteBuffer[] group, long bytes) {
        budget.add(bytes);
        long after = pending.addAndGet(bytes);
        queue.offer(group);
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
        if (tail == batch.length) {
            grow();
        }
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
        Object dropped;
        long bytes = 0;
        while ((dropped = queue.poll()) != null) {
            if (dropped instanceof ByteBuffer buffer) {
                bytes += buffer.remaining();
            } else {
                for (ByteBuffer buffer : (ByteBuffer[]) dropped) {
                    bytes += buffer.remaining();
                }
            }
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
        while (true) {
            Object next = queue.peek();
            if (next == null) {
                return;
            }
            int size = next instanceof ByteBuffer ? 1 : ((ByteBuffer[]) next).length;
            if (batch.length - tail < size) {
                // a group goes into the batch whole: wait for room when the batch has buffers to write
                if (tail > 0 && tail + size > MAX_GATHER) {
                    return;
                }
                grow(tail + size);
            }
            queue.poll(); // the loop alone polls: still the entry peeked
            if (next instanceof ByteBuffer buffer) {
                batch[tail++] = buffer;
            } else {
                for (ByteBuffer buffer : (ByteBuffer[]) next) {
                    batch[tail++] = buffer;
                }
            }
        }
    }

    /** Doubles the batch array (at least {@link #INITIAL_GATHER}, at most {@link #MAX_GATHER} slots). */
    private void grow() {
        batch = Arrays.copyOf(batch, Math.min(MAX_GATHER, Math.max(INITIAL_GATHER, 2 * batch.length)));
    }

    /**
     * Grows the batch array until it has {@code slots}: by doubling up to {@link #MAX_GATHER}, and
     * beyond only to exactly what a group larger than that needs.
     */
    private void grow(int slots) {
        while (batch.length < slots && batch.length < MAX_GATHER) {
            grow();
        }
        if (batch.length < slots) {
            batch = Arrays.copyOf(batch, slots);
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
