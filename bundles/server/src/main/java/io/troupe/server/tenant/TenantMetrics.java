package io.troupe.server.tenant;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

import io.troupe.api.monitor.TenantStats;
import io.troupe.protocol.ErrorCode;

/**
 * A tenant's traffic counters: requests received (REQUEST and SEND frames routed), bytes of frames
 * received, ERROR frames sent by code and the latency of answered REQUESTs ({@link LatencyHistogram}), all
 * since the tenant was added, the request rate over the last completed window, and the output its clients
 * have not taken yet ({@link PendingOutput}).
 *
 * <pre>
 *   IO loops, reply threads ──countRequest / countError(code) / latency().record──► totals
 *                             (LongAdder: striped, no lock)
 *   sampler thread ──sample(now) every window──► ratePerSecond = Δrequests / Δtime of the last window
 * </pre>
 *
 * Errors are counted by the protocol's codes ({@link ErrorCode}); the codes handlers chose themselves are
 * counted together under {@link TenantStats#OTHER_ERRORS}, so the codes stay a bounded set.
 *
 * <p><b>Threading:</b> {@link #countRequest}, {@link #countBytes}, {@link #countError} and the latency's
 * {@code record} from any thread, lock-free;
 * {@link #sample} from one periodic thread at a time (never an IO loop); the getters from any thread.
 */
public final class TenantMetrics {

    private static final double SECOND_NANOS = 1_000_000_000.0;
    private static final ErrorCode[] CODES = ErrorCode.values();

    private final LongAdder requests = new LongAdder();
    /** By {@link ErrorCode#ordinal()}, and one more for the codes outside the protocol's. */
    private final LongAdder[] errors = new LongAdder[CODES.length + 1];
    private final LatencyHistogram latency = new LatencyHistogram();
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
        for (int i = 0; i < errors.length; i++) {
            errors[i] = new LongAdder();
        }
    }

    /** The latency of the tenant's answered REQUESTs. */
    public LatencyHistogram latency() {
        return latency;
    }

    /** The bytes of replies written for the tenant and not yet taken by its clients, over its connections. */
    public PendingOutput pendingOutput() {
        return pendingOutput;
    }

    /** One REQUEST or SEND frame received. */
    public void countRequest() {
        requests.increment();
    }

    /** One ERROR frame sent, of {@code code} (the frame's name). */
    public void countError(String code) {
        errors[ErrorCode.fromCode(code).map(ErrorCode::ordinal).orElse(CODES.length)].increment();
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
        long total = 0;
        for (LongAdder count : errors) {
            total += count.sum();
        }
        return total;
    }

    /** ERROR frames sent since the tenant was added, by code; codes with none left out. */
    public Map<String, Long> errorsByCode() {
        Map<String, Long> byCode = new TreeMap<>();
        for (int i = 0; i < errors.length; i++) {
            long count = errors[i].sum();
            if (count > 0) {
                byCode.put(i < CODES.length ? CODES[i].code() : TenantStats.OTHER_ERRORS, count);
            }
        }
        return byCode;
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
