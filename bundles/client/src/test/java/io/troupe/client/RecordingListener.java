package io.troupe.client;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** A {@link ConnectionListener} that queues its calls for the test thread, and notes their thread. */
final class RecordingListener implements ConnectionListener {

    enum Kind { CONNECTED, DISCONNECTED, RECONNECTING, REDIRECTED }

    record Event(Kind kind, String sessionId, int attempt, Duration delay, Throwable cause, String thread, long nanos,
                 String from, String to) {
    }

    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    @Override
    public void connected(String sessionId) {
        add(new Event(Kind.CONNECTED, sessionId, 0, null, null, thread(), System.nanoTime(), null, null));
    }

    @Override
    public void disconnected(Throwable cause) {
        add(new Event(Kind.DISCONNECTED, null, 0, null, cause, thread(), System.nanoTime(), null, null));
    }

    @Override
    public void reconnecting(int attempt, Duration delay, Throwable cause) {
        add(new Event(Kind.RECONNECTING, null, attempt, delay, cause, thread(), System.nanoTime(), null, null));
    }

    @Override
    public void redirected(String from, String to, Duration delay) {
        add(new Event(Kind.REDIRECTED, null, 0, delay, null, thread(), System.nanoTime(), from, to));
    }

    /** The next event, which must be of {@code kind}; waits up to 10 s. */
    Event next(Kind kind) throws InterruptedException {
        Event event = TestServer.poll(events, kind + " event");
        if (event.kind() != kind) {
            throw new AssertionError("expected " + kind + ", got " + event);
        }
        return event;
    }

    private void add(Event event) {
        events.add(event);
    }

    private static String thread() {
        return Thread.currentThread().getName();
    }
}
