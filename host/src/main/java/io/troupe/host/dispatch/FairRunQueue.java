package io.troupe.host.dispatch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The run queue of a {@link WorkerPool}, fair by tenant: one lock-free lane ({@link RunGroup}) per
 * tenant plus one for tasks of no tenant, served by lowest virtual time (weighted worker time, see
 * {@link RunGroup}) rather than by arrival. A tenant that floods the pool with runnable actors only
 * lengthens its own lane; another tenant's actor waits for the turns already running, not for the
 * flood.
 *
 * <pre>
 *   offer(task) ──► lane of task's group (Vyukov ring + overflow)      any thread, lock-free
 *   poll()      ──► one lane:   that lane's task (the old single-queue path, no scan, no clock)
 *                   several:    the lane with work whose virtual time, raised to at most its lag
 *                               behind the clock, is lowest; the clock follows the lanes it picks
 * </pre>
 *
 * <p><b>No tenant holds every worker.</b> With several lanes, a tenant runs at most {@code cap} turns
 * at once (the pool passes its size less one, and keeps a worker in reserve for that): a tenant whose
 * turns are long (a handler burning the CPU) fills the other workers, and the next tenant's actor
 * starts on the reserve at once instead of waiting for one of those turns to end. Tasks without a
 * tenant are not capped.
 *
 * <p>A poll scans every lane, so it costs time in the number of tenants that ever had actors on this
 * pool; lanes are never removed (a cell holds its lane for life, and must always be served). Within
 * a lane, tasks keep the order of the ring (FIFO up to its capacity); the order of one actor's
 * messages is its mailbox's and is never affected.
 *
 * <p><b>Threading:</b> every method from any thread, lock-free (a new tenant's lane is published with
 * a compare-and-set of the lane array).
 */
final class FairRunQueue {

    /** Who takes a task: told the lane whose turn it claimed, to leave it when the turn ends. */
    interface Taker {
        void entered(RunGroup lane);
    }

    private static final int TENANT_CAPACITY = 1024;
    /** How often a poll looks again when the lane it chose was emptied by another worker meanwhile. */
    private static final int RETRIES = 4;

    private final RunGroup shared;
    private final ConcurrentHashMap<String, RunGroup> byTenant = new ConcurrentHashMap<>();
    private final AtomicReference<RunGroup[]> lanes;
    /** The virtual time of the lanes being served: the latest virtual time picked; only moves forward. */
    private volatile long clock;

    /** @param sharedCapacity ring slots of the lane of tasks without a tenant */
    FairRunQueue(int sharedCapacity) {
        shared = new RunGroup("", sharedCapacity);
        lanes = new AtomicReference<>(new RunGroup[] {shared});
    }

    /** The lane of {@code tenant}, created on first use; the lane of no tenant for {@code null} or "". */
    RunGroup group(String tenant) {
        if (tenant == null || tenant.isEmpty()) {
            return shared;
        }
        RunGroup existing = byTenant.get(tenant);
        if (existing != null) {
            return existing;
        }
        RunGroup created = new RunGroup(tenant, TENANT_CAPACITY);
        created.catchUp(clock);
        // listed before anyone can find it, so that no task is ever queued in a lane no poll scans
        append(created);
        RunGroup winner = byTenant.putIfAbsent(tenant, created);
        if (winner != null) {
            remove(created); // another thread created it first; ours never received a task
            return winner;
        }
        return created;
    }

    /** Every lane, the lane of no tenant first. */
    List<RunGroup> groups() {
        return List.of(lanes.get());
    }

    /** The lane {@code task} belongs to. */
    RunGroup groupOf(Runnable task) {
        if (task instanceof Grouped grouped) {
            RunGroup group = grouped.runGroup();
            if (group != null) {
                return group;
            }
        }
        return shared;
    }

    /** Whether turns of {@code group} are timed: always for tenants, and for every lane once there are several. */
    boolean measures(RunGroup group) {
        return group != shared || lanes.get().length > 1;
    }

    void offer(Runnable task) {
        groupOf(task).queue().offer(task);
    }

    /** Whether at least two tenants have lanes: then a worker is kept for one while the other is busy. */
    boolean hasSeveralTenants() {
        return lanes.get().length > 2;
    }

    /**
     * The next task, from the lane furthest behind among those with work and room for another turn
     * under {@code cap} (turns of one tenant at once). With several lanes, the turn is claimed in its
     * lane ({@link RunGroup#tryEnter}) and {@code taker} records the lane, to leave it when the turn
     * ends; with one lane nothing is counted.
     */
    Runnable poll(Taker taker, int cap) {
        RunGroup[] all = lanes.get();
        if (all.length == 1) {
            return shared.queue().poll();
        }
        for (int attempt = 0; attempt < RETRIES; attempt++) {
            RunGroup best = lowest(all, cap);
            if (best == null) {
                return null;
            }
            Runnable task = take(best, taker, cap);
            if (task != null) {
                return task;
            }
        }
        for (RunGroup group : all) { // lanes emptied or filled under us each time: take whatever is allowed
            Runnable task = take(group, taker, cap);
            if (task != null) {
                return task;
            }
        }
        return null;
    }

    /**
     * Claims a turn for {@code task}, just taken from a worker's own queue, in its lane: false when
     * that lane is at the cap (or another lane is further behind) and the task was queued in its lane
     * instead. With one lane, always true and nothing is counted.
     */
    boolean admitLocal(Runnable task, Taker taker, int cap) {
        RunGroup[] all = lanes.get();
        if (all.length == 1) {
            return true;
        }
        RunGroup own = groupOf(task);
        RunGroup best = lowest(all, cap);
        boolean behind = best != null && best != own && effectiveTime(best) - effectiveTime(own) < 0;
        if (!behind && own.tryEnter(cap)) {
            picked(own);
            taker.entered(own);
            return true;
        }
        own.queue().offer(task);
        return false;
    }

    private Runnable take(RunGroup group, Taker taker, int cap) {
        if (group.queue().isEmpty() || !group.tryEnter(cap)) {
            return null;
        }
        Runnable task = group.queue().poll();
        if (task == null) {
            group.leave();
            return null;
        }
        picked(group);
        taker.entered(group);
        return task;
    }

    /** An estimate of the tasks waiting in every lane. */
    int size() {
        long total = 0;
        for (RunGroup group : lanes.get()) {
            total += group.queue().size();
        }
        return (int) Math.min(Integer.MAX_VALUE, total);
    }

    void clear() {
        for (RunGroup group : lanes.get()) {
            group.queue().clear();
        }
    }

    private RunGroup lowest(RunGroup[] all, int cap) {
        RunGroup best = null;
        long bestTime = 0;
        for (RunGroup group : all) {
            if (!group.queue().isEmpty() && group.hasRoom(cap)) {
                long time = effectiveTime(group);
                if (best == null || time - bestTime < 0) {
                    best = group;
                    bestTime = time;
                }
            }
        }
        return best;
    }

    /** The lane's virtual time as the next pick will see it: raised to at most its lag behind the clock. */
    private long effectiveTime(RunGroup group) {
        long floor = clock - group.maxLag();
        long time = group.virtualTime();
        return time - floor < 0 ? floor : time;
    }

    private void picked(RunGroup group) {
        long now = clock;
        group.catchUp(now - group.maxLag());
        long time = group.virtualTime();
        if (time - now > 0) {
            clock = time; // racy: a lost update leaves the clock a little behind, which only widens the lag
        }
    }

    private void append(RunGroup group) {
        RunGroup[] current;
        RunGroup[] next;
        do {
            current = lanes.get();
            next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = group;
        } while (!lanes.compareAndSet(current, next));
    }

    private void remove(RunGroup group) {
        RunGroup[] current;
        RunGroup[] next;
        do {
            current = lanes.get();
            List<RunGroup> kept = new ArrayList<>(Arrays.asList(current));
            kept.remove(group);
            next = kept.toArray(new RunGroup[0]);
        } while (!lanes.compareAndSet(current, next));
    }
}
