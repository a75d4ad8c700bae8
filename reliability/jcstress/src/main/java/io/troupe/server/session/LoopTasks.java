package io.troupe.server.session;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.troupe.api.net.Cancellable;
import io.troupe.api.net.Connection;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;

/**
 * A connection whose loop is whoever calls {@link #runTasks}: tasks from any thread queue up, writes (on the
 * loop) are decoded back into frames. Only what {@link AnswerBatch} uses does anything.
 *
 * <p><b>Threading:</b> {@link #execute} from any thread; the rest on the one thread that plays the loop at a time.
 */
final class LoopTasks implements Connection {

    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final FrameDecoder decoder = new FrameDecoder(1 << 20);
    private final List<Frame> written = new ArrayList<>();

    /** Runs the tasks queued so far and those they queue, as the loop would. */
    void runTasks() {
        for (Runnable task; (task = tasks.poll()) != null; ) {
            task.run();
        }
    }

    boolean hasTasks() {
        return !tasks.isEmpty();
    }

    List<Frame> written() {
        return written;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    @Override
    public void write(ByteBuffer bytes) {
        for (Frame frame; (frame = decoder.decode(bytes)) != null; ) {
            written.add(frame);
        }
    }

    @Override
    public long id() {
        return 1;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return null;
    }

    @Override
    public InetSocketAddress localAddress() {
        return null;
    }

    @Override
    public boolean inLoop() {
        return true;
    }

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        throw new UnsupportedOperationException("no timers here");
    }

    @Override
    public long pendingOutputBytes() {
        return 0;
    }

    @Override
    public boolean isWritable() {
        return true;
    }

    @Override
    public void suspendReading() {
    }

    @Override
    public void resumeReading() {
    }

    @Override
    public void shutdownOutput() {
    }

    @Override
    public void close() {
    }

    @Override
    public void abort() {
    }

    @Override
    public boolean isOpen() {
        return true;
    }
}
