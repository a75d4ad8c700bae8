package io.troupe.host.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker's own queue of next tasks: those its tasks handed to the pool (an actor telling another), run by
 * the worker after its current task, in order, and taken by idle workers when more than one waits. A
 * bounded ring with one producer, the owner, and any number of consumers, the owner and thieves: Vyukov's
 * array queue (a sequence number per slot says whether it is free or full for the current lap, see
 * {@link RunQueue}) without the producers' compare-and-set, since only the owner pushes.
 *
 * <pre>
 *   push (owner):   slot t free (sequence == t)?  task into it, sequence ← t + 1, t + 1   else full: false
 *   take (anyone):  slot h full (sequence == h + 1)?  CAS head h → h + 1, task out, sequence ← h + capacity
 * </pre>
 *
 * The owner's push is two plain stores and a release store: no compare-and-set, no fence, which is what the
 * pool's shared queue costs every producer (its offer must fence before it reads whether a worker spins).
 *
 * <p><b>Threading:</b> {@link #push} only on the owner's thread; {@link #take}, {@link #size} and
 * {@link #isEmpty} from any thread, lock-free.
 */
final class LocalQueue {

    /** Tasks one worker holds at most; a push beyond goes to the shared queue. */
    static final int CAPACITY = 256;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(LocalQueue.class, "head", long.class);
            TAIL = lookup.findVarHandle(LocalQueue.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] slots;
    private final long[] sequences;
    private final int capacity;
    private final int mask;
    /** The next position to take; advanced by compare-and-set. */
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;
    /** The next position to fill; written by the owner only (opaque, for the others' size estimate). */
    @SuppressWarnings("unused") // accessed through TAIL
    private long tail;

    LocalQueue() {
        this(CAPACITY);
    }

    /** @param capacity a power of two (small ones let stress tests go round the ring) */
    LocalQueue(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, at least 2: " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.slots = new Object[capacity];
        this.sequences = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            sequences[i] = i;
        }
    }

    /**
     * Appends {@code task}; on the owner's thread only.
     *
     * @return false when the queue is full (the caller queues the task elsewhere)
     */
    boolean push(Runnable task) {
        long position = (long) TAIL.getOpaque(this);
        int index = (int) position & mask;
        if ((long) SEQUENCES.getAcquire(sequences, index) != position) {
            return false; // a taker has not freed this slot of the previous lap yet: full
        }
        SLOTS.set(slots, index, task);
        SEQUENCES.setRelease(sequences, index, position + 1); // publishes the task
        TAIL.setOpaque(this, position + 1);
        return true;
    }

    /** Takes the oldest task, or {@code null} when none waits; from any thread. */
    Runnable take() {
        long position = (long) HEAD.getVolatile(this);
        while (true) {
            int index = (int) position & mask;
            long difference = (long) SEQUENCES.getAcquire(sequences, index) - (position + 1);
            if (difference == 0) {
                if (HEAD.compareAndSet(this, position, position + 1)) {
                    Runnable task = (Runnable) SLOTS.get(slots, index);
                    SLOTS.set(slots, index, null); // pins no actor (nor its plugin) once taken
                    SEQUENCES.setRelease(sequences, index, position + capacity); // free for the next lap
                    return task;
                }
                position = (long) HEAD.getVolatile(this);
            } else if (difference < 0) {
                return null; // the slot at the head is not filled yet: empty
            } else {
                position = (long) HEAD.getVolatile(this); // another taker took it: look again
            }
        }
    }

    /** Tasks waiting; a racy estimate from any thread. */
    int size() {
        long waiting = (long) TAIL.getOpaque(this) - (long) HEAD.getVolatile(this);
        return (int) Math.max(0, Math.min(capacity, waiting));
    }

    /** Whether no task waits; a racy estimate from any thread. */
    boolean isEmpty() {
        return size() == 0;
    }
}
