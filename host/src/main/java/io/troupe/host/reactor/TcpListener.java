package io.troupe.host.reactor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.net.ConnectionHandlerFactory;
import io.troupe.api.net.ListenerOptions;
import io.troupe.api.net.Listener;
import io.troupe.host.dispatch.RuntimeThread;

/**
 * One bound, listening {@link ServerSocketChannel} registered on the acceptor loop, with the handler
 * factory and options of the connections it accepts. Accept events go to the {@link Acceptor}.
 *
 * <p><b>Threading:</b> {@link #address()} and {@link #close()} from any thread; the rest on the
 * acceptor loop. {@link #close()} returns once the port is released, except on runtime threads,
 * which must not wait: there the release follows shortly on the acceptor loop.
 */
final class TcpListener implements Listener, IoHandler {

    private static final Logger LOG = LoggerFactory.getLogger(TcpListener.class);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final Acceptor acceptor;
    private final EventLoop loop;
    private final ServerSocketChannel channel;
    private final InetSocketAddress address;
    private final ConnectionHandlerFactory handlers;
    private final ListenerOptions options;
    /** Null without admission limits. */
    private final Admission admission;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AcceptBackoff backoff = new AcceptBackoff();
    private SelectionKey key;

    TcpListener(Acceptor acceptor, EventLoop loop, ServerSocketChannel channel, InetSocketAddress address,
            ConnectionHandlerFactory handlers, ListenerOptions options, Admission admission) {
        this.acceptor = acceptor;
        this.loop = loop;
        this.channel = channel;
        this.address = address;
        this.handlers = handlers;
        this.options = options;
        this.admission = admission;
    }

    /** Starts watching for connections; on the acceptor loop. */
    void register() {
        loop.assertInLoop();
        if (closed.get()) {
            return;
        }
        try {
            key = loop.register(channel, SelectionKey.OP_ACCEPT, this);
        } catch (ClosedChannelException e) {
            LOG.warn("Listener on {} was closed before it could accept", address);
        }
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    ServerSocketChannel channel() {
        return channel;
    }

    ConnectionHandlerFactory handlers() {
        return handlers;
    }

    ListenerOptions options() {
        return options;
    }

    /** The listener's admission counts, or null when it has no limits. */
    Admission admission() {
        return admission;
    }

    AcceptBackoff backoff() {
        return backoff;
    }

    /** Stops watching for connections for {@code pauseMillis}; after an accept failure. */
    void pauseAccepting(long pauseMillis) {
        if (key != null && key.isValid()) {
            key.interestOps(0);
            loop.schedule(this::resumeAccepting, Duration.ofMillis(pauseMillis));
        }
    }

    private void resumeAccepting() {
        if (key != null && key.isValid()) {
            key.interestOps(SelectionKey.OP_ACCEPT);
        }
    }

    @Override
    public void onReady(int readyOps) {
        acceptor.acceptFrom(this);
    }

    @Override
    public void onLoopShutdown() {
        closed.set(true);
        closeInLoop();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (loop.inLoop()) {
            closeInLoop();
            return;
        }
        if (loop.isTerminated()) {
            closeChannel(); // never registered any more: closing releases the port at once
            return;
        }
        CompletableFuture<Void> released = new CompletableFuture<>();
        loop.execute(() -> {
            closeInLoop();
            released.complete(null);
        });
        if (!RuntimeThread.isCurrent()) {
            awaitRelease(released);
        }
    }

    private void awaitRelease(CompletableFuture<Void> released) {
        try {
            released.get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException e) {
            LOG.warn("Listener on {} not released within {}; the acceptor loop may be stalled", address,
                    CLOSE_WAIT);
        } catch (ExecutionException e) {
            throw new IllegalStateException("unreachable: the release task completes normally", e);
        }
    }

    private void closeInLoop() {
        if (key != null) {
            loop.deregisterNow(key); // so that the close below frees the port now, not at the next select
            key = null;
        }
        if (channel.isOpen()) {
            closeChannel();
            LOG.info("Stopped listening on {}", address);
        }
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.warn("Closing the listener on {} failed", address, e);
        }
    }

    @Override
    public String toString() {
        return "TcpListener[" + address + "]";
    }
}
