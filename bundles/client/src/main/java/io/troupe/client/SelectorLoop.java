package io.troupe.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One thread, one {@link Selector}, a task queue and a timer heap; the unit a {@link ClientLoop} is
 * made of. Each iteration:
 *
 * <pre>
 *   run due timers ─► select (until the next deadline; selectNow when tasks wait) ─► IO events
 *        ▲                                                                             │
 *        └─────────────────────────── run queued tasks ◄────────────────────────────────┘
 * </pre>
 *
 * <p>Other threads hand work over with {@link #execute}. They wake the selector only when the loop
 * may be about to sleep ({@code awake} false), so a burst of tasks costs one wakeup.
 *
 * <p>Shutting down runs {@link Member#loopClosed()} for every registered member on the loop, so
 * that no client is left with futures that nothing will complete; tasks handed over after the
 * loop has terminated are refused ({@code execute} returns false).
 *
 * <p><b>Threading:</b> {@link #execute}, {@link #inLoop}, {@link #shutdown} and
 * {@link #awaitTermination} from any thread; everything else on the loop thread only
 * ({@link #assertInLoop()} guards it).
 */
final class SelectorLoop {

    /** Something attached to a registered channel, told when the channel is ready. */
    interface IoHandler {
        /** Called on the loop with the key's ready set; must not throw for IO failures. */
        void onReady(SelectionKey key);
    }

    /** A user of the loop that must be told when the loop goes away. */
    interface Member {
        /** Called on the loop thread while it shuts down. */
        void loopClosed();
    }

    /** A task scheduled on the loop; cancelling is loop-only and lazy. */
    static final class Timer implements Comparable<Timer> {
        private final long deadline;
        private final long sequence;
        private Runnable task;

        private Timer(long deadline, long sequence, Runnable task) {
            this.deadline = deadline;
            this.sequence = sequence;
            this.task = task;
        }

        /** Prevents the task from running; harmless after it has run. Loop thread only. */
        void cancel() {
            task = null;
        }

        @Override
        public int compareTo(Timer other) {
            int byDeadline = Long.compare(deadline - other.deadline, 0);
            return byDeadline != 0 ? byDeadline : Long.compare(sequence, other.sequence);
        }
    }

    private static final System.Logger LOG = System.getLogger(SelectorLoop.class.getName());
    /** Tasks run per iteration at most, so that IO is polled even under a steady stream of tasks. */
    private static final int TASK_BUDGET = 4096;
    /** Longer delays are clamped, keeping deadline arithmetic free of overflow. */
    private static final long MAX_DELAY_NANOS = Long.MAX_VALUE >> 2;
    private static final int SHUTDOWN_TASK_PASSES = 8;

    private static final int RUNNING = 0;
    private static final int STOPPING = 1;
    private static final int TERMINATED = 2;

    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean awake = new AtomicBoolean(true);
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final Set<Member> members = new LinkedHashSet<>();
    private long timerSequence;

    /**
     * Opens a selector and starts the loop's daemon thread.
     *
     * @throws UncheckedIOException when no selector can be opened
     */
    SelectorLoop(String threadName) {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    String name() {
        return thread.getName();
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    void assertInLoop() {
        if (!inLoop()) {
            throw new IllegalStateException("called on " + Thread.currentThread().getName()
                    + ", not on the loop thread " + thread.getName());
        }
    }

    /**
     * Runs {@code task} on the loop, after the tasks already queued. Any thread.
     *
     * @return false if the loop has terminated and the task will never run
     */
    boolean execute(Runnable task) {
        tasks.add(task);
        if (state.get() == TERMINATED) {
            // Whoever removes the task owns it: the loop's last pass, or this refusal.
            return !tasks.remove(task);
        }
        if (!inLoop() && awake.compareAndSet(false, true)) {
            selector.wakeup();
        }
        return true;
    }

    /** Runs {@code task} on the loop after {@code delayNanos}. Loop thread only. */
    Timer schedule(long delayNanos, Runnable task) {
        return scheduleAt(nanoTime() + Math.min(Math.max(0, delayNanos), MAX_DELAY_NANOS), task);
    }

    /** Runs {@code task} on the loop once {@link #nanoTime()} reaches {@code deadline}. Loop thread only. */
    Timer scheduleAt(long deadline, Runnable task) {
        assertInLoop();
        Timer timer = new Timer(deadline, timerSequence++, task);
        timers.add(timer);
        return timer;
    }

    /** The loop's clock. */
    long nanoTime() {
        return System.nanoTime();
    }

    /** Registers {@code channel} with this loop's selector. Loop thread only. */
    SelectionKey register(SelectableChannel channel, int ops, IoHandler handler) throws ClosedChannelException {
        assertInLoop();
        return channel.register(selector, ops, handler);
    }

    /** Adds a member to tell when the loop shuts down; idempotent. Loop thread only. */
    void addMember(Member member) {
        assertInLoop();
        members.add(member);
    }

    /** Loop thread only. */
    void removeMember(Member member) {
        assertInLoop();
        members.remove(member);
    }

    /** Starts shutting down: members are told, then the thread ends. Any thread; does not wait. */
    void shutdown() {
        if (state.compareAndSet(RUNNING, STOPPING)) {
            selector.wakeup();
        }
    }

    boolean isShutdown() {
        return state.get() != RUNNING;
    }

    /**
     * Waits until the thread has finished shutting down. Any thread but the loop's.
     *
     * @return true if it terminated in time
     */
    boolean awaitTermination(Duration timeout) throws InterruptedException {
        if (inLoop()) {
            throw new IllegalStateException("the loop cannot wait for its own termination");
        }
        try {
            terminated.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("termination future failed", e);
        }
    }

    private void run() {
        try {
            while (state.get() == RUNNING) {
                long untilNextTimer = runDueTimers();
                select(untilNextTimer);
                processSelectedKeys();
                runTasks(TASK_BUDGET);
            }
        } catch (IOException e) {
            LOG.log(Level.ERROR, "client loop " + name() + " cannot select; its clients are closed", e);
        } finally {
            terminate();
        }
    }

    /** @return nanoseconds until the next timer, or -1 when none is scheduled */
    private long runDueTimers() {
        Timer next;
        while ((next = timers.peek()) != null) {
            long now = nanoTime();
            if (next.task != null && next.deadline - now > 0) {
                return next.deadline - now;
            }
            timers.poll();
            Runnable task = next.task;
            next.task = null;
            if (task != null) {
                runSafely(task);
            }
        }
        return -1;
    }

    private void select(long timeoutNanos) throws IOException {
        awake.set(false);
        if (!tasks.isEmpty() || state.get() != RUNNING || timeoutNanos == 0) {
            selector.selectNow();
        } else if (timeoutNanos < 0) {
            selector.select();
        } else {
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos + 999_999)));
        }
        awake.set(true);
    }

    private void processSelectedKeys() {
        Set<SelectionKey> selected = selector.selectedKeys();
        if (selected.isEmpty()) {
            return;
        }
        Iterator<SelectionKey> keys = selected.iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            if (key.isValid()) {
                IoHandler handler = (IoHandler) key.attachment();
                runSafely(() -> handler.onReady(key));
            }
        }
    }

    /** @return whether any task ran */
    private boolean runTasks(int budget) {
        boolean ran = false;
        Runnable task;
        for (int i = 0; i < budget && (task = tasks.poll()) != null; i++) {
            runSafely(task);
            ran = true;
        }
        return ran;
    }

    private void runSafely(Runnable task) {
        try {
            task.run();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            LOG.log(Level.ERROR, "client loop " + name() + ": a task failed", t);
        }
    }

    private void terminate() {
        state.set(STOPPING);
        for (Member member : new ArrayList<>(members)) {
            runSafely(member::loopClosed);
        }
        members.clear();
        for (int pass = 0; pass < SHUTDOWN_TASK_PASSES && runTasks(Integer.MAX_VALUE); pass++) {
            // Members' last tasks (failing queued requests) may queue more.
        }
        for (SelectionKey key : selector.keys()) {
            closeQuietly(key);
        }
        try {
            selector.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the selector of " + name(), e);
        }
        timers.clear();
        state.set(TERMINATED);
        runTasks(Integer.MAX_VALUE);
        terminated.complete(null);
    }

    private static void closeQuietly(SelectionKey key) {
        try {
            key.channel().close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing a channel at shutdown", e);
        }
    }
}
