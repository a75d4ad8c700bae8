package io.troupe.server.session;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A REQUEST handed to a handler and not yet answered. Whoever {@linkplain #claim() claims} it first
 * sends the one answer: the ask's completion (REPLY or ERROR), or the shutdown that gives up waiting
 * (ERROR {@code server.shutdown}).
 *
 * <p><b>Threading:</b> any thread; the claim is atomic.
 */
final class PendingRequest {

    private final long corrId;
    private final String name;
    private final AtomicBoolean answered = new AtomicBoolean();

    PendingRequest(long corrId, String name) {
        this.corrId = corrId;
        this.name = name;
    }

    long corrId() {
        return corrId;
    }

    String name() {
        return name;
    }

    /** Returns true exactly once: the caller then sends the answer. */
    boolean claim() {
        return !answered.get() && answered.compareAndSet(false, true);
    }

    @Override
    public String toString() {
        return "PendingRequest[" + name + " corrId=" + Long.toUnsignedString(corrId) + "]";
    }
}
