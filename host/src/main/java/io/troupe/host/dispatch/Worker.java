package io.troupe.host.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker thread of a {@link WorkerPool}: take a task, run it, reset the thread, repeat; and a
 * heartbeat that a monitor reads without disturbing it.
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
 * The brief spin before parking counts as busy.
 *
 * <p><b>Threading:</b> the public accessors may be called from any thread and read the heartbeat
 * racily but consistently as described; everything else runs on the worker itself.
 */
public final class Worker extends Thread implements RuntimeThread {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final int SPINS = 64;
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

    Worker(WorkerPool pool, String name, ClassLoader defaultLoader) {
        super(name);
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

    // ---------------------------------------------------------------- pool side

    /** Called by the pool: end after the current task, if any. */
    void retire() {
        retiring = true;
        LockSupport.unpark(this);
    }

    @Override
    public void run() {
        try {
            while (pool.isRunning() && !retiring) {
                Runnable next = next();
                if (next != null) {
                    runOne(next);
                }
            }
        } finally {
            pool.exited(this);
        }
    }

    private Runnable next() {
        Runnable next = pool.runQueue().poll();
        for (int i = 0; next == null && i < SPINS; i++) {
            Thread.onSpinWait();
            next = pool.runQueue().poll();
        }
        if (next != null) {
            return next;
        }
        pool.idleWorkers().offer(this);
        next = pool.runQueue().poll();
        if (next == null && pool.isRunning() && !retiring) {
            park();
        }
        // Woken by execute (already removed) or by re-check, spurious wake-up, retirement or shutdown.
        pool.idleWorkers().remove(this);
        return next;
    }

    private void park() {
        long start = System.nanoTime();
        PARKED_SINCE.setOpaque(this, start == 0 ? 1 : start);
        LockSupport.park(this);
        long end = System.nanoTime();
        PARKED_SINCE.setOpaque(this, 0L);
        PARKED.setOpaque(this, (long) PARKED.getOpaque(this) + Math.max(0, end - start));
    }

    private void runOne(Runnable next) {
        long number = (long) TURN.getOpaque(this) + 1;
        TASK.setRelease(this, next);
        TURN.setRelease(this, number);
        try {
            next.run();
        } catch (Throwable t) {
            LOG.error("Task {} failed on worker {}; the worker continues", next, getName(), t);
        } finally {
            TURN.setRelease(this, number + 1);
            TASK.setRelease(this, null); // pins no actor (nor its plugin) while the worker waits
            if (getContextClassLoader() != defaultLoader) {
                setContextClassLoader(defaultLoader);
            }
        }
    }
}
