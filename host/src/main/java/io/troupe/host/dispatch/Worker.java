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
 * <h2>The worker's own queue</h2>
 * A task that a running task hands to the pool (an actor telling another) goes into this worker's own
 * queue ({@link LocalQueue}, 256 tasks; beyond, the shared run queue) instead of the shared run queue, and
 * runs after the current task and those queued before it: no hand-off to another thread, no wake-up, no
 * fence, the actors' mailboxes still in this core's cache. Idle workers take from it only what this worker
 * cannot soon run itself, so that short turns passed from actor to actor stay on one core (moving them
 * costs more in cache traffic than a second core gains: a broker asked by 64 actors ran five times slower
 * when idle workers took every task they could):
 *
 * <pre>
 *   a backlog:     more than BACKLOG (64) tasks wait in the queue: an idle worker takes the oldest
 *   a long turn:   an idle worker that sees this worker in the same turn for LONG_TURN_NANOS (20 µs) or
 *                  more, looking while it spins, takes the oldest, even the last
 *   a stuck turn:  an idle worker parks with a timeout while another worker runs a turn, and takes the
 *                  oldest task of a worker still in the same turn when it wakes
 *   a busy look:   every LOOK_EVERY (32) tasks a worker, busy or not, takes the oldest task waiting
 *                  behind a turn it has seen last STEAL_CHECK_NANOS (1 ms) or more
 *   fairness:      after LOCAL_STREAK tasks in a row from the own queue, one task from the shared queue
 *                  runs first
 * </pre>
 *
 * A worker parks only with its own queue empty: a task there whose tenant must wait (at its cap of turns, or
 * behind a tenant further behind) goes to its lane in the shared queue, and the worker looks at the next one.
 * While no worker runs a turn and no other worker's own queue holds a task, idle workers park until woken, and a
 * worker that queues a task while no idle worker is watching wakes one; so a task behind a long or blocked turn
 * waits at most about two {@code STEAL_CHECK_NANOS} while a worker is idle, and a retiring or exiting worker hands its queue to
 * the shared one. Busy workers look too: every {@code LOOK_EVERY} (32) tasks a worker takes the oldest task
 * waiting behind a turn it has seen last 1 ms or more, so no load on the shared queue keeps a task behind a
 * blocked turn.
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
 * code between tasks is handled by {@link LoopFailures} (logged, and the worker goes on with its own queue and the
 * shared queue; too many in a row are fatal); a fatal error ({@link FatalErrors}), in a task or not, ends
 * the process.
 *
 * <p><b>Threading:</b> the public accessors may be called from any thread and read the heartbeat
 * racily but consistently as described; {@link #pushLocal} only on this worker's thread; the own queue
 * is taken from by its owner or a thief, lock-free ({@link LocalQueue}); everything else runs on the worker
 * itself.
 */
public final class Worker extends Thread implements RuntimeThread, FairRunQueue.Taker {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final int SPINS = 64;
    /** Tasks waiting in a worker's own queue beyond which idle workers take some. */
    static final int BACKLOG = 64;
    /** A turn this long lets idle workers take the tasks waiting behind it. */
    static final long LONG_TURN_NANOS = 20_000;
    /** Tasks run in a row from the own queue before the shared queue gets a turn. */
    private static final int LOCAL_STREAK = 32;
    /** Tasks a worker runs between two looks at the other workers' turns (see {@link #takeFromStuckTurn}). */
    static final int LOOK_EVERY = 32;
    /** How long an idle worker sleeps before looking for tasks stuck behind a long turn. */
    private static final long STEAL_CHECK_NANOS = 1_000_000;
    private static final VarHandle TASK;
    private static final VarHandle TURN;
    private static final VarHandle PARKED_SINCE;
    private static final VarHandle PARKED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TASK = lookup.findVarHandle(Worker.class, "task", Runnable.class);
            TURN = lookup.findVarHandle(Worker.class, "turn", long.class);
            PARKED_SINCE = lookup.findVarHandle(Worker.class, "parkedSince", long.class);
            PARKED = lookup.findVarHandle(Worker.class, "parked", long.class);
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
    /** The next tasks to run, queued by this worker's own tasks; other workers take from it (see {@link #steal}). */
    private final LocalQueue local = new LocalQueue();
    /** Tasks run in a row from the own queue; confined to this worker. */
    private int localStreak;
    /** Tasks run since the last look at the other workers' turns; confined to this worker. */
    private int sinceLook;
    /** When the previous timed turn ended ({@link System#nanoTime()}), 0 when unknown; confined to this worker. */
    private long turnClock;
    /** The lane whose turn the task being run claimed ({@link RunGroup#tryEnter}), or null; confined to this worker. */
    private RunGroup entered;
    /** Confined to this worker. */
    private final LoopFailures failures;
    /** The other workers' turns as this one last saw them, when idle; confined to this worker. */
    private final SeenTurns turns = new SeenTurns();
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

    /** Tasks waiting in this worker's own queue; a racy read. */
    int localTasks() {
        return local.size();
    }

    // ---------------------------------------------------------------- pool side

    /** Whether this worker belongs to {@code owner}. */
    boolean servesPool(WorkerPool owner) {
        return pool == owner;
    }

    /**
     * Called on this worker's own thread: queues {@code task} in its own queue, to run after the current
     * task and those queued before it.
     *
     * @return {@code task} when the own queue is full (the caller must queue it elsewhere), or {@code null}
     */
    Runnable pushLocal(Runnable task) {
        return local.push(task) ? null : task;
    }

    /**
     * Takes a task from this worker's own queue for another worker: only while more than {@link #BACKLOG} wait
     * ({@code stuck}: even the last one, its owner being in a turn that has lasted), so that an actor handing a
     * message on to one other runs it on the same core, as with no thief.
     */
    Runnable steal(boolean stuck) {
        return local.size() > (stuck ? 0 : BACKLOG) ? local.take() : null;
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
                    Runnable next = null;
                    if (++sinceLook == LOOK_EVERY) {
                        sinceLook = 0;
                        next = takeFromStuckTurn();
                    }
                    if (next == null) {
                        next = nextLocal();
                    }
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
            Runnable left;
            while ((left = local.take()) != null) {
                if (pool.isRunning()) {
                    pool.requeue(left);
                }
            }
            pool.exited(this);
        }
    }

    /**
     * The own queue's next task whose tenant may run now, unless the streak is over and the shared queue has one
     * waiting; {@code null} only once the own queue is empty. A task whose tenant must wait (at the cap, or behind
     * a tenant further behind) goes to its lane in the shared queue, and the next one is looked at: a worker that
     * left tasks in its own queue and parked would strand them, since the others take from it only behind a turn
     * (TreeHotSwapIT saw two actors wait so for good).
     */
    private Runnable nextLocal() {
        while (!local.isEmpty()) {
            if (++localStreak > LOCAL_STREAK) {
                localStreak = 0;
                Runnable shared = pool.poll(this);
                if (shared != null) {
                    return shared;
                }
            }
            Runnable task = local.take();
            if (task == null) {
                break; // a thief took the last one
            }
            if (pool.runQueue().admitLocal(task, this, pool.laneCap())) {
                return task;
            }
            pool.queuedFromOwnQueue(); // in its lane now: an idle worker may take it before this one can
        }
        localStreak = 0;
        return null;
    }

    /**
     * {@code stolen}, a task taken from another worker's own queue, if its tenant may run now; otherwise it waits
     * in its lane (at the cap, or behind a tenant further behind) and the fairest task runs instead, if any.
     */
    private Runnable admitted(Runnable stolen) {
        if (stolen == null || pool.runQueue().admitLocal(stolen, this, pool.laneCap())) {
            return stolen;
        }
        pool.queuedFromOwnQueue();
        return pool.poll(this);
    }

    /** Called by the run queue, on this worker's thread, for the turn it hands out. */
    @Override
    public void entered(RunGroup lane) {
        entered = lane;
    }

    private Runnable next() {
        Runnable next = pollOrSteal();
        for (int i = 0; next == null && i < SPINS; i++) {
            Thread.onSpinWait();
            next = pollOrSteal();
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
                next = stealFromStuckTurn(others, turns);
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
            while ((next = pollOrSteal()) == null && pool.isRunning() && !retiring
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
     * A task from the shared queue, else one taken from another worker's own queue: from a backlog (more
     * than {@link #BACKLOG} tasks wait there), or from a worker seen in the same turn for {@link #LONG_TURN_NANOS}
     * or more. Otherwise the tasks a worker's actors hand on stay with it: two cores passing short turns to
     * each other spend more on moving the actors' cache lines than they gain (a broker that many actors
     * ask runs five times slower so).
     */
    private Runnable pollOrSteal() {
        Runnable next = pool.poll(this);
        return next != null ? next : takeFromOthers(LONG_TURN_NANOS, true);
    }

    /**
     * Called every {@link #LOOK_EVERY} times round the loop, busy or not: the oldest task waiting behind a turn this
     * worker has seen last {@link #STEAL_CHECK_NANOS} or more, to run next. Idle workers take such tasks anyway;
     * but a worker kept busy by the shared queue would never look, and the tasks behind a blocked turn would wait
     * as long as the load lasts. Costs a look at the other workers' queues per 32 tasks, and a clock read only when
     * one holds tasks. A turn that is merely long (a fan-out, a sender flooding one actor) is left to the idle
     * workers: a busy worker has tasks of its own.
     */
    private Runnable takeFromStuckTurn() {
        return takeFromOthers(STEAL_CHECK_NANOS, false);
    }

    /**
     * The oldest task of another worker's own queue that waits behind a turn this worker has seen last
     * {@code turnNanos} or more, or ({@code backlog}) of one holding more than {@link #BACKLOG}; {@code null} if none.
     */
    private Runnable takeFromOthers(long turnNanos, boolean backlog) {
        List<Worker> others = pool.workers();
        long now = 0;
        for (int i = 0; i < others.size(); i++) {
            Worker other = others.get(i);
            if (other == this || other.local.isEmpty()) {
                continue;
            }
            Runnable stolen = backlog ? other.steal(false) : null;
            if (stolen == null) {
                if (now == 0) {
                    now = System.nanoTime();
                }
                stolen = turns.seenFor(i, other, now, turnNanos) ? other.steal(true) : null;
            }
            if (stolen != null) {
                return admitted(stolen);
            }
        }
        return null;
    }

    /**
     * The current turn of every other worker that is running one (0 for the others), or {@code null}
     * if none is and no other worker's own queue holds a task: a busy worker may fill its own queue at any
     * moment, and one between turns may next run a turn that blocks with tasks still queued behind it, so
     * this worker must come back to look.
     */
    private long[] busyTurns(List<Worker> others) {
        long[] turns = null;
        for (int i = 0; i < others.size(); i++) {
            Worker other = others.get(i);
            if (other == this) {
                continue;
            }
            long turn = other.currentTurn();
            if (turn != 0 || !other.local.isEmpty()) {
                if (turns == null) {
                    turns = new long[others.size()];
                }
                turns[i] = turn;
            }
        }
        return turns;
    }

    /**
     * Takes the oldest task of a worker still in the turn it was in before this worker parked: that
     * turn has run for a whole check period and may not end soon.
     */
    private Runnable stealFromStuckTurn(List<Worker> others, long[] turns) {
        for (int i = 0; i < others.size(); i++) {
            Worker other = others.get(i);
            if (turns[i] != 0 && other.currentTurn() == turns[i]) {
                Runnable stolen = other.steal(true);
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
