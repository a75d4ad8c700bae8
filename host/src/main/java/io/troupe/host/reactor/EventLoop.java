package io.troupe.host.reactor;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.net.Cancellable;
import io.troupe.host.dispatch.RuntimeThread;
import io.troupe.host.supervise.FatalErrors;
import io.troupe.host.supervise.LoopFailures;
import io.troupe.host.timer.TimerQueue;

/**
 * One thread, one {@link Selector}, one {@link TimerQueue} and one task queue: muduo's EventLoop.
 * Every iteration (the loop's place on a request's path: {@code docs/architecture.md}):
 *
 * <pre>
 *   heartbeat ─► run due timers ─► select (≤ next deadline; selectNow when tasks wait) ─► IO events
 *       ▲                                                                                   │
 *       └──────────────────────── run the tasks queued before this point ◄──────────────────┘
 * </pre>
 *
 * <p>Other threads hand work over through a lock-free multi-producer queue. They wake the selector
 * only when the loop may be about to sleep: {@code awake} is true from the moment select returns
 * until the loop next prepares to select, and the first producer to flip it back to true wakes the
 * selector, so a burst of tasks costs one wakeup. A task or callback that throws is logged and the
 * loop continues; a throwable escaping an iteration itself goes to {@link LoopFailures} (logged, the loop
 * goes on with its selector, channels, timers and tasks; too many within a window are fatal); a fatal
 * error ({@link FatalErrors}) anywhere on the loop ends the process.
 *
 * <h2>Waiting briefly for answers</h2>
 * After an iteration that handled IO events, the loop polls its task queue for up to its spin time
 * ({@code troupe.io.spinMicros}, 30 µs by default), yielding its core between polls, before it
 * selects: what it read went to the workers, whose answers come back as tasks within microseconds,
 * and a loop still awake needs no selector wakeup (a system call for the producer, a wake-up for the
 * loop). {@code awake} stays true meanwhile. IO events that arrive during the spin wait for it to end,
 * so the spin is short, and it counts as waiting in the heartbeat.
 *
 * <h2>Heartbeat</h2>
 * Besides {@link #lastIterationNanos()}, the loop records when it starts waiting in its select and
 * when the wait ends (at the first ready key, or when the select returns), in single-writer fields
 * with opaque stores. A monitor tells a loop waiting for events ({@link #busySinceNanos()} is 0) from
 * one busy outside its select, and for how long, and measures the busy share ({@link #busyNanos}).
 * The loop also keeps the longest time it spent away from its select, which one monitor takes and
 * resets at each look ({@link #takeLongestAway()}), so a stall that ends between two looks is seen.
 *
 * <p><b>Threading:</b> {@link #execute}, {@link #schedule}, {@link #inLoop}, {@link #shutdown},
 * {@link #lastIterationNanos} and the other heartbeat accessors from any thread;
 * {@link #awaitTermination} from any thread but this loop's; {@link #register} and
 * {@link #deregisterNow} only on the loop. No locks and no blocking calls run on the loop thread apart
 * from the select itself.
 */
public final class EventLoop implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(EventLoop.class);
    private static final VarHandle WAIT_START;
    private static final VarHandle BUSY_SINCE;
    private static final VarHandle WAITED;
    private static final VarHandle LONGEST_AWAY;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WAIT_START = lookup.findVarHandle(EventLoop.class, "waitStart", long.class);
            BUSY_SINCE = lookup.findVarHandle(EventLoop.class, "busySince", long.class);
            WAITED = lookup.findVarHandle(EventLoop.class, "waited", long.class);
            LONGEST_AWAY = lookup.findVarHandle(EventLoop.class, "longestAway", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How long a loop polls its tasks, yielding, after an iteration with IO, before it selects. */
    public static final Duration DEFAULT_SPIN = Duration.ofNanos(30_000);

    /** The size of the read buffer the loop lends its connections, one read at a time. */
    static final int READ_BUFFER_BYTES = 64 * 1024;
    /** The select never blocks longer, so that the heartbeat stays fresh for a monitor. */
    private static final long MAX_SELECT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Delays beyond this (about 73 years) are clamped, keeping deadline arithmetic overflow-free. */
    private static final long MAX_DELAY_NANOS = Long.MAX_VALUE >> 2;
    private static final int SHUTDOWN_TASK_PASSES = 4;
    /** Queued by the loop itself to mark the end of one iteration's batch of tasks. */
    private static final Runnable END_OF_BATCH = () -> { };

    private static final int RUNNING = 0;
    private static final int STOPPING = 1;
    private static final int TERMINATED = 2;

    private final String name;
    private final Selector selector;
    private final TimerQueue timers = new TimerQueue();
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean awake = new AtomicBoolean(true);
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final Thread thread;
    private volatile long lastIterationNanos = System.nanoTime();
    private final long createdNanos = lastIterationNanos;
    // Heartbeat: written by the loop only, with opaque stores; read by monitors.
    /** When the current select wait began; 0 while the loop works. */
    @SuppressWarnings("unused") // accessed through WAIT_START
    private long waitStart;
    /** When the loop last left its select wait (or started); 0 while it waits. */
    @SuppressWarnings("unused") // accessed through BUSY_SINCE
    private long busySince = createdNanos;
    /** Loop thread only: when the last select wait ended; 0 before the first. */
    private long wokeAt;
    /** The longest time away from select since a monitor last took it; reset by {@link #takeLongestAway()}. */
    @SuppressWarnings("unused") // accessed through LONGEST_AWAY
    private long longestAway;
    /** Time spent waiting in select, completed waits only. */
    @SuppressWarnings("unused") // accessed through WAITED
    private long waited;
    /** Loop-confined: whether the loop is between entering select and its first ready key. */
    private boolean waiting;
    /** {@link #runTasks}, between read slices. */
    private final Runnable taskRunner = this::runTasks;
    /** Loop-confined: the connections found readable by the current select, served a slice at a time. */
    private final ReadLanes readLanes = new ReadLanes();
    /** Loop-confined: lent to one connection's read at a time ({@link #readBuffer()}); allocated on first use. */
    private ByteBuffer readBuffer;
    /** Loop-confined: what its plaintext connections write is copied into it ({@link #writeStaging()}). */
    private ByteBuffer writeStaging;
    /** Loop-confined: empty buffers for TLS connections' ciphertext ({@link #tlsBuffers()}). */
    private final BufferShelf tlsBuffers = new BufferShelf();
    /** Loop-confined: empty buffers for input that outgrew the read buffer ({@link #inputBuffers()}). */
    private final BufferShelf inputBuffers = BufferShelf.forInput();
    /** Loop-confined: whether the current iteration handled an IO event. */
    private boolean handledIo;
    private final long spinNanos;

    /**
     * Opens the selector and starts the loop's thread, named {@code name}, with the
     * {@linkplain #DEFAULT_SPIN default spin}.
     *
     * @throws IOException when no selector can be opened
     */
    public EventLoop(String name) throws IOException {
        this(name, DEFAULT_SPIN);
    }

    /**
     * Opens the selector and starts the loop's thread, named {@code name}.
     *
     * @param spin how long the loop polls its tasks after an iteration with IO before it selects;
     *             zero for never
     * @throws IOException when no selector can be opened
     */
    public EventLoop(String name, Duration spin) throws IOException {
        if (spin.isNegative()) {
            throw new IllegalArgumentException("loop spin time must not be negative, was " + spin);
        }
        this.name = name;
        this.spinNanos = spin.toNanos();
        this.selector = Selector.open();
        this.thread = new LoopThread(name);
        thread.start();
    }

    public String name() {
        return name;
    }

    /** Whether the caller runs on this loop. */
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Fails unless the caller runs on this loop; guards loop-confined state. */
    public void assertInLoop() {
        if (Thread.currentThread() != thread) {
            throw notInLoop();
        }
    }

    private IllegalStateException notInLoop() {
        return new IllegalStateException("Loop-confined code of " + name + " called on "
                + Thread.currentThread().getName());
    }

    /**
     * Runs {@code task} on the loop, after the IO events of the current iteration (also when called on
     * the loop). Tasks queued after the loop terminated are dropped.
     */
    @Override
    public void execute(Runnable task) {
        if (state.get() == TERMINATED) {
            LOG.debug("Loop {} has terminated; dropping task {}", name, task);
            return;
        }
        tasks.offer(task);
        if (!awake.get() && awake.compareAndSet(false, true) && !inLoop()) {
            selector.wakeup();
        }
    }

    /** Runs {@code task} on the loop after {@code delay} (at once for zero or negative delays). */
    public Cancellable schedule(Runnable task, Duration delay) {
        long nanos;
        try {
            nanos = delay.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = delay.isNegative() ? 0 : MAX_DELAY_NANOS;
        }
        return schedule(task, nanos);
    }

    /** Runs {@code task} on the loop after {@code delayNanos}. */
    public Cancellable schedule(Runnable task, long delayNanos) {
        long delay = Math.min(Math.max(0, delayNanos), MAX_DELAY_NANOS);
        ScheduledTask scheduled = new ScheduledTask(timers, System.nanoTime() + delay, task);
        if (inLoop()) {
            timers.add(scheduled.timeout());
        } else {
            execute(() -> timers.add(scheduled.timeout()));
        }
        return scheduled;
    }

    /**
     * The loop's read buffer, cleared: a connection reads into it and hands it to its handler, and
     * must keep whatever the handler leaves before the loop moves on. Sharing one buffer per loop,
     * rather than one per connection, is what lets idle connections hold no read buffer. On the loop.
     */
    BufferShelf tlsBuffers() {
        return tlsBuffers;
    }

    /** The shelf of input buffers its connections share ({@link InputBuffer}); loop-confined. */
    BufferShelf inputBuffers() {
        return inputBuffers;
    }

    /**
     * The direct buffer its plaintext connections' writes are copied into ({@link StagedChannel}),
     * cleared; allocated on first use, {@link OutputQueue#MAX_BYTES_PER_WRITE} bytes. On the loop.
     */
    ByteBuffer writeStaging() {
        if (writeStaging == null) {
            writeStaging = ByteBuffer.allocateDirect(OutputQueue.MAX_BYTES_PER_WRITE);
        }
        return writeStaging.clear();
    }

    /**
     * The buffer its connections read into while they hold no unconsumed bytes, cleared; allocated on
     * first use, {@value #READ_BUFFER_BYTES} bytes, direct: the socket's bytes land in it with no further
     * copy (the JDK reads a heap buffer through a temporary direct one and copies). On the loop.
     */
    ByteBuffer readBuffer() {
        if (readBuffer == null) {
            readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
        }
        return readBuffer.clear();
    }

    /** Registers {@code channel} with this loop's selector; {@code handler} receives its events. */
    SelectionKey register(SelectableChannel channel, int ops, IoHandler handler) throws ClosedChannelException {
        assertInLoop();
        return channel.register(selector, ops, handler);
    }

    /**
     * Cancels {@code key} and lets the selector drop it at once, so that closing its channel right
     * afterwards releases the socket immediately rather than at the next select.
     */
    void deregisterNow(SelectionKey key) {
        assertInLoop();
        key.cancel();
        try {
            selector.selectNow(this::dispatch);
        } catch (IOException e) {
            LOG.warn("Select on loop {} failed while deregistering a channel", name, e);
        }
    }

    /**
     * The longest time the loop spent away from select, working, since the previous call (or since
     * it started), and starts a new period. For one monitor: it finds the stalls that ended between
     * two of its looks. A period still in progress counts once it ends.
     */
    public long takeLongestAway() {
        return (long) LONGEST_AWAY.getAndSet(this, 0L);
    }

    /** When the loop last began an iteration ({@link System#nanoTime()}): the heartbeat for a monitor. */
    public long lastIterationNanos() {
        return lastIterationNanos;
    }

    /**
     * When the loop last left its select wait, i.e. how long it has been busy without getting back to
     * select; {@code 0} while it waits in select. A loop that stays away from select for long has a
     * blocking handler or task (or too much work) and delays every connection it serves.
     */
    public long busySinceNanos() {
        return (long) BUSY_SINCE.getOpaque(this);
    }

    /** Time spent outside select waits since the loop started, up to {@code nowNanos}. */
    public long busyNanos(long nowNanos) {
        long completedWaits = (long) WAITED.getOpaque(this);
        long start = (long) WAIT_START.getOpaque(this);
        long waitingNow = start == 0 ? 0 : Math.max(0, nowNanos - start);
        return Math.max(0, nowNanos - createdNanos - completedWaits - waitingNow);
    }

    /** The loop thread's stack, for a monitor reporting a stalled loop. */
    public StackTraceElement[] stackTrace() {
        return thread.getStackTrace();
    }

    /**
     * Asks the loop to stop: it finishes the current iteration, runs the tasks still queued, tells
     * every registered channel's handler to close, and ends its thread. Idempotent.
     */
    public void shutdown() {
        if (state.compareAndSet(RUNNING, STOPPING)) {
            selector.wakeup();
        }
    }

    public boolean isShutdown() {
        return state.get() != RUNNING;
    }

    /** Whether the loop's thread runs: false once it ended, normally or because an error escaped it. */
    public boolean isAlive() {
        return thread.isAlive();
    }

    public boolean isTerminated() {
        return state.get() == TERMINATED;
    }

    /**
     * Waits up to {@code timeout} for the thread to end after {@link #shutdown()}.
     *
     * @return whether it ended
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        if (inLoop()) {
            throw new IllegalStateException("Loop " + name + " cannot wait for its own termination");
        }
        TimeUnit.NANOSECONDS.timedJoin(thread, Math.max(0, timeout.toNanos()));
        return !thread.isAlive();
    }

    @Override
    public String toString() {
        return "EventLoop[" + name + "]";
    }

    private void runIteration() {
        long now = System.nanoTime();
        lastIterationNanos = now;
        timers.runDue(now);
        select(now);
        readLanes.serve(taskRunner);
        runTasks();
    }

    /** Called by a connection found readable during the select: it reads when its turn comes ({@link ReadLanes}). */
    void readyToRead(TcpConnection connection) {
        readLanes.ready(connection);
    }

    private void select(long now) {
        beginWait();
        if (handledIo && spinNanos > 0 && tasks.isEmpty()) {
            awaitTasksBriefly();
        }
        handledIo = false;
        awake.set(false);
        try {
            if (!tasks.isEmpty() || !readLanes.isEmpty()) {
                selector.selectNow(this::dispatch);
            } else {
                long next = timers.nextDeadline();
                long wait = next == Long.MAX_VALUE ? MAX_SELECT_NANOS : Math.min(MAX_SELECT_NANOS, next - now);
                if (wait <= 0) {
                    selector.selectNow(this::dispatch);
                } else {
                    selector.select(this::dispatch, TimeUnit.NANOSECONDS.toMillis(wait + 999_999));
                }
            }
        } catch (IOException e) {
            LOG.error("Select failed on loop {}", name, e);
        } finally {
            awake.set(true);
            if (waiting) {
                endWait();
            }
        }
    }

    /** Polls the task queue for up to the spin time, yielding between polls; {@code awake} stays true. */
    private void awaitTasksBriefly() {
        long deadline = System.nanoTime() + spinNanos;
        while (tasks.isEmpty() && System.nanoTime() - deadline < 0 && state.get() == RUNNING) {
            Thread.yield();
        }
    }

    private void beginWait() {
        long start = System.nanoTime();
        // the time away since the last select; the thread's start-up before its first select does not count
        if (wokeAt != 0 && start - wokeAt > (long) LONGEST_AWAY.getOpaque(this)) {
            LONGEST_AWAY.setOpaque(this, start - wokeAt);
        }
        WAIT_START.setOpaque(this, start == 0 ? 1 : start);
        BUSY_SINCE.setOpaque(this, 0L);
        waiting = true;
    }

    private void endWait() {
        waiting = false;
        long end = System.nanoTime();
        long start = (long) WAIT_START.getOpaque(this);
        WAIT_START.setOpaque(this, 0L);
        WAITED.setOpaque(this, (long) WAITED.getOpaque(this) + Math.max(0, end - start));
        BUSY_SINCE.setOpaque(this, end == 0 ? 1 : end);
        wokeAt = end == 0 ? 1 : end;
    }

    private void dispatch(SelectionKey key) {
        if (waiting) {
            endWait(); // the first ready key: from here on the loop works, and a monitor may see it stall
        }
        if (!awake.get()) {
            awake.set(true); // the select has returned: producers need not wake it any more
        }
        if (!key.isValid()) {
            return;
        }
        handledIo = true;
        IoHandler handler = (IoHandler) key.attachment();
        try {
            handler.onReady(key.readyOps());
        } catch (Throwable t) {
            if (FatalErrors.isFatal(t)) {
                throw FatalErrors.fatal("handling IO events of " + handler + " on loop " + name, t);
            }
            LOG.error("IO handler {} failed on loop {}; the loop continues", handler, name, t);
        }
    }

    /** Runs the tasks queued before this call; tasks they queue wait for the next iteration. */
    private void runTasks() {
        if (tasks.isEmpty()) {
            return;
        }
        tasks.offer(END_OF_BATCH);
        Runnable task;
        while ((task = tasks.poll()) != END_OF_BATCH) {
            runSafely(task);
        }
    }

    private void runSafely(Runnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            if (FatalErrors.isFatal(t)) {
                throw FatalErrors.fatal("running task " + task + " on loop " + name, t);
            }
            LOG.error("Task {} failed on loop {}; the loop continues", task, name, t);
        }
    }

    /** After the last iteration: drain tasks, close every registered channel, drain again. */
    private void closeDown() {
        try {
            runTasks();
            List<SelectionKey> keys = new ArrayList<>(selector.keys());
            for (SelectionKey key : keys) {
                IoHandler handler = (IoHandler) key.attachment();
                try {
                    handler.onLoopShutdown();
                } catch (Throwable t) {
                    if (FatalErrors.isFatal(t)) {
                        throw FatalErrors.fatal("closing " + handler + " as loop " + name + " shuts down", t);
                    }
                    LOG.error("Handler {} failed to close on loop {} shutdown", handler, name, t);
                }
            }
            for (int pass = 0; pass < SHUTDOWN_TASK_PASSES && !tasks.isEmpty(); pass++) {
                runTasks();
            }
        } finally {
            state.set(TERMINATED);
            tasks.clear();
            try {
                selector.close();
            } catch (IOException e) {
                LOG.warn("Closing the selector of loop {} failed", name, e);
            }
        }
    }

    private final class LoopThread extends Thread implements RuntimeThread {

        LoopThread(String name) {
            super(name);
            setDaemon(true);
            setContextClassLoader(EventLoop.class.getClassLoader());
        }

        @Override
        public void run() {
            LoopFailures failures = new LoopFailures("IO loop " + name);
            try {
                while (state.get() == RUNNING) {
                    try {
                        runIteration();
                    } catch (Throwable t) {
                        failures.failed("running an iteration", t); // returns, or throws a fatal error
                    }
                }
            } finally {
                closeDown();
            }
        }
    }
}
