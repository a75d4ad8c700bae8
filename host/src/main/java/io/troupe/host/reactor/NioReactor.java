package io.troupe.host.reactor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.troupe.api.net.ConnectionHandlerFactory;
import io.troupe.api.net.ListenerOptions;
import io.troupe.api.net.Listener;
import io.troupe.api.net.Reactor;

/**
 * The host's {@link Reactor} service: one acceptor loop ({@code troupe-acceptor}) and a group of IO
 * loops ({@code troupe-io-1 … troupe-io-N}). The pending output of all its connections together is held to
 * an {@link OutputBudget}, a share of the heap.
 *
 * <p><b>Threading:</b> every method from any thread except the reactor's own loops.
 */
public final class NioReactor implements Reactor {

    static final String ACCEPTOR_THREAD = "troupe-acceptor";
    static final String IO_THREAD_PREFIX = "troupe-io";

    private final EventLoopGroup group;
    private final Acceptor acceptor;
    private final AtomicLong connectionIds = new AtomicLong();
    private final TlsTaskExecutor tlsTasks = new TlsTaskExecutor();
    private final OutputBudget budget;

    /**
     * Starts the loops.
     *
     * @throws IOException when a selector cannot be opened
     */
    public NioReactor(int ioThreads) throws IOException {
        this(ioThreads, EventLoop.DEFAULT_SPIN);
    }

    /**
     * Starts the loops; the IO loops spin for {@code spin} after an iteration with IO
     * ({@link EventLoop}), the acceptor, which expects no answers, never.
     *
     * @throws IOException when a selector cannot be opened
     */
    public NioReactor(int ioThreads, Duration spin) throws IOException {
        this(ioThreads, spin, OutputBudget.ofHeap(Runtime.getRuntime().maxMemory()));
    }

    /** Starts the loops, their connections' pending output held to {@code budget} in total. */
    NioReactor(int ioThreads, Duration spin, OutputBudget budget) throws IOException {
        this.budget = budget;
        this.group = new EventLoopGroup(ioThreads, IO_THREAD_PREFIX, spin);
        EventLoop acceptorLoop;
        try {
            acceptorLoop = new EventLoop(ACCEPTOR_THREAD, Duration.ZERO);
        } catch (IOException | RuntimeException e) {
            group.loops().forEach(EventLoop::shutdown);
            tlsTasks.shutdown();
            throw e;
        }
        this.acceptor = new Acceptor(acceptorLoop, group, connectionIds::incrementAndGet, tlsTasks, budget);
    }

    @Override
    public Listener listen(InetSocketAddress address, ConnectionHandlerFactory handlers, ListenerOptions options)
            throws IOException {
        return acceptor.listen(address, handlers, options);
    }

    /** Bytes of output pending over all connections, and the budget they are held to. */
    long pendingOutputBytes() {
        return budget.pendingBytes();
    }

    @Override
    public int ioLoops() {
        return group.size();
    }

    /** Every loop, the acceptor's first: what a monitor watches ({@link EventLoop#lastIterationNanos()}). */
    public List<EventLoop> loops() {
        List<EventLoop> all = new ArrayList<>(group.size() + 1);
        all.add(acceptor.loop());
        all.addAll(group.loops());
        return List.copyOf(all);
    }

    /**
     * Stops accepting (closing every listener), then stops the IO loops, which close their
     * connections; waits up to {@code timeout} in total.
     *
     * @return whether every thread ended in time
     */
    public boolean shutdown(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean acceptorEnded = acceptor.shutdown(timeout);
        boolean ioEnded = group.shutdown(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        tlsTasks.shutdown();
        return acceptorEnded && ioEnded;
    }
}
