package io.troupe.server.session;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicLong;

import io.troupe.api.net.Cancellable;
import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;

/**
 * An in-memory {@link Connection} that plays the reactor for one handler, driven by the test: bytes
 * go in with {@link #receive}, tasks and timers run when the test says ({@link #runTasks},
 * {@link #advance}) on a manual clock, and written frames are decoded into {@link #written()}.
 * Like the real one, it keeps unconsumed input while reading is suspended, presents it again on
 * resume, and calls {@code onClosed} once, from a task.
 *
 * <p><b>Threading:</b> the test thread is the loop; {@link #write} may come from any thread.
 */
final class ManualConnection implements Connection {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong pendingOutput = new AtomicLong();
    private final Thread loop = Thread.currentThread();
    private final Queue<Runnable> tasks = new ArrayDeque<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final FrameDecoder clientSide = new FrameDecoder(64 << 20);
    private final List<Frame> written = new ArrayList<>();
    private int writes;
    private int groups;
    private ByteBuffer[] lastGroup;
    private ByteBuffer input = ByteBuffer.allocate(0);
    private ConnectionHandler handler;
    private boolean suspended;
    private boolean closing;
    private boolean closed;
    private long timerSequence;

    long nanoTime() {
        return nanos.get();
    }

    /** Connects {@code created}, as the reactor does: onOpen, then reading. */
    void open(ConnectionHandler created) {
        handler = created;
        handler.onOpen(this);
    }

    /** Bytes from the client: delivered at once unless reading is suspended. */
    void receive(byte[] bytes) {
        ByteBuffer more = ByteBuffer.allocate(input.remaining() + bytes.length);
        more.put(input).put(bytes).flip();
        input = more;
        deliver();
    }

    void receive(Frame... frames) {
        for (Frame frame : frames) {
            receive(FrameEncoder.encode(frame).array());
        }
    }

    /** The client shut its output down. */
    void endOfInput() {
        handler.onInputShutdown(this);
    }

    /** Runs queued tasks until there are none. */
    void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            task.run();
        }
    }

    /** Moves the clock, running the timers that fall due and every task. */
    void advance(Duration duration) {
        long target = nanos.get() + duration.toNanos();
        runTasks();
        while (!timers.isEmpty() && timers.peek().at - target <= 0) {
            Timer timer = timers.poll();
            nanos.set(timer.at);
            if (!timer.cancelled) {
                timer.task.run();
            }
            runTasks();
        }
        nanos.set(target);
        runTasks();
    }

    /** How many times {@link #write} was called. */
    synchronized int writes() {
        return writes;
    }

    /** Tasks queued and not run yet. */
    synchronized int queuedTasks() {
        return tasks.size();
    }

    /** Frames written so far, in order. */
    synchronized List<Frame> written() {
        return List.copyOf(written);
    }

    /** Frames written so far; forgets them. */
    synchronized List<Frame> takeWritten() {
        List<Frame> frames = List.copyOf(written);
        written.clear();
        return frames;
    }

    boolean isSuspended() {
        return suspended;
    }

    int unconsumedBytes() {
        return input.remaining();
    }

    @Override
    public long id() {
        return 42;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 50_000);
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress("127.0.0.1", 7878);
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == loop;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            tasks.add(task);
        }
    }

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        Timer timer = new Timer(nanos.get() + delay.toNanos(), timerSequence++, task);
        timers.add(timer);
        return () -> {
            boolean pending = !timer.cancelled && timers.contains(timer);
            timer.cancelled = true;
            return pending;
        };
    }

    @Override
    public synchronized void write(ByteBuffer bytes) {
        if (closing) {
            return;
        }
        writes++;
        ByteBuffer copy = bytes.duplicate();
        Frame frame;
        while ((frame = clientSide.decode(copy)) != null) {
            written.add(frame);
        }
    }

    /** A group counts as one write (and one group): the connection sees its bytes joined. */
    @Override
    public synchronized void write(ByteBuffer... buffers) {
        if (closing) {
            return;
        }
        groups++;
        lastGroup = buffers.clone();
        Connection.super.write(buffers);
    }

    /** Groups written with {@code write(ByteBuffer...)}. */
    synchronized int groups() {
        return groups;
    }

    /** The buffers of the last group, as given. */
    synchronized ByteBuffer[] lastGroup() {
        return lastGroup;
    }

    @Override
    public long pendingOutputBytes() {
        return pendingOutput.get();
    }

    /** Sets what {@link #pendingOutputBytes()} says: bytes the client has not read yet (0 by default). */
    void pendingOutput(long bytes) {
        pendingOutput.set(bytes);
    }

    /** The output drained to {@code bytes}, below the low-water mark: the handler hears {@code onWritable}. */
    void drainedTo(long bytes) {
        pendingOutput.set(bytes);
        handler.onWritable(this);
    }

    @Override
    public boolean isWritable() {
        return true;
    }

    @Override
    public void suspendReading() {
        suspended = true;
    }

    @Override
    public void resumeReading() {
        if (suspended) {
            suspended = false;
            execute(this::deliver);
        }
    }

    @Override
    public void shutdownOutput() {
    }

    @Override
    public synchronized void close() {
        if (!closing) {
            closing = true;
            execute(this::closed);
        }
    }

    @Override
    public void abort() {
        close();
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    private void deliver() {
        if (!suspended && !closing && input.hasRemaining()) {
            handler.onRead(this, input);
        }
    }

    private void closed() {
        if (!closed) {
            closed = true;
            handler.onClosed(this, null);
        }
    }

    private static final class Timer implements Comparable<Timer> {
        final long at;
        final long sequence;
        final Runnable task;
        boolean cancelled;

        Timer(long at, long sequence, Runnable task) {
            this.at = at;
            this.sequence = sequence;
            this.task = task;
        }

        @Override
        public int compareTo(Timer other) {
            int byTime = Long.compare(at, other.at);
            return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
        }
    }
}
