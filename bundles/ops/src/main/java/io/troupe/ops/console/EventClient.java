package io.troupe.ops.console;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Objects;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

/**
 * One browser listening to {@code /console/api/events}: its events wait in a bounded queue and are written
 * with the servlet container's non-blocking output, so that a client that reads slowly never holds up the
 * publisher or the other clients. When its queue would pass {@value #MAX_PENDING_EVENTS} events or
 * {@value #MAX_PENDING_BYTES} bytes, the client is dropped: its response ends, and the browser's
 * {@code EventSource} connects again later and starts from the current state.
 *
 * <p><b>Threading:</b> {@link #offer} on the publisher's thread, {@link #onWritePossible} and the async events
 * on the container's threads; all of them synchronise on this object, so the output stream is used by one
 * thread at a time and never blocks (it is written only while {@code isReady()}).
 */
final class EventClient implements WriteListener, AsyncListener {

    /** Events queued for one client at most. */
    static final int MAX_PENDING_EVENTS = 16;
    /** Bytes queued for one client at most. */
    static final int MAX_PENDING_BYTES = 8 << 20;

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final Runnable onClose;
    private final ArrayDeque<byte[]> pending = new ArrayDeque<>();
    private int pendingBytes;
    private boolean unflushed;
    private boolean closed;
    private String closedBecause;

    /**
     * @param onClose called once when the client is closed for any reason (to forget it)
     */
    EventClient(AsyncContext async, ServletOutputStream out, Runnable onClose) {
        this.async = Objects.requireNonNull(async, "async");
        this.out = Objects.requireNonNull(out, "out");
        this.onClose = Objects.requireNonNull(onClose, "onClose");
    }

    /**
     * Queues {@code frame} (one whole server-sent event) and writes what the connection takes now.
     *
     * @return false when the client is closed, or was just dropped because its queue is full
     */
    synchronized boolean offer(byte[] frame) {
        if (closed) {
            return false;
        }
        if (pending.size() >= MAX_PENDING_EVENTS || pendingBytes + frame.length > MAX_PENDING_BYTES) {
            close("too slow: " + pending.size() + " events (" + pendingBytes + " bytes) not yet taken");
            return false;
        }
        pending.addLast(frame);
        pendingBytes += frame.length;
        drain();
        return !closed;
    }

    @Override
    public synchronized void onWritePossible() {
        drain();
    }

    @Override
    public synchronized void onError(Throwable failure) {
        close("the connection failed: " + failure);
    }

    @Override
    public void onComplete(AsyncEvent event) {
        closed("completed");
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        close("timed out");
    }

    @Override
    public void onError(AsyncEvent event) {
        close("the connection failed: " + event.getThrowable());
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not restarted
    }

    /** Queued events not yet written; for tests and the log. */
    synchronized int pending() {
        return pending.size();
    }

    /** Why the client was closed, or null while it is open. */
    synchronized String closedBecause() {
        return closedBecause;
    }

    /** Ends the response (at most once) and forgets the queue. */
    synchronized void close(String why) {
        if (closed) {
            return;
        }
        closed(why);
        try {
            async.complete();
        } catch (IllegalStateException e) {
            // completed or failed by the container already
        }
    }

    private synchronized void closed(String why) {
        if (!closed) {
            closed = true;
            closedBecause = why;
            pending.clear();
            pendingBytes = 0;
            onClose.run();
        }
    }

    /** Writes while the connection is ready; the container calls {@link #onWritePossible} when it is again. */
    private void drain() {
        try {
            while (!closed && out.isReady()) {
                byte[] next = pending.pollFirst();
                if (next == null) {
                    if (unflushed) {
                        unflushed = false;
                        out.flush();
                        continue; // isReady() again: the flush may be pending
                    }
                    return;
                }
                pendingBytes -= next.length;
                out.write(next);
                unflushed = true;
            }
        } catch (IOException | IllegalStateException e) {
            close("writing failed: " + e);
        }
    }
}
