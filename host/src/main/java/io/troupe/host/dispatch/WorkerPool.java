package io.troupe.host.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fixed set of worker threads sharing one lock-free {@link RunQueue}: the dispatcher of actor turns.
 *
 * <p>Idle workers spin briefly, then register in the idle queue and park; {@link #execute} appends
 * the task and unparks one registered worker. A worker re-checks the run queue after registering and
 * before parking, so no task waits while a worker sleeps.
 *
 * <p><b>Threading:</b> {@link #execute} from any thread, lock-free and non-blocking;
 * {@link #shutdown} from a non-worker thread. Worker threads reset their context class loader after
 * every task.
 */
public final class WorkerPool implements Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);
    private static final int SPINS = 64;

    private static final int RING_CAPACITY = 1 << 16;

    private final RunQueue runQueue = new RunQueue(RING_CAPACITY);
    private final ConcurrentLinkedQueue<Worker> idle = new ConcurrentLinkedQueue<>();
    private final List<Worker> workers;
    private final ClassLoader defaultLoader;
    private volatile boolean running = true;

    /**
     * Starts {@code size} workers named {@code namePrefix-N}.
     *
     * @param defaultLoader the context class loader workers carry between tasks
     */
    public WorkerPool(int size, String namePrefix, ClassLoader defaultLoader) {
        if (size < 1) {
            throw new IllegalArgumentException("worker pool size must be at least 1, was " + size);
        }
        this.defaultLoader = defaultLoader;
        List<Worker> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(new Worker(namePrefix + "-" + (i + 1)));
        }
        this.workers = List.copyOf(list);
        workers.forEach(Thread::start);
    }

    /** The number of worker threads. */
    public int size() {
        return workers.size();
    }

    /** Tasks waiting for a worker. */
    public int queued() {
        return runQueue.size();
    }

    @Override
    public void execute(Runnable task) {
        runQueue.offer(task);
        Worker sleeper = idle.poll();
        if (sleeper != null) {
            LockSupport.unpark(sleeper);
        }
    }

    /**
     * Stops the workers after their current task and waits up to {@code timeout} for them; tasks still
     * queued are discarded (the runtime stops its actors before calling this).
     *
     * @return whether every worker ended in time
     */
    public boolean shutdown(long timeout, TimeUnit unit) throws InterruptedException {
        running = false;
        workers.forEach(LockSupport::unpark);
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Worker worker : workers) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(worker, left);
            }
        }
        runQueue.clear();
        return workers.stream().noneMatch(Thread::isAlive);
    }

    /** One worker: take a task, run it, reset the thread, repeat. */
    private final class Worker extends Thread implements RuntimeThread {

        Worker(String name) {
            super(name);
            setDaemon(true);
            setContextClassLoader(defaultLoader);
        }

        @Override
        public void run() {
            while (running) {
                Runnable task = next();
                if (task != null) {
                    runOne(task);
                }
            }
        }

        private Runnable next() {
            Runnable task = runQueue.poll();
            for (int i = 0; task == null && i < SPINS; i++) {
                Thread.onSpinWait();
                task = runQueue.poll();
            }
            if (task != null) {
                return task;
            }
            idle.offer(this);
            task = runQueue.poll();
            if (task == null && running) {
                LockSupport.park(this);
            }
            // Woken by execute (already removed) or by re-check, spurious wake-up or shutdown.
            idle.remove(this);
            return task;
        }

        private void runOne(Runnable task) {
            try {
                task.run();
            } catch (Throwable t) {
                LOG.error("Task {} failed on worker {}; the worker continues", task, getName(), t);
            } finally {
                if (getContextClassLoader() != defaultLoader) {
                    setContextClassLoader(defaultLoader);
                }
            }
        }
    }
}
