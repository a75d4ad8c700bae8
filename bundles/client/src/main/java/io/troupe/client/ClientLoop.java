package io.troupe.client;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The IO threads that clients run on: one or a few selector threads that any number of
 * {@link TroupeClient}s can share, so that a thousand connections need not cost a thousand
 * threads.
 *
 * <p>A client built without a loop creates a one-thread loop of its own and shuts it down when it
 * closes. A loop passed to {@link TroupeClient.Builder#loop(ClientLoop)} belongs to the caller: each
 * client is assigned one of its threads, round-robin, for its whole life, and the caller closes
 * the loop after its clients. Closing a loop closes the clients still using it: their requests in
 * flight fail with {@link ConnectionLostException}.
 *
 * <p>The threads are daemon threads named {@code NAME-1} .. {@code NAME-n}. Callbacks run on them
 * (see {@link TroupeClient}), so those must not block.
 *
 * <p><b>Threading:</b> thread-safe; any method from any thread. {@link #close()} called on one of
 * the loop's own threads does not wait.
 */
public final class ClientLoop implements AutoCloseable {

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final String name;
    private final SelectorLoop[] loops;
    private final AtomicInteger next = new AtomicInteger();

    private ClientLoop(String name, int threads) {
        this.name = name;
        this.loops = new SelectorLoop[threads];
        for (int i = 0; i < threads; i++) {
            loops[i] = new SelectorLoop(name + "-" + (i + 1));
        }
    }

    /** A loop of one thread named {@code troupe-client-1}. */
    public static ClientLoop create() {
        return create("troupe-client", 1);
    }

    /**
     * A loop of {@code threads} threads, started at once.
     *
     * @param name    the prefix of the thread names
     * @param threads how many selector threads; 1 to 256
     * @throws IllegalArgumentException when {@code threads} is out of range
     * @throws java.io.UncheckedIOException when the operating system refuses a selector
     */
    public static ClientLoop create(String name, int threads) {
        Objects.requireNonNull(name, "name");
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("threads must be between 1 and 256: " + threads);
        }
        return new ClientLoop(name, threads);
    }

    /** The number of selector threads. */
    public int threads() {
        return loops.length;
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return loops[0].isShutdown();
    }

    /**
     * Closes the clients still using this loop and stops its threads, waiting up to 10 s for them
     * unless called on one of them. Idempotent.
     */
    @Override
    public void close() {
        for (SelectorLoop loop : loops) {
            loop.shutdown();
        }
        for (SelectorLoop loop : loops) {
            if (loop.inLoop()) {
                continue;
            }
            try {
                loop.awaitTermination(CLOSE_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Starts stopping the threads without waiting. */
    void shutdown() {
        for (SelectorLoop loop : loops) {
            loop.shutdown();
        }
    }

    /** The thread for a new client, round-robin. */
    SelectorLoop nextLoop() {
        return loops[Math.floorMod(next.getAndIncrement(), loops.length)];
    }

    @Override
    public String toString() {
        return "ClientLoop[" + name + ", " + loops.length + " threads" + (isClosed() ? ", closed]" : "]");
    }
}
