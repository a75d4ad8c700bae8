package io.troupe.server.tenant;

import java.util.concurrent.atomic.LongAdder;

/**
 * A tenant's traffic counters: requests received (REQUEST and SEND frames routed), bytes of frames
 * received and ERROR frames sent, all since the tenant was added, the request rate over the last
 * completed window, and the output its clients have not taken yet ({@link PendingOutput}).
 *
 * <pre>
 *   IO loops, reply threads ──countRequest / countError (LongAdder, no lock)──► totals
 *   sampler thread ──sample(now) every window──► ratePerSecond = Δrequests / Δtime of the last window
 * </pre>
 *
 * <p><b>Threading:</b> {@link #countRequest}, {@link #countBytes} and {@link #countError} from any thread, lock-free;
 * {@link #sample} from one periodic thread at a time (never an IO loop); the getters from any thread.
 */
public final class TenantMetrics {

    private static final double SECOND_NANOS = 1_000_000_000.0;

    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final PendingOutput pendingOutput;
    /** Guarded by {@code this}: the previous sample. */
    private long sampledRequests;
    private long sampledAtNanos;
    private volatile double ratePerSecond;

    /** @param nowNanos the time the counting starts, on the sampler's clock */
    TenantMetrics(long nowNanos) {
        this.sampledAtNanos = nowNanos;
        this.pendingOutput = new PendingOutput(nowNanos);
    }

    /** The bytes of replies written for the tenant and not yet taken by its clients, over its connections. */
    public PendingOutput pendingOutput() {
        return pendingOutput;
    }

    /** One REQUEST or SEND frame received. */
    public void countRequest() {
        requests.increment();
    }

    /** One ERROR frame sent. */
    public void countError() {
        errors.increment();
    }

    /** {@code count} bytes of frames received after WELCOME. */
    public void countBytes(long count) {
        bytes.add(count);
    }

    /** Bytes of frames received since the tenant was added. */
    public long bytesReceived() {
        return bytes.sum();
    }

    /** Requests received since the tenant was added. */
    public long requests() {
        return requests.sum();
    }

    /** ERROR frames sent since the tenant was added. */
    public long errors() {
        return errors.sum();
    }

    /** Requests per second over the window that ended at the last {@link #sample}; 0 before it. */
    public double ratePerSecond() {
        return ratePerSecond;
    }

    /**
     * Ends the current window at {@code nowNanos}: the rate becomes the requests received in it per
     * second. A window of no time (clock not moved) leaves the rate as it was.
     *
     * @return the requests received in the window just ended
     */
    public synchronized long sample(long nowNanos) {
        long total = requests.sum();
        long delta = total - sampledRequests;
        long elapsed = nowNanos - sampledAtNanos;
        if (elapsed <= 0) {
            return 0;
        }
        ratePerSecond = delta * SECOND_NANOS / elapsed;
        sampledRequests = total;
        sampledAtNanos = nowNanos;
        return delta;
    }
}
