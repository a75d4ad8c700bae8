package io.troupe.host.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.host.supervise.FatalErrors;
import io.troupe.host.supervise.LoopFailures;

/**
 * One worker thread of a {@link WorkerPool}: take a task, run it, reset the thread, repeat; and a
 * heartbeat that a monitor reads without disturbing it.
 *
 * <h2>The next-task slot</h2>
 * A task that a running task hands to the pool (an actor telling another) goes into this worker's
 * one-task slot instead of the shared run queue, and runs as soon as the current task ends: no
 * hand-off to another thread, no wake-up, the actor's mailbox still in this core's cache. A task the
 * slot displaces goes to the shared queue. Fairness is bounded both ways:
 *
 * <pre>
 *   after LOCAL_STREAK tasks in a row from the slot, one task from the shared queue runs first;
 *   an idle worker parks with a timeout while another worker runs a turn (which may fill its slot),
 *   and steals the slot of a worker still in the same turn when it wakes (a turn that long may not
 *   end soon); while no worker runs a turn, idle workers park until woken, and a worker that fills
 *   its slot while no idle worker is watching wakes one
 * </pre>
 *
 * so a task behind a long or blocked turn waits at most about two {@code STEAL_CHECK_NANOS}, and a
 * retiring or exiting worker hands its slot to the shared queue.
 *
 * <h2>Waiting for work</h2>
 * A worker out of tasks polls the shared queue a few times, then keeps polling for the pool's spin
 * time ({@code troupe.workers.spinMicros}, 50 µs by default), yielding its core between polls, and
 * only then parks. Under load the next message usually arrives within that time (a network round trip
 * on loopback is tens of microseconds), and a worker found awake costs the sender no unpark and the
 * message no wake-up latency; yielding leaves the core to any other runnable thread. An idle server
 * does not spin: only a worker that just ran a task does, and only for that long; and a quiet one, whose
 * tasks come further apart than the spin time, parks at once ({@link AdaptiveSpin}: it spins while at
 * least about one spin in five finds work, and probes every sixteenth wait otherwise).
 *
 * <h2>Timed turns</h2>
 * A turn of a tenant's actor (and, once tenants exist, every turn) is timed for the fair run queue:
 * the clock is read once when the turn ends, and that reading is the start of the next timed turn,
 * so a worker busy with tenants reads the clock once per turn; a wait resets it. A runtime without
 * tenants times nothing.
 *
 * <h2>Heartbeat</h2>
 * Per task the worker publishes the task and bumps a turn counter, with release stores (plain moves
 * on x86) and no clock read and no allocation. The counter is odd while a task runs, even between
 * tasks, and grows by two per task, so its value identifies the turn:
 *
 * <pre>
 *   start:  task ← t        turn ← turn + 1  (odd)       both release stores
 *   end:    turn ← turn + 1  (even)           task ← null
 * </pre>
 *
 * A reader that sees {@code turn == s} (odd), then the task, then {@code turn == s} again, holds the
 * task of turn {@code s}. A monitor that notes when it first saw turn {@code s} knows how long the
 * turn has run, to its own sampling resolution; that is precise enough to find turns that run for
 * seconds, and keeps {@link System#nanoTime()} (tens of nanoseconds on virtual machines, a system
 * call on some) out of every turn.
 *
 * <p>Busy time is measured the other way round: the worker reads the clock only around parking,
 * which costs a system call anyway, and busy time is the worker's lifetime minus its parked time.
 * The brief busy spin before yielding counts as busy; the yielding spin counts as parked.
 *
 * <h2>Failures</h2>
 * A task that throws is logged and the worker takes the next one; a throwable escaping the worker's own
 * code between tasks is handled by {@link LoopFailures} (logged, and the worker goes on with its slot and the
 * shared queue; too many in a row are fatal); a fatal error ({@link FatalErrors}), in a task or not, ends
 * the process.
 *
 * <p><b>Threading:</b> the public accessors may be called from any thread and read the heartbeat
 * racily but consistently as described; {@link #pushLocal} only on this worker's thread; the slot
 * is taken with an atomic exchange by its owner or a thief; everything else runs on the worker itself.
 */
public final class Worker extends Thread implements RuntimeThread, FairRunQueue.Taker {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final int SPINS = 64;
    /** Tasks run in a row from the slot before the shared queue gets a turn. */
    private static final int LOCAL_STREAK = 32;
    /** How long an idle worker sleeps before looking for a slot stuck behind a long turn. */
    private static final long STEAL_CHECK_NANOS = 1_000_000;
    private static final VarHandle TASK;
    private static final VarHandle TURN;
    private static final VarHandle PARKED_SINCE;
    private static final VarHandle PARKED;
    private static final VarHandle SLOT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TASK = lookup.findVarHandle(Worker.class, "task", Runnable.class);
            TURN = lookup.findVarHandle(Worker.class, "turn", long.class);
            PARKED_SINCE = lookup.findVarHandle(Worker.class, "parkedSince", long.class);
            PARKED = lookup.findVarHandle(Worker.class, "parked", long.class);
            SLOT = lookup.findVarHandle(Worker.class, "slot", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WorkerPool pool;
    private final ClassLoader defaultLoader;
    private final long createdNanos = System.nanoTime();
    /** Set once by the pool; the worker ends after its current task. */
    private volatile boolean retiring;

    // Written by this worker only (see the class comment), read by monitors.
    @SuppressWarnings("unused") // accessed through TASK
    private Runnable task;
    @SuppressWarnings("unused") // accessed through TURN
    private long turn;
    /** When the current park began; 0 while not parked. */
    @SuppressWarnings("unused") // accessed through PARKED_SINCE
    private long parkedSince;
    /** Time spent parked, completed parks only. */
    @SuppressWarnings("unused") // accessed through PARKED
    private long parked;
    /** The next task to run, queued by this worker's own tasks; other workers only steal it. */
    @SuppressWarnings("unused") // accessed through SLOT
    private Runnable slot;
    /** Tasks run in a row from the slot; confined to this worker. */
    private int localStreak;
    /** When the previous timed turn ended ({@link System#nanoTime()}), 0 when unknown; confined to this worker. */
    private long turnClock;
    /** The lane whose turn the task being run claimed ({@link RunGroup#tryEnter}), or null; confined to this worker. */
    private RunGroup entered;
    /** Confined to this worker. */
    private final LoopFailures failures;
    /** Whether spinning before parking pays now; confined to this worker. */
    private final AdaptiveSpin spin = new AdaptiveSpin();

    Worker(WorkerPool pool, String name, ClassLoader defaultLoader) {
        super(name);
        this.failures = new LoopFailures("Worker " + name);
        this.pool = pool;
        this.defaultLoader = defaultLoader;
        setDaemon(true);
        setContextClassLoader(defaultLoader);
    }

    // ---------------------------------------------------------------- heartbeat, any thread

    /** The current turn's number (odd), or {@code 0} while the worker is between tasks. */
    public long currentTurn() {
        long current = (long) TURN.getAcquire(this);
        return (current & 1) == 0 ? 0 : current;
    }

    /**
     * The task of turn {@code turnNumber}, or {@code null} if the worker has moved on (or waits).
     * Pass a value just read from {@link #currentTurn()}.
     */
    public Runnable taskOf(long turnNumber) {
        if (turnNumber == 0) {
            return null;
        }
        Runnable current = (Runnable) TASK.getAcquire(this);
        return (long) TURN.getAcquire(this) == turnNumber ? current : null;
    }

    /**
     * The task this worker runs now, {@code null} between tasks. Only on this worker's own thread,
     * for code inside the task that wants to know whose turn it is (the logger's entries).
     */
    public Runnable runningTask() {
        return (Runnable) TASK.get(this);
    }

    /** Tasks completed so far. */
    public long turns() {
        return (long) TURN.getOpaque(this) >>> 1;
    }

    /**
     * Time not spent parked since the worker started, up to {@code nowNanos}: running tasks, and
     * looking for the next one.
     */
    public long busyNanos(long nowNanos) {
        long completedParks = (long) PARKED.getOpaque(this);
        long since = (long) PARKED_SINCE.getOpaque(this);
        long parkedNow = since == 0 ? 0 : Math.max(0, nowNanos - since);
        return Math.max(0, nowNanos - createdNanos - completedParks - parkedNow);
    }

    /** When the worker was created ({@link System#nanoTime()}). */
    public long createdNanos() {
        return createdNanos;
    }

    /** Whether the pool has asked this worker to end; it no longer counts towards the pool size. */
    public boolean isRetiring() {
        return retiring;
    }

    /** Whether a task waits in this worker's slot; a racy read. */
    boolean hasSlotTask() {
        return SLOT.getOpaque(this) != null;
    }

    // ---------------------------------------------------------------- pool side

    /** Whether this worker belongs to {@code owner}. */
    boolean servesPool(WorkerPool owner) {
        return pool == owner;
    }

    /**
     * Called on this worker's own thread: puts {@code task} into the slot, to run when the current task
     * ends.
     *
     * @return the task it displaced, which the caller must queue elsewhere, or {@code null}
     */
    Runnable pushLocal(Runnable task) {
        if (SLOT.getOpaque(this) == null) {
            // only this thread fills the slot and thieves only empty it: no race to lose
            SLOT.setRelease(this, task);
            return null;
        }
        return (Runnable) SLOT.getAndSet(this, task);
    }

    /** Takes the slot's task, from this worker or a thief; {@code null} if the slot is empty. */
    private Runnable takeSlot() {
        return SLOT.getOpaque(this) == null ? null : (Runnable) SLOT.getAndSet(this, null);
    }

    /** Called by the pool: end after the current task, if any. */
    void retire() {
        retiring = true;
        LockSupport.unpark(this);
    }

    @Override
    public void run() {
        try {
            while (pool.isRunning() && !retiring) {
                try {
                    Runnable next = nextLocal();
                    if (next == null) {
                        next = next();
                    }
                    if (next != null) {
                        runOne(next);
                    }
                } catch (Throwable t) {
                    failures.failed("looking for its next task", t); // returns, or throws a fatal error
                }
            }
        } finally {
            Runnable left = takeSlot();
            if (left != null && pool.isRunning()) {
                pool.requeue(left);
            }
            pool.exited(this);
        }
    }

    /** The slot's task, unless the streak is over and the shared queue has one waiting. */
    private Runnable nextLocal() {
        if (SLOT.getOpaque(this) == null) {
            localStreak = 0;
            return null;
        }
        if (++localStreak > LOCAL_STREAK) {
            localStreak = 0;
            Runnable shared = pool.poll(this);
            if (shared != null) {
                return shared;
            }
        }
        return admitted(takeSlot());
    }

    /**
     * {@code local}, a task from a slot, if its tenant may run now; otherwise it waits in its lane (at
     * the cap, or behind a tenant further behind) and the fairest task runs instead.
     */
    private Runnable admitted(Runnable local) {
        if (local == null || pool.runQueue().admitLocal(local, this, pool.laneCap())) {
            return local;
        }
        pool.queuedFromSlot(); // in the shared queue now: an idle worker may take it before this one can
        return pool.poll(this);
    }

    /** Called by the run queue, on this worker's thread, for the turn it hands out. */
    @Override
    public void entered(RunGroup lane) {
        entered = lane;
    }

    private Runnable next() {
        Runnable next = pool.poll(this);
        for (int i = 0; next == null && i < SPINS; i++) {
            Thread.onSpinWait();
            next = pool.poll(this);
        }
        if (next == null && pool.spinNanos() > 0 && spin.shouldSpin()) {
            next = yieldForWork();
            spin.spun(next != null);
        }
        if (next != null) {
            return next;
        }
        pool.idleWorkers().offerFirst(this);
        next = pool.poll(this);
        if (next == null && pool.isRunning() && !retiring) {
            List<Worker> others = pool.workers();
            long[] turns = busyTurns(others);
            if (turns == null) {
                park(0);
            } else {
                pool.watching(1);
                park(STEAL_CHECK_NANOS);
                pool.watching(-1);
                next = stealStuckSlot(others, turns);
            }
        }
        // Woken by execute (already removed) or by re-check, timeout, spurious wake-up, retirement or shutdown.
        pool.idleWorkers().remove(this);
        return next;
    }

    /**
     * Polls the shared queue for up to the pool's spin time, yielding the core between polls, as a
     * counted spinner whom {@link WorkerPool#execute} need not wake. Counts as waiting, not busy.
     *
     * @return a task, or {@code null} when the time is up (or the worker must end)
     */
    private Runnable yieldForWork() {
        long start = waitBegins();
        long deadline = start + pool.spinNanos();
        pool.spinning(1);
        Runnable next;
        try {
            while ((next = pool.poll(this)) == null && pool.isRunning() && !retiring
                    && System.nanoTime() - deadline < 0) {
                Thread.yield();
            }
        } finally {
            pool.spinning(-1);
            waitEnds(start);
        }
        if (next != null) {
            pool.spinnerFoundWork(); // execute() may have left more work to this spinner alone
        }
        return next;
    }

    /**
     * The current turn of every other worker that is running one (0 for the others), or {@code null}
     * if none is: a busy worker may fill its slot at any moment, so this worker must come back to look.
     */
    private long[] busyTurns(List<Worker> others) {
        long[] turns = null;
        for (int i = 0; i < others.size(); i++) {
            Worker other = others.get(i);
            long turn = other == this ? 0 : other.currentTurn();
            if (turn != 0) {
                if (turns == null) {
                    turns = new long[others.size()];
                }
                turns[i] = turn;
            }
        }
        return turns;
    }

    /**
     * Steals a slot task from a worker still in the turn it was in before this worker parked: that
     * turn has run for a whole check period and may not end soon.
     */
    private Runnable stealStuckSlot(List<Worker> others, long[] turns) {
        for (int i = 0; i < others.size(); i++) {
            Worker other = others.get(i);
            if (turns[i] != 0 && other.currentTurn() == turns[i]) {
                Runnable stolen = other.takeSlot();
                if (stolen != null) {
                    return admitted(stolen);
                }
            }
        }
        return null;
    }

    /** Parks until unparked, or for at most {@code timeoutNanos} when positive. */
    private void park(long timeoutNanos) {
        long start = waitBegins();
        if (timeoutNanos > 0) {
            LockSupport.parkNanos(this, timeoutNanos);
        } else {
            LockSupport.park(this);
        }
        waitEnds(start);
    }

    /** Marks the start of a wait (a park or the yielding spin) for the busy time; returns the clock. */
    private long waitBegins() {
        turnClock = 0; // the next timed turn reads the clock afresh: the wait is nobody's turn
        long start = System.nanoTime();
        PARKED_SINCE.setOpaque(this, start == 0 ? 1 : start);
        return start;
    }

    /** Adds the wait that began at {@code start} to the time spent waiting. */
    private void waitEnds(long start) {
        long end = System.nanoTime();
        PARKED_SINCE.setOpaque(this, 0L);
        PARKED.setOpaque(this, (long) PARKED.getOpaque(this) + Math.max(0, end - start));
    }

    private void runOne(Runnable next) {
        long number = (long) TURN.getOpaque(this) + 1;
        RunGroup group = pool.runQueue().groupOf(next);
        long started = 0;
        if (pool.runQueue().measures(group)) {
            started = turnClock != 0 ? turnClock : System.nanoTime();
        }
        TASK.setRelease(this, next);
        TURN.setRelease(this, number);
        try {
            next.run();
        } catch (Throwable t) {
            if (FatalErrors.isFatal(t)) {
                throw FatalErrors.fatal("running task " + next, t);
            }
            LOG.error("Task {} failed on worker {}; the worker continues", next, getName(), t);
        } finally {
            if (started != 0) {
                long ended = System.nanoTime();
                group.charge(ended - started); // includes finding this task: a tenant's turns pay for their scheduling
                turnClock = ended == 0 ? 1 : ended;
            } else {
                turnClock = 0;
            }
            if (entered != null) {
                entered.leave();
                entered = null;
            }
            TURN.setRelease(this, number + 1);
            TASK.setRelease(this, null); // pins no actor (nor its plugin) while the worker waits
            if (getContextClassLoader() != defaultLoader) {
                setContextClassLoader(defaultLoader);
            }
        }
    }
}
