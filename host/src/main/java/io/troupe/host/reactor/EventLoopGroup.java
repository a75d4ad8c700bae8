package io.troupe.host.reactor;

import java.io.IOException;
import java.time.Duration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The IO loops (muduo's EventLoopThreadPool): {@code size} {@link EventLoop}s named
 * {@code prefix-1 … prefix-N}, handed out round-robin.
 *
 * <p><b>Threading:</b> {@link #next()} and {@link #shutdown} from any thread but the group's own loops
 * (for {@link #shutdown}).
 */
public final class EventLoopGroup {

    private final List<EventLoop> loops;
    private final AtomicInteger nextIndex = new AtomicInteger();

    /**
     * Starts the loops.
     *
     * @throws IOException when a selector cannot be opened; loops already started are stopped
     */
    public EventLoopGroup(int size, String prefix) throws IOException {
        this(size, prefix, EventLoop.DEFAULT_SPIN);
    }

    /**
     * Starts the loops, each spinning for {@code spin} after an iteration with IO ({@link EventLoop}).
     *
     * @throws IOException when a selector cannot be opened; loops already started are stopped
     */
    public EventLoopGroup(int size, String prefix, Duration spin) throws IOException {
        if (size < 1) {
            throw new IllegalArgumentException("an event loop group needs at least one loop, got " + size);
        }
        List<EventLoop> started = new ArrayList<>(size);
        try {
            for (int i = 1; i <= size; i++) {
                started.add(new EventLoop(prefix + "-" + i, spin));
            }
        } catch (IOException | RuntimeException e) {
            started.forEach(EventLoop::shutdown);
            throw e;
        }
        this.loops = List.copyOf(started);
    }

    /** The next loop in round-robin order. */
    public EventLoop next() {
        return loops.get(Math.floorMod(nextIndex.getAndIncrement(), loops.size()));
    }

    public int size() {
        return loops.size();
    }

    /** The loops, in naming order. */
    public List<EventLoop> loops() {
        return loops;
    }

    /**
     * Shuts every loop down (each closes its connections) and waits up to {@code timeout} in total
     * for their threads.
     *
     * @return whether every thread ended in time
     */
    public boolean shutdown(Duration timeout) throws InterruptedException {
        loops.forEach(EventLoop::shutdown);
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean ended = true;
        for (EventLoop loop : loops) {
            ended &= loop.awaitTermination(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        return ended;
    }
}
