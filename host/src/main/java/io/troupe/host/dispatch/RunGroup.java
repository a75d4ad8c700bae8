package io.troupe.host.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The runnable tasks of one tenant, or of no tenant (the runtime's own actors and those of in-process
 * users): one lane of a {@link FairRunQueue}, with the worker time its tasks have taken.
 *
 * <p><b>Virtual time.</b> Each turn a worker runs for the group adds its duration, divided by the
 * group's weight, to the group's virtual time; workers serve the group with work whose virtual time
 * is lowest. Two groups that always have work therefore get worker time in proportion to their
 * weights, whatever a turn costs: a tenant whose turns burn 5 ms gets its share, not the pool. A
 * group that was idle does not bank the time it did not use: when it is picked, its virtual time is
 * raised to at most {@link #MAX_LAG_NANOS} (weighted) behind the queue's virtual clock, so a
 * returning tenant runs first for a bounded burst, then takes turns. Virtual times grow without bound
 * and are compared by difference, which stays right across an overflow.
 *
 * <p>Groups are created by the queue, one per tenant id, and kept for the queue's life (tenant ids
 * come from configuration, so their number is bounded): a cell scheduled under a group always finds
 * it served.
 *
 * <p><b>Threading:</b> every method from any thread. The queue and the counters are lock-free; the
 * weight is a volatile field changed by configuration.
 */
public final class RunGroup {

    /** How much unused worker time (weight 1) a group may bring back from idleness: 2 ms. */
    static final long MAX_LAG_NANOS = 2_000_000;
    /** Virtual time is kept in units of a nanosecond divided by this, so that weights up to 1000 stay precise. */
    static final long SCALE = 1024;

    private static final VarHandle VIRTUAL_TIME;

    static {
        try {
            VIRTUAL_TIME = MethodHandles.lookup().findVarHandle(RunGroup.class, "virtualTime", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String tenant;
    private final RunQueue queue;
    private final LongAdder workerNanos = new LongAdder();
    private final LongAdder turns = new LongAdder();
    /** Turns of this group running now; counted only while the queue has several lanes. */
    private final AtomicInteger running = new AtomicInteger();
    private volatile int weight = 1;
    @SuppressWarnings("unused") // accessed through VIRTUAL_TIME
    private volatile long virtualTime;

    RunGroup(String tenant, int capacity) {
        this.tenant = tenant;
        this.queue = new RunQueue(capacity);
    }

    /** The tenant id; empty for the group of tasks that belong to no tenant. */
    public String tenant() {
        return tenant;
    }

    /** Whether this group serves a tenant (rather than the runtime's own, tenant-less tasks). */
    public boolean isTenant() {
        return !tenant.isEmpty();
    }

    public int weight() {
        return weight;
    }

    /** Sets the share of worker time this group gets against others that have work; at least 1. */
    public void weight(int newWeight) {
        if (newWeight < 1) {
            throw new IllegalArgumentException("weight must be at least 1, was " + newWeight);
        }
        weight = newWeight;
    }

    /** Worker time its turns have taken, measured since the group was created. */
    public long workerNanos() {
        return workerNanos.sum();
    }

    /** Turns measured for this group. */
    public long turns() {
        return turns.sum();
    }

    /** Turns of this group running now (while the run queue has several lanes). */
    public int running() {
        return running.get();
    }

    /**
     * Claims a turn: always for the group of no tenant; for a tenant only while fewer than {@code cap}
     * of its turns run, so that one tenant never holds every worker.
     */
    boolean tryEnter(int cap) {
        if (!isTenant()) {
            running.incrementAndGet();
            return true;
        }
        int current;
        do {
            current = running.get();
            if (current >= cap) {
                return false;
            }
        } while (!running.compareAndSet(current, current + 1));
        return true;
    }

    /** Whether the group may start another turn under {@code cap}; a racy read. */
    boolean hasRoom(int cap) {
        return !isTenant() || running.get() < cap;
    }

    /** Ends a turn claimed by {@link #tryEnter}. */
    void leave() {
        running.decrementAndGet();
    }

    /** Tasks waiting in this group; an estimate. */
    public int queued() {
        return queue.size();
    }

    RunQueue queue() {
        return queue;
    }

    long virtualTime() {
        return (long) VIRTUAL_TIME.getOpaque(this);
    }

    /** Adds a turn of {@code nanos} worker time. */
    void charge(long nanos) {
        long spent = Math.max(0, nanos);
        workerNanos.add(spent);
        turns.increment();
        VIRTUAL_TIME.getAndAdd(this, spent * SCALE / weight);
    }

    /** Raises the virtual time to {@code floor} if it lags behind it (a racy raise; losing one is harmless). */
    void catchUp(long floor) {
        long current = virtualTime();
        if (current - floor < 0) {
            VIRTUAL_TIME.compareAndSet(this, current, floor);
        }
    }

    /** The most virtual time this group may lag behind the queue's clock. */
    long maxLag() {
        return MAX_LAG_NANOS * SCALE / weight;
    }

    @Override
    public String toString() {
        return "RunGroup[" + (tenant.isEmpty() ? "no tenant" : tenant) + ", weight " + weight + "]";
    }
}
