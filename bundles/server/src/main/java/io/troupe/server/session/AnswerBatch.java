package io.troupe.server.session;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

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
 *                                     flush(): encode the queued frames into one buffer ─► connection.write
 *                                              (a large frame: header, content, CRC; no copy) ─► gathering write
 * </pre>
 *
 * <p>Frames keep their order within the batch. The session flushes the batch itself before it writes
 * a frame of its own on the loop ({@link #flush}), so that answers completed earlier stay ahead of it
 * (above all of a BYE).
 *
 * <p>The queue is a stack of nodes that adders push with a CAS on one field and the loop takes whole
 * (newest first) and reverses: an idle session holds no queue object at all, where a
 * {@code ConcurrentLinkedQueue} would keep itself and its sentinel node (48 bytes) per connection.
 *
 * <p><b>Threading:</b> {@link #add} from any thread (lock-free: a CAS loop on {@code pushed}); {@link #flush}
 * and {@link #clear} on the connection's loop only, which alone reads and changes the taken nodes.
 */
final class AnswerBatch implements Runnable {

    /** Frames encoded per flush at most; more are left to the next flush, scheduled at once. */
    static final int MAX_FRAMES_PER_FLUSH = 256;
    /**
     * Frames larger than this are written on their own, their content not copied: the header, the
     * content array and the CRC as one group. From 1 KiB up that pays: 64 x 1 x 4 KiB echo allocates
     * 4.7 KiB per request instead of 8.4 KiB (and 16 KiB served it no better than copying).
     */
    static final int MAX_BATCHED_FRAME_BYTES = 1024;
    private static final VarHandle FLUSH_SCHEDULED;
    private static final VarHandle PUSHED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            FLUSH_SCHEDULED = lookup.findVarHandle(AnswerBatch.class, "flushScheduled", boolean.class);
            PUSHED = lookup.findVarHandle(AnswerBatch.class, "pushed", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One queued frame; {@code next} is written before the push publishes it, then only by the loop. */
    private static final class Node {
        final Frame frame;
        Node next;

        Node(Frame frame) {
            this.frame = frame;
        }
    }

    private final Connection connection;
    private final Runnable written;
    /** The frames added since the loop last took them, newest first; null when none. */
    private volatile Node pushed;
    /** Loop-confined: frames taken and not yet written, oldest first (what a flush at its limit left). */
    private Node ready;
    /** Whether a flush is queued on the loop (a field with a VarHandle: no AtomicBoolean per session). */
    private volatile boolean flushScheduled;

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
        Node node = new Node(frame);
        Node head;
        do {
            head = pushed;
            node.next = head;
        } while (!PUSHED.compareAndSet(this, head, node));
        scheduleFlush();
    }

    /** The flush task on the loop (the batch is its own task: no lambda per session). */
    @Override
    public void run() {
        flush();
    }

    /** Writes every queued frame, in order. On the loop. */
    void flush() {
        flushScheduled = false; // before taking: an adder that still sees true has queued before
        if (ready == null) {
            ready = oldestFirst((Node) PUSHED.getAndSet(this, null));
        }
        int flushed = 0;
        while (flushed < MAX_FRAMES_PER_FLUSH && ready != null) {
            // a run of small frames goes out in one buffer (sized by a first walk), a large frame on its own
            Node first = ready;
            int bytes = FrameEncoder.encodedSize(first.frame);
            int count = 1;
            Node end = first.next;
            if (bytes <= MAX_BATCHED_FRAME_BYTES) {
                int size;
                while (end != null && flushed + count < MAX_FRAMES_PER_FLUSH
                        && (size = FrameEncoder.encodedSize(end.frame)) <= MAX_BATCHED_FRAME_BYTES) {
                    bytes += size;
                    count++;
                    end = end.next;
                }
            }
            if (count == 1 && bytes > MAX_BATCHED_FRAME_BYTES) {
                connection.write(FrameEncoder.encodeGathered(first.frame)); // its content is not copied
            } else if (count == 1) {
                connection.write(FrameEncoder.encode(first.frame));
            } else {
                ByteBuffer out = ByteBuffer.allocate(bytes);
                for (Node node = first; node != end; node = node.next) {
                    FrameEncoder.encode(node.frame, out);
                }
                connection.write(out.flip());
            }
            ready = end;
            flushed += count;
        }
        if (flushed > 0) {
            written.run();
        }
        if (ready != null || pushed != null) {
            scheduleFlush();
        }
    }

    /** Reverses a taken stack in place: the loop owns its nodes now. */
    private static Node oldestFirst(Node newest) {
        Node reversed = null;
        while (newest != null) {
            Node next = newest.next;
            newest.next = reversed;
            reversed = newest;
            newest = next;
        }
        return reversed;
    }

    /** Drops what is queued: the connection is gone. On the loop. */
    void clear() {
        PUSHED.setVolatile(this, null);
        ready = null;
    }

    private void scheduleFlush() {
        if (!flushScheduled && FLUSH_SCHEDULED.compareAndSet(this, false, true)) {
            connection.execute(this);
        }
    }
}
