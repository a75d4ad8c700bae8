package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.troupe.protocol.FrameDecoder;

/**
 * Tenant A's load: {@link LoadShape#connections()} sessions, each a {@link PipelinedConnection} with
 * {@link LoadShape#inFlight()} requests always outstanding, all driven by one selector thread so that
 * the load generator takes little of the machine it shares with the server. Replies are counted in
 * the window; at its end the connections are closed.
 *
 * <p><b>Threading:</b> {@link #start} (which opens the sessions, blocking) and {@link #await} on the
 * suite's thread; everything else on the load's own thread, which publishes its result through
 * {@link Thread#join}.
 */
final class PipelinedLoad implements PipelinedConnection.Listener {

    private final LoadShape shape;
    private final Window window;
    private final Selector selector;
    private final List<PipelinedConnection> connections = new ArrayList<>();
    private final Thread thread;
    private final Map<String, Long> errors = new HashMap<>();
    private long replies;
    private int lost;
    private String firstFailure;

    private PipelinedLoad(LoadShape shape, Window window) throws IOException {
        this.shape = shape;
        this.window = window;
        this.selector = Selector.open();
        this.thread = new Thread(this::run, "tenant-a-load");
        thread.setDaemon(true);
    }

    /**
     * Opens the sessions of {@code tenant} and starts sending on a new thread.
     *
     * @throws IOException when a session cannot be opened (those already open are closed)
     */
    static PipelinedLoad start(int port, String tenant, String token, LoadShape shape, Window window)
            throws IOException {
        PipelinedLoad load = new PipelinedLoad(shape, window);
        try {
            for (int i = 0; i < shape.connections(); i++) {
                SocketChannel channel = Sessions.open(port, tenant, token,
                        new BlockingFrameReader(FrameDecoder.PRE_AUTH_MAX_FRAME_BYTES));
                PipelinedConnection connection = new PipelinedConnection(channel, shape);
                load.connections.add(connection);
                connection.register(load.selector);
            }
        } catch (IOException | RuntimeException e) {
            load.closeAll();
            throw e;
        }
        load.thread.start();
        return load;
    }

    /** Waits for the end of the window and then up to {@code graceMillis} more. */
    LoadResult await(long graceMillis) throws InterruptedException {
        long left = TimeUnit.NANOSECONDS.toMillis(window.measureUntil() - System.nanoTime()) + graceMillis;
        thread.join(Math.max(1, left));
        if (thread.isAlive()) {
            thread.interrupt();
            selector.wakeup();
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        synchronized (this) {
            String failure = thread.isAlive() ? "the load did not stop" : firstFailure;
            return new LoadResult(replies, replies * shape.payloadBytes(), window.seconds(), errors, lost, failure);
        }
    }

    @Override
    public void replied(long nanoTime) {
        if (window.measures(nanoTime)) {
            replies++;
        }
    }

    @Override
    public void failed(String code) {
        errors.merge(code, 1L, Long::sum);
    }

    private void run() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                long now = System.nanoTime();
                if (window.isOver(now)) {
                    break;
                }
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(window.measureUntil() - now)));
                now = System.nanoTime();
                for (SelectionKey key : selector.selectedKeys()) {
                    PipelinedConnection connection = (PipelinedConnection) key.attachment();
                    try {
                        if (!connection.ready(now, this)) {
                            lose(key, connection, "the server closed the connection");
                        }
                    } catch (IOException e) {
                        lose(key, connection, e.toString());
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                lost = connections.size();
                firstFailure = "the selector failed: " + e;
            }
        } finally {
            closeAll();
        }
    }

    private synchronized void lose(SelectionKey key, PipelinedConnection connection, String why) {
        key.cancel();
        connection.close();
        lost++;
        if (firstFailure == null) {
            firstFailure = why;
        }
    }

    private void closeAll() {
        for (PipelinedConnection connection : connections) {
            connection.close();
        }
        try {
            selector.close();
        } catch (IOException e) {
            // closing at the end of a run: nothing left to tell
        }
    }
}
