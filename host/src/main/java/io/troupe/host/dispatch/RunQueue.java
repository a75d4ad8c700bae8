package io.troupe.host.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The queue of runnable actors that workers take turns from: a bounded multi-producer,
 * multi-consumer ring (Vyukov's array queue: each slot carries a sequence number that says whether
 * it is free or full for the current lap) backed by an unbounded overflow queue.
 *
 * <p>Scheduling an actor therefore allocates nothing while fewer than {@code capacity} actors wait;
 * beyond that, tasks spill into the overflow queue rather than being refused. Order across the two is
 * not FIFO, which only affects fairness, never correctness.
 *
 * <pre>
 *   slot i:  sequence == pos        free, a producer may claim position pos
 *            sequence == pos + 1    full, a consumer may take position pos
 * </pre>
 *
 * <p><b>Threading:</b> every method from any thread, lock-free.
 */
final class RunQueue {

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(long[].class);

    private final Object[] slots;
    private final long[] sequences;
    private final int mask;
    private final AtomicLong producerPosition = new AtomicLong();
    private final AtomicLong consumerPosition = new AtomicLong();
    private final ConcurrentLinkedQueue<Runnable> overflow = new ConcurrentLinkedQueue<>();

    /** @param capacity ring slots, rounded up to a power of two */
    RunQueue(int capacity) {
        int size = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        slots = new Object[size];
        sequences = new long[size];
        mask = size - 1;
        for (int i = 0; i < size; i++) {
            sequences[i] = i;
        }
    }

    void offer(Runnable task) {
        if (!offerToRing(task)) {
            overflow.offer(task);
        }
    }

    Runnable poll() {
        Runnable task = pollRing();
        return task != null ? task : overflow.poll();
    }

    /** An estimate of the tasks waiting. */
    int size() {
        long size = producerPosition.get() - consumerPosition.get();
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, size + overflow.size()));
    }

    /**
     * Whether no task waits; an estimate like {@link #size()}: a task whose producer has claimed a slot
     * but not yet filled it counts as waiting, so {@link #poll()} may still return {@code null}.
     */
    boolean isEmpty() {
        return producerPosition.get() == consumerPosition.get() && overflow.isEmpty();
    }

    void clear() {
        while (poll() != null) {
            // drop
        }
    }

    private boolean offerToRing(Runnable task) {
        long position = producerPosition.get();
        while (true) {
            int index = (int) position & mask;
            long sequence = (long) SEQUENCES.getAcquire(sequences, index);
            long difference = sequence - position;
            if (difference == 0) {
                if (producerPosition.compareAndSet(position, position + 1)) {
                    SLOTS.setRelease(slots, index, task);
                    SEQUENCES.setRelease(sequences, index, position + 1);
                    return true;
                }
                position = producerPosition.get();
            } else if (difference < 0) {
                return false;
            } else {
                position = producerPosition.get();
            }
        }
    }

    private Runnable pollRing() {
        long position = consumerPosition.get();
        while (true) {
            int index = (int) position & mask;
            long sequence = (long) SEQUENCES.getAcquire(sequences, index);
            long difference = sequence - (position + 1);
            if (difference == 0) {
                if (consumerPosition.compareAndSet(position, position + 1)) {
                    Runnable task = (Runnable) SLOTS.getAcquire(slots, index);
                    SLOTS.setRelease(slots, index, null);
                    SEQUENCES.setRelease(sequences, index, position + mask + 1);
                    return task;
                }
                position = consumerPosition.get();
            } else if (difference < 0) {
                return null;
            } else {
                position = consumerPosition.get();
            }
        }
    }
}
