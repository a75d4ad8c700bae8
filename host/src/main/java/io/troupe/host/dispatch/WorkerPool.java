package io.troupe.host.dispatch;

import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Worker threads sharing one lock-free {@link FairRunQueue}: the dispatcher of actor turns. The pool
 * starts with {@code min} workers and may be resized between {@code min} and {@code max} by a
 * monitor ({@link #addWorkers}, {@link #retireIdle}).
 *
 * <p>Idle workers spin briefly, keep polling while yielding their core for the pool's spin time (while
 * such spins find work: {@link AdaptiveSpin}), then register in the idle queue and park ({@link Worker}). {@link #execute} from outside the pool
 * appends the task and, unless a worker is in its yielding spin (it will find the task), unparks one
 * registered worker, the one that parked last (warm caches; under light load one worker serves and the others
 * stay parked); a spinner that finds a task while no other spins wakes a parked worker for
 * whatever else is queued. A worker re-checks the run queue after it stops spinning and after
 * registering, before parking, so no task waits while a worker sleeps:
 *
 * <pre>
 *   execute:  offer(task) ─ full fence ─ read spinners ─ (0: wake one registered worker)
 *   worker:   spinners − 1 (atomic) ─ register as idle (atomic) ─ poll ─ (empty: park)
 * </pre>
 *
 * Each side writes before it reads what the other writes, with a full fence between (the atomic
 * updates are fences), so at least one of them sees the other: the task is polled, or the worker
 * is woken.
 *
 * <p>A task queued by a worker goes to that worker's own queue instead ({@link Worker}: no hand-off, no
 * wake-up, no fence; idle workers take from it a backlog, or what waits behind a long turn).
 *
 * <h2>Tenants</h2>
 * The run queue has a lane per tenant ({@link RunGroup}, named by {@link Grouped} tasks) and serves
 * the lane with the least weighted worker time first; workers time the turns of tenants (one clock
 * read per turn, chained from the previous turn's end) and charge them to their lane. With no tenant
 * the queue is one lane and no turn is timed. A task from a worker's own queue yields to a lane that is
 * further behind: it goes to its own lane's tail instead of running at once. Once several tenants
 * exist the pool keeps one worker more than its minimum, within its maximum ({@link #ensureReserve},
 * started by the monitor), and one tenant runs at most {@code size - 1} turns at once: a tenant alone still has
 * the minimum's workers, and the next tenant's actor finds a worker at once even while another
 * tenant's turns burn the CPU; the operating system then shares the cores between their threads.
 *
 * <h2>Resizing</h2>
 * <pre>
 *   addWorkers(n)   start n new workers (named prefix-K, K never reused), at most up to max
 *   retireIdle(n)   mark up to n workers that are between tasks as retiring and unpark them; never
 *                   below min. A retiring worker that raced into a task finishes it, then ends.
 *   a worker ends:  it leaves the worker list; if tasks are queued, it wakes an idle worker, so a
 *                   wake-up that execute() spent on it is passed on rather than lost; a worker that ended
 *                   unasked (an error escaped it) is replaced while the pool is below its minimum
 * </pre>
 * {@link #execute} is untouched by resizing: it never reads the worker list.
 *
 * <p><b>Threading:</b> {@link #execute} from any thread, lock-free and non-blocking; the size and
 * heartbeat accessors from any thread; {@link #addWorkers}, {@link #retireIdle}, {@link #reconfigure}
 * and {@link #shutdown}
 * from any non-worker thread, serialised by a lock that {@code execute} never takes. Worker threads
 * reset their context class loader after every task.
 */
public final class WorkerPool implements Dispatcher {

    private static final int RING_CAPACITY = 1 << 16;
    /** How long a worker out of tasks keeps polling, yielding its core, before it parks. */
    public static final Duration DEFAULT_SPIN = Duration.ofNanos(50_000);

    private final FairRunQueue runQueue = new FairRunQueue(RING_CAPACITY);
    /**
     * Registered idle workers, the most recently parked first: a wake-up goes to the worker whose caches are
     * warmest, and under light load one worker serves while the others stay parked.
     */
    private final ConcurrentLinkedDeque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final Object resizeLock = new Object();
    private final AtomicInteger names = new AtomicInteger();
    /** Idle workers in a timed park, who will look at busy workers' own queues when they wake. */
    private final AtomicInteger watchers = new AtomicInteger();
    /** Workers in their yielding spin, who poll the run queue without being woken. */
    private final AtomicInteger spinners = new AtomicInteger();
    /** Changed only by {@link #reconfigure}, under {@link #resizeLock}; read by workers at each spin. */
    private volatile long spinNanos;
    private final String namePrefix;
    private final ClassLoader defaultLoader;
    /**
     * Turns one tenant may run at once: with several tenants and the pool above its minimum (the
     * reserve worker, or workers grown for stalls), the pool's size less one, so that a worker is
     * always left for the other tenants; otherwise the whole pool (one tenant alone, or a pool whose
     * maximum is its minimum). Recomputed under {@link #resizeLock} whenever the size, the bounds or
     * the reserve change.
     */
    private volatile int laneCap = Integer.MAX_VALUE;
    /** The bounds; changed only by {@link #reconfigure}, under {@link #resizeLock}. */
    private volatile int min;
    private volatile int max;
    /** Every live worker thread, retiring ones included; replaced under {@link #resizeLock}. */
    private volatile List<Worker> workers = List.of();
    private volatile boolean running = true;

    /** Starts a fixed pool of {@code size} workers named {@code namePrefix-N}. */
    public WorkerPool(int size, String namePrefix, ClassLoader defaultLoader) {
        this(size, size, namePrefix, defaultLoader);
    }

    /**
     * Starts {@code min} workers named {@code namePrefix-N}; the pool may grow to {@code max}. Idle
     * workers spin for {@link #DEFAULT_SPIN} before they park.
     *
     * @param defaultLoader the context class loader workers carry between tasks
     */
    public WorkerPool(int min, int max, String namePrefix, ClassLoader defaultLoader) {
        this(min, max, namePrefix, defaultLoader, DEFAULT_SPIN);
    }

    /**
     * Starts {@code min} workers named {@code namePrefix-N}; the pool may grow to {@code max}.
     *
     * @param defaultLoader the context class loader workers carry between tasks
     * @param spin          how long a worker out of tasks keeps polling, yielding its core, before it
     *                      parks; zero for none
     */
    public WorkerPool(int min, int max, String namePrefix, ClassLoader defaultLoader, Duration spin) {
        checkBounds(min, max, spin);
        this.min = min;
        this.max = max;
        this.spinNanos = spin.toNanos();
        this.namePrefix = namePrefix;
        this.defaultLoader = defaultLoader;
        addWorkers(min);
    }

    /**
     * Applies new bounds and spin time while the pool runs (the host's configuration changed): starts
     * workers up to the new minimum, and asks idle workers above the new maximum to end (busy ones
     * end when a later {@link #retireIdle} finds them idle). A worker reads the spin time each time it
     * runs out of tasks.
     *
     * @throws IllegalArgumentException for bounds the constructor would refuse
     */
    public void reconfigure(int newMin, int newMax, Duration spin) {
        checkBounds(newMin, newMax, spin);
        synchronized (resizeLock) {
            min = newMin;
            max = newMax;
            spinNanos = spin.toNanos();
            int size = size();
            if (size < newMin) {
                addWorkers(newMin - size);
            } else if (size > newMax) {
                retire(size - newMax);
            }
            sized();
        }
    }

    private static void checkBounds(int min, int max, Duration spin) {
        if (min < 1) {
            throw new IllegalArgumentException("worker pool size must be at least 1, was " + min);
        }
        if (max < min) {
            throw new IllegalArgumentException("worker pool maximum " + max + " is below its size " + min);
        }
        if (spin.isNegative()) {
            throw new IllegalArgumentException("worker spin time must not be negative, was " + spin);
        }
    }

    /**
     * The least size the pool keeps: its minimum, plus one reserve worker once several tenants have
     * lanes, so that the tenants' cap of size less one still leaves a tenant alone as many workers as
     * the minimum (never above the maximum). With one tenant or none, there is no one to keep a worker
     * for, and the pool is what it was configured to be.
     */
    int minWithReserve() {
        return Math.min(max, min + (runQueue.hasSeveralTenants() ? 1 : 0));
    }

    /**
     * Starts the reserve worker once several tenants exist (see {@link #minWithReserve}), and applies
     * the cap that goes with it. Called by the monitor on its own thread, never on a path that must
     * not block.
     *
     * @return how many workers were started
     */
    public int ensureReserve() {
        synchronized (resizeLock) {
            int missing = minWithReserve() - size();
            int started = missing > 0 ? addWorkers(missing) : 0;
            sized();
            return started;
        }
    }

    /** Turns one tenant may run at once. */
    int laneCap() {
        return laneCap;
    }

    /** The next task for {@code taker}; see {@link FairRunQueue#poll}. */
    Runnable poll(Worker taker) {
        return runQueue.poll(taker, laneCap);
    }

    /** Recomputes {@link #laneCap} from the size; under {@link #resizeLock}. */
    private void sized() {
        int size = size();
        laneCap = Math.max(1, size > min && runQueue.hasSeveralTenants() ? size - 1 : size);
    }

    /** Workers that serve the run queue now (retiring workers not counted). */
    public int size() {
        int count = 0;
        for (Worker worker : workers) {
            if (!worker.isRetiring()) {
                count++;
            }
        }
        return count;
    }

    /** The size the pool starts with and never shrinks below (changed by {@link #reconfigure}). */
    public int minSize() {
        return min;
    }

    /** The size the pool never grows beyond. */
    public int maxSize() {
        return max;
    }

    /** Tasks waiting for a worker: in the shared queue and in the workers' own queues. */
    public int queued() {
        int local = 0;
        for (Worker worker : workers) {
            local += worker.localTasks();
        }
        return runQueue.size() + local;
    }

    /**
     * The lane of {@code tenant}'s actors in the run queue, created on first use: tasks that name it
     * ({@link Grouped}) are served fairly against other tenants' by its weight.
     */
    @Override
    public RunGroup group(String tenant) {
        return runQueue.group(tenant);
    }

    /** Every lane of the run queue, the lane of tasks without a tenant first. */
    public List<RunGroup> groups() {
        return runQueue.groups();
    }

    /** Every live worker thread, retiring ones included: what a monitor watches. */
    public List<Worker> workers() {
        return workers;
    }

    /**
     * Queues {@code task}. Called by one of this pool's workers (a task handing on work), the task goes
     * into that worker's own queue and runs after the current task (see {@link Worker}); a task that
     * does not fit there, and every task from other threads, goes to the shared run queue and wakes a
     * parked worker.
     */
    @Override
    public void execute(Runnable task) {
        Runnable queued = task;
        if (Thread.currentThread() instanceof Worker worker && worker.servesPool(this) && !worker.isRetiring()) {
            queued = worker.pushLocal(task);
            if (queued == null) {
                if (watchers.get() == 0) {
                    wakeOne(); // no idle worker comes back to look: wake one, in case this turn runs long
                }
                return;
            }
        }
        runQueue.offer(queued);
        VarHandle.fullFence(); // the task before the read of spinners: see the class comment
        if (spinners.get() == 0) {
            wakeOne();
        }
    }

    /**
     * Starts up to {@code count} workers, never beyond the maximum.
     *
     * @return how many were started (0 after shutdown)
     */
    public int addWorkers(int count) {
        synchronized (resizeLock) {
            int started = Math.max(0, Math.min(count, max - size()));
            if (!running || started == 0) {
                return 0;
            }
            List<Worker> next = new ArrayList<>(workers);
            List<Worker> added = new ArrayList<>(started);
            for (int i = 0; i < started; i++) {
                added.add(new Worker(this, namePrefix + "-" + names.incrementAndGet(), defaultLoader));
            }
            next.addAll(added);
            // listed before they start: a worker that serves a task is already counted by the monitor
            // and the statistics (PoolableStallIT saw an answer from a worker not yet listed)
            workers = List.copyOf(next);
            sized();
            added.forEach(Thread::start);
            return started;
        }
    }

    /**
     * Asks up to {@code count} workers that are between tasks to end, the most recently started
     * first, never going below the minimum.
     *
     * @return how many were asked to end
     */
    public int retireIdle(int count) {
        synchronized (resizeLock) {
            return retire(Math.max(0, Math.min(count, size() - minWithReserve())));
        }
    }

    /** Marks up to {@code allowed} idle workers as retiring, the most recent first; under the lock. */
    private int retire(int allowed) {
        int retired = 0;
        List<Worker> current = workers;
        for (int i = current.size() - 1; i >= 0 && retired < allowed; i--) {
            Worker worker = current.get(i);
            if (!worker.isRetiring() && worker.currentTurn() == 0) {
                worker.retire();
                retired++;
            }
        }
        sized();
        return retired;
    }

    /**
     * Stops the workers after their current task and waits up to {@code timeout} for them; tasks still
     * queued are discarded (the runtime stops its actors before calling this).
     *
     * @return whether every worker ended in time
     */
    public boolean shutdown(long timeout, TimeUnit unit) throws InterruptedException {
        List<Worker> stopping;
        synchronized (resizeLock) {
            running = false;
            stopping = workers;
        }
        stopping.forEach(LockSupport::unpark);
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Worker worker : stopping) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(worker, left);
            }
        }
        runQueue.clear();
        return stopping.stream().noneMatch(Thread::isAlive);
    }

    // ---------------------------------------------------------------- for workers

    boolean isRunning() {
        return running;
    }

    FairRunQueue runQueue() {
        return runQueue;
    }

    ConcurrentLinkedDeque<Worker> idleWorkers() {
        return idle;
    }

    /**
     * Queues {@code task} in the shared run queue, never in a worker's own queue, and wakes a parked
     * worker: for an actor that used up its throughput and for the own queue of a worker that ends.
     */
    @Override
    public void requeue(Runnable task) {
        runQueue.offer(task);
        VarHandle.fullFence(); // the task before the read of the idle queue: see the class comment
        wakeOne();
    }

    /**
     * Called by a worker that moved a task from its own queue to the run queue (its tenant had to
     * wait): wakes a parked worker unless one is spinning, as {@link #execute} does for a queued task.
     */
    void queuedFromOwnQueue() {
        VarHandle.fullFence(); // the task before the read of spinners: see the class comment
        if (spinners.get() == 0) {
            wakeOne();
        }
    }

    /** How long an idle worker polls, yielding, before it parks. */
    long spinNanos() {
        return spinNanos;
    }

    /** Called by a worker around its yielding spin. */
    void spinning(int delta) {
        spinners.addAndGet(delta);
    }

    /**
     * Called by a worker that found a task in its yielding spin: if no other worker spins and more
     * tasks wait, wakes a parked one, since execute() woke nobody while this worker spun.
     */
    void spinnerFoundWork() {
        if (spinners.get() == 0 && runQueue.size() > 0) {
            wakeOne();
        }
    }

    /** Called by an idle worker around a timed park that watches the busy workers' own queues. */
    void watching(int delta) {
        watchers.addAndGet(delta);
    }

    /** Called by a worker as its thread ends, for whatever reason. */
    void exited(Worker worker) {
        idle.remove(worker);
        synchronized (resizeLock) {
            List<Worker> next = new ArrayList<>(workers);
            next.remove(worker);
            workers = List.copyOf(next);
            sized();
            if (running && !worker.isRetiring() && size() < min) {
                // it ended without being asked (an error escaped it): a replacement takes over the queue
                addWorkers(min - size());
            }
        }
        if (running && runQueue.size() > 0) {
            wakeOne(); // execute() may have spent its wake-up on this worker
        }
    }

    private void wakeOne() {
        Worker sleeper = idle.pollFirst();
        if (sleeper != null) {
            LockSupport.unpark(sleeper);
        }
    }
}
