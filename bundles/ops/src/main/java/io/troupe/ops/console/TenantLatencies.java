package io.troupe.ops.console;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.troupe.api.monitor.RequestLatency;
import io.troupe.api.monitor.TenantStats;

/**
 * The recent request latencies of each tenant, from the cumulative histograms the server keeps
 * ({@link TenantStats#latency()}): the readings of the last {@value #WINDOW_SECONDS} samples are kept, and
 * the latencies of a window are the last reading {@linkplain RequestLatency#since since} the first. The
 * console's tenants view shows the p99 of the last {@value #WINDOW_SECONDS} s; its chart the p99 of the
 * last second over all tenants.
 *
 * <p><b>Threading:</b> {@link #sample} by the console's sampler thread only; {@link #recent} and
 * {@link #lastSecond} from any thread (they synchronise on this object with {@link #sample}).
 */
final class TenantLatencies {

    /** The samples (seconds) the tenants' p99 covers. */
    static final int WINDOW_SECONDS = 10;

    private final Map<String, ArrayDeque<RequestLatency>> readings = new HashMap<>();
    private RequestLatency lastSecond = RequestLatency.none();

    /** Takes in one reading of every tenant; tenants that are gone are forgotten. */
    synchronized void sample(List<TenantStats> tenants) {
        Set<String> present = tenants.stream().map(TenantStats::tenant).collect(Collectors.toSet());
        readings.keySet().retainAll(present);
        RequestLatency second = null;
        for (TenantStats tenant : tenants) {
            ArrayDeque<RequestLatency> kept = readings.computeIfAbsent(tenant.tenant(), id -> new ArrayDeque<>());
            RequestLatency previous = kept.peekLast();
            kept.addLast(tenant.latency());
            while (kept.size() > WINDOW_SECONDS + 1) {
                kept.removeFirst();
            }
            if (previous != null) {
                RequestLatency delta = difference(tenant.latency(), previous);
                second = second == null ? delta : sum(second, delta);
            }
        }
        lastSecond = second == null ? RequestLatency.none() : second;
    }

    /** The latencies of {@code tenant}'s requests over the window, or none counted. */
    synchronized RequestLatency recent(String tenant) {
        ArrayDeque<RequestLatency> kept = readings.get(tenant);
        if (kept == null || kept.size() < 2) {
            return RequestLatency.none();
        }
        return difference(kept.peekLast(), kept.peekFirst());
    }

    /** The latencies of every tenant's requests between the last two samples. */
    synchronized RequestLatency lastSecond() {
        return lastSecond;
    }

    /**
     * {@code later} since {@code earlier}; when they cannot be compared (other bounds, or a tenant removed and
     * added again, which restarts its counts), {@code later} alone is the best there is.
     */
    private static RequestLatency difference(RequestLatency later, RequestLatency earlier) {
        try {
            return later.since(earlier);
        } catch (IllegalArgumentException e) {
            return later;
        }
    }

    /** Two histograms added bucket by bucket; when their bounds differ, the one with more requests. */
    static RequestLatency sum(RequestLatency a, RequestLatency b) {
        if (a.count() == 0) {
            return b;
        }
        if (b.count() == 0) {
            return a;
        }
        if (!a.boundsNanos().equals(b.boundsNanos())) {
            return a.count() >= b.count() ? a : b;
        }
        Long[] counts = new Long[a.counts().size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = a.counts().get(i) + b.counts().get(i);
        }
        return new RequestLatency(a.boundsNanos(), List.of(counts), a.sumNanos() + b.sumNanos());
    }
}
