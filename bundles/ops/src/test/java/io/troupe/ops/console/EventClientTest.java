package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;

import org.junit.jupiter.api.Test;

/**
 * One event-stream client over a hand-written non-blocking output: what the connection takes is written and
 * flushed at once, what it does not take waits in the client's queue until the container says it may write
 * again, and a client whose queue would overflow is dropped (its response completed) without the publisher
 * ever waiting.
 *
 * <p><b>Threading:</b> the test thread plays both the publisher and the container.
 */
class EventClientTest {

    /** An output whose readiness the test switches, as a socket's send buffer fills and drains. */
    private static final class SwitchedOutput extends ServletOutputStream {
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        boolean ready = true;
        int flushes;

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            // the test calls onWritePossible itself
        }

        @Override
        public void write(int b) {
            if (!ready) {
                throw new IllegalStateException("written while not ready");
            }
            written.write(b);
        }

        @Override
        public void flush() {
            flushes++;
        }

        String text() {
            return written.toString(StandardCharsets.UTF_8);
        }
    }

    /** Counts completions; every other method refuses. */
    private static final class CountingAsync implements AsyncContext {
        final AtomicInteger completions = new AtomicInteger();

        @Override
        public void complete() {
            completions.incrementAndGet();
        }

        @Override
        public ServletRequest getRequest() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ServletResponse getResponse() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean hasOriginalRequestAndResponse() {
            return true;
        }

        @Override
        public void dispatch() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void dispatch(String path) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void dispatch(ServletContext context, String path) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void start(Runnable run) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void addListener(AsyncListener listener) {
        }

        @Override
        public void addListener(AsyncListener listener, ServletRequest request, ServletResponse response) {
        }

        @Override
        public <T extends AsyncListener> T createListener(Class<T> type) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void setTimeout(long timeout) {
        }

        @Override
        public long getTimeout() {
            return 0;
        }
    }

    private final SwitchedOutput out = new SwitchedOutput();
    private final CountingAsync async = new CountingAsync();
    private final AtomicInteger forgotten = new AtomicInteger();
    private final EventClient client = new EventClient(async, out, forgotten::incrementAndGet);

    private static byte[] event(int n) {
        return EventStream.frame("update", ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aReadyConnectionGetsEachEventWrittenAndFlushedAtOnce() {
        assertTrue(client.offer(event(1)));
        assertTrue(client.offer(event(2)));

        assertEquals("event: update\ndata: {\"n\":1}\n\nevent: update\ndata: {\"n\":2}\n\n", out.text());
        assertEquals(2, out.flushes);
        assertEquals(0, client.pending());
    }

    @Test
    void eventsWaitWhileTheConnectionIsNotReadyAndGoOutInOrderWhenItIs() {
        out.ready = false;
        assertTrue(client.offer(event(1)));
        assertTrue(client.offer(event(2)));
        assertEquals("", out.text());
        assertEquals(2, client.pending());

        out.ready = true;
        client.onWritePossible();

        assertEquals("event: update\ndata: {\"n\":1}\n\nevent: update\ndata: {\"n\":2}\n\n", out.text());
        assertEquals(0, client.pending());
    }

    @Test
    void aClientThatTakesNothingIsDroppedWhenItsQueueIsFullAndNeverWrittenAgain() {
        out.ready = false;
        for (int i = 0; i < EventClient.MAX_PENDING_EVENTS; i++) {
            assertTrue(client.offer(event(i)));
        }

        assertFalse(client.offer(event(99)), "one more than the queue holds");

        assertEquals(1, async.completions.get());
        assertEquals(1, forgotten.get(), "the stream forgets it");
        assertTrue(client.closedBecause().startsWith("too slow: " + EventClient.MAX_PENDING_EVENTS + " events"),
                client.closedBecause());
        out.ready = true;
        assertFalse(client.offer(event(100)));
        client.onWritePossible();
        assertEquals("", out.text());
        assertEquals(1, async.completions.get(), "completed once");
    }

    @Test
    void aFailedConnectionClosesTheClientOnce() {
        client.onError(new java.io.IOException("broken pipe"));
        client.close("again");

        assertEquals(1, async.completions.get());
        assertEquals(1, forgotten.get());
        assertEquals("the connection failed: java.io.IOException: broken pipe", client.closedBecause());
    }
}
