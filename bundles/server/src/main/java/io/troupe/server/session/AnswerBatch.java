package io.troupe.server.session;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.troupe.api.net.Connection;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;

/**
 * The answers of one session on their way from the threads that complete requests to the
 * connection's loop. A completing thread only queues the frame and, unless a flush is already
 * pending, hands one flush task to the loop; the loop encodes every queued frame into one buffer and
 * writes it once. So a burst of answers costs one task, one buffer and one write, instead of a
 * buffer, a queue entry and a flush request each.
 *
 * <pre>
 *   worker ─add(frame)─► queue ──(first since the last flush: connection.execute(flush))──► loop:
 *                                     flush(): encode all queued frames into one buffer ─► connection.write
 * </pre>
 *
 * <p>Frames keep their order within the batch. The session flushes the batch itself before it writes
 * a frame of its own on the loop ({@link #flush}), so that answers completed earlier stay ahead of it
 * (above all of a BYE).
 *
 * <p><b>Threading:</b> {@link #add} from any thread; {@link #flush} and {@link #clear} on the
 * connection's loop only.
 */
final class AnswerBatch {

    /** Frames encoded per flush at most; more are left to the next flush, scheduled at once. */
    static final int MAX_FRAMES_PER_FLUSH = 256;
    /** Frames larger than this are written in a buffer of their own. */
    static final int MAX_BATCHED_FRAME_BYTES = 16 * 1024;
    private static final Frame[] NOTHING_TAKEN = new Frame[0];
    private static final VarHandle FLUSH_SCHEDULED;

    static {
        try {
            FLUSH_SCHEDULED = MethodHandles.lookup().findVarHandle(AnswerBatch.class, "flushScheduled", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Connection connection;
    private final Runnable written;
    private final ConcurrentLinkedQueue<Frame> queue = new ConcurrentLinkedQueue<>();
    /** Whether a flush is queued on the loop (a field with a VarHandle: no AtomicBoolean per session). */
    private volatile boolean flushScheduled;
    private final Runnable flushTask = this::flush;
    // Loop-confined: the frames taken for the current flush; grown on demand (an idle session holds
    // none), at most MAX_FRAMES_PER_FLUSH.
    private Frame[] taken = NOTHING_TAKEN;

    AnswerBatch(Connection connection) {
        this(connection, () -> { });
    }

    /** @param written runs on the loop after a flush that wrote anything */
    AnswerBatch(Connection connection, Runnable written) {
        this.connection = connection;
        this.written = written;
    }

    /** Queues {@code frame} for the loop. Any thread. */
    void add(Frame frame) {
        queue.offer(frame);
        scheduleFlush();
    }

    /** Writes every queued frame, in order. On the loop. */
    void flush() {
        flushScheduled = false; // before taking: an adder that still sees true has queued before
        int count = 0;
        int batchBytes = 0;
        boolean wrote = false;
        Frame frame;
        while (count < MAX_FRAMES_PER_FLUSH && (frame = queue.poll()) != null) {
            int size = FrameEncoder.encodedSize(frame);
            if (size > MAX_BATCHED_FRAME_BYTES) {
                write(count, batchBytes);
                count = 0;
                batchBytes = 0;
                connection.write(FrameEncoder.encode(frame));
                wrote = true;
                continue;
            }
            if (count == taken.length) {
                int grown = Math.min(MAX_FRAMES_PER_FLUSH, Math.max(8, 2 * count));
                taken = Arrays.copyOf(taken, grown);
            }
            taken[count] = frame;
            count++;
            batchBytes += size;
        }
        write(count, batchBytes);
        if (wrote || count > 0) {
            written.run();
        }
        if (!queue.isEmpty()) {
            scheduleFlush();
        }
    }

    /** Drops what is queued: the connection is gone. On the loop. */
    void clear() {
        queue.clear();
    }

    private void write(int count, int batchBytes) {
        if (count == 0) {
            return;
        }
        if (count == 1) {
            connection.write(FrameEncoder.encode(taken[0]));
            taken[0] = null;
            return;
        }
        ByteBuffer out = ByteBuffer.allocate(batchBytes);
        for (int i = 0; i < count; i++) {
            FrameEncoder.encode(taken[i], out);
            taken[i] = null;
        }
        connection.write(out.flip());
    }

    private void scheduleFlush() {
        if (!flushScheduled && FLUSH_SCHEDULED.compareAndSet(this, false, true)) {
            connection.execute(flushTask);
        }
    }
}
