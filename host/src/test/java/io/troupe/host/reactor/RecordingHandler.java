package io.troupe.host.reactor;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;

/**
 * A handler stub that records what happened to its connection: the callbacks, the threads they ran
 * on, the bytes received (consumed entirely unless a subclass decides otherwise), and the close cause.
 * Subclasses override {@link #received} to react to input.
 */
class RecordingHandler implements ConnectionHandler {

    /** Completed with the connection by onOpen. */
    final CompletableFuture<Connection> opened = new CompletableFuture<>();
    /** Completed with the cause (possibly null) by onClosed. */
    final CompletableFuture<Throwable> closed = new CompletableFuture<>();
    final CompletableFuture<Void> inputShutdown = new CompletableFuture<>();
    final AtomicInteger closedCalls = new AtomicInteger();
    final AtomicInteger writableCalls = new AtomicInteger();
    /** "callback@thread" for every callback that ran off the connection's loop or off an IO thread. */
    final List<String> misplacedCallbacks = new CopyOnWriteArrayList<>();
    final List<String> callbackThreads = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public void onOpen(Connection connection) {
        check("onOpen", connection);
        opened.complete(connection);
    }

    @Override
    public final void onRead(Connection connection, ByteBuffer input) {
        check("onRead", connection);
        received(connection, input);
    }

    /** Consumes and records everything; override to do otherwise. */
    protected void received(Connection connection, ByteBuffer input) {
        byte[] chunk = new byte[input.remaining()];
        input.get(chunk);
        synchronized (bytes) {
            bytes.writeBytes(chunk);
        }
    }

    @Override
    public void onInputShutdown(Connection connection) {
        check("onInputShutdown", connection);
        inputShutdown.complete(null);
    }

    @Override
    public void onWritable(Connection connection) {
        check("onWritable", connection);
        writableCalls.incrementAndGet();
    }

    @Override
    public void onClosed(Connection connection, Throwable cause) {
        check("onClosed", connection);
        closedCalls.incrementAndGet();
        closed.complete(cause);
    }

    byte[] bytes() {
        synchronized (bytes) {
            return bytes.toByteArray();
        }
    }

    private void check(String callback, Connection connection) {
        String thread = Thread.currentThread().getName();
        callbackThreads.add(thread);
        if (!connection.inLoop() || !thread.startsWith("troupe-io-")) {
            misplacedCallbacks.add(callback + "@" + thread);
        }
    }
}
