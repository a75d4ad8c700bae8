package io.troupe.host.timer;

import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Timeouts ordered by deadline (then by scheduling order): muduo's TimerQueue without the timerfd.
 * Cancelled timeouts are dropped lazily, and purged in bulk once they make up half of a large queue,
 * so that many short-lived cancelled timeouts (asks answered in time) do not pile up.
 *
 * <p><b>Threading:</b> confined to one owner thread except {@link #newTimeout}, which any thread may
 * call, and {@link Timeout#cancel()}, which only counts the cancellation here.
 */
public final class TimerQueue {

    private static final int PURGE_MIN_SIZE = 1024;

    private final PriorityQueue<Timeout> heap = new PriorityQueue<>(
            (a, b) -> a.deadline != b.deadline
                    ? Long.compare(a.deadline - b.deadline, 0)
                    : Long.compare(a.sequence, b.sequence));
    private final AtomicInteger cancelled = new AtomicInteger();
    private final Runnable countCancel = cancelled::incrementAndGet;
    private final AtomicLong sequence = new AtomicLong();

    /** Creates a timeout (not yet queued); timeouts with equal deadlines run in creation order. */
    public Timeout newTimeout(long deadline, Runnable action) {
        return new Timeout(deadline, sequence.getAndIncrement(), action, countCancel);
    }

    /** Queues a timeout created by {@link #newTimeout}. */
    public void add(Timeout timeout) {
        if (!timeout.isCancelled()) {
            heap.add(timeout);
        }
    }

    /**
     * Runs every timeout due at {@code now}, in deadline order.
     *
     * @return how many actions ran
     */
    public int runDue(long now) {
        purgeIfWorthIt();
        int ran = 0;
        Timeout head;
        while ((head = heap.peek()) != null && head.deadline - now <= 0) {
            heap.poll();
            if (head.isCancelled()) {
                cancelled.decrementAndGet();
            } else {
                head.run();
                ran++;
            }
        }
        return ran;
    }

    /** The earliest deadline, or {@link Long#MAX_VALUE} when nothing is queued. */
    public long nextDeadline() {
        Timeout head;
        while ((head = heap.peek()) != null && head.isCancelled()) {
            heap.poll();
            cancelled.decrementAndGet();
        }
        return head == null ? Long.MAX_VALUE : head.deadline;
    }

    /** Queued timeouts, cancelled ones included until they are dropped. */
    public int size() {
        return heap.size();
    }

    private void purgeIfWorthIt() {
        int size = heap.size();
        if (size >= PURGE_MIN_SIZE && cancelled.get() * 2 > size) {
            int removed = 0;
            var it = heap.iterator();
            while (it.hasNext()) {
                if (it.next().isCancelled()) {
                    it.remove();
                    removed++;
                }
            }
            cancelled.addAndGet(-removed);
        }
    }
}
