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
 * Each tenant's recent requests, from the cumulative figures the server keeps ({@link TenantStats#requests()}
 * and the histogram {@link TenantStats#latency()}): the readings of the last {@value #WINDOW_SECONDS} samples
 * (one a second) are kept, and a window's figures are its last reading less its first
 * ({@link RequestLatency#since}). The console's tenants view shows the request rate and the p99 of the last
 * {@value #WINDOW_SECONDS} s, so that a change shows within a second or two (the server's own rate covers
 * complete 10 s windows); its chart the p99 of the last second over all tenants.
 *
 * <p><b>Threading:</b> {@link #sample} by the console's sampler thread only; {@link #recent} and
 * {@link #lastSecond} from any thread (they synchronise on this object with {@link #sample}).
 */
final class TenantWindows {

    /** The samples (seconds) the tenants' rate and p99 cover. */
    static final int WINDOW_SECONDS = 10;
    private static final double NANOS_PER_SECOND = 1_000_000_000.0;

    /** One sample of one tenant. */
    private record Reading(long nanos, long requests, RequestLatency latency) {
    }

    private final Map<String, ArrayDeque<Reading>> readings = new HashMap<>();
    private RequestLatency lastSecond = RequestLatency.none();

    /** Takes in one reading of every tenant, taken at {@code nanos}; tenants that are gone are forgotten. */
    synchronized void sample(List<TenantStats> tenants, long nanos) {
        Set<String> present = tenants.stream().map(TenantStats::tenant).collect(Collectors.toSet());
        readings.keySet().retainAll(present);
        RequestLatency second = null;
        for (TenantStats tenant : tenants) {
            ArrayDeque<Reading> kept = readings.computeIfAbsent(tenant.tenant(), id -> new ArrayDeque<>());
            Reading previous = kept.peekLast();
            kept.addLast(new Reading(nanos, tenant.requests(), tenant.latency()));
            while (kept.size() > WINDOW_SECONDS + 1) {
                kept.removeFirst();
            }
            if (previous != null) {
                RequestLatency delta = difference(tenant.latency(), previous.latency());
                second = second == null ? delta : sum(second, delta);
            }
        }
        lastSecond = second == null ? RequestLatency.none() : second;
    }

    /** The latencies of {@code tenant}'s requests over the window, or none counted. */
    synchronized RequestLatency recent(String tenant) {
        ArrayDeque<Reading> kept = readings.get(tenant);
        if (kept == null || kept.size() < 2) {
            return RequestLatency.none();
        }
        return difference(kept.peekLast().latency(), kept.peekFirst().latency());
    }

    /**
     * The requests per second {@code tenant} sent over the window; NaN before two samples (a tenant just
     * added). A count that went back (the tenant was removed and added again) counts from 0.
     */
    synchronized double recentRate(String tenant) {
        ArrayDeque<Reading> kept = readings.get(tenant);
        if (kept == null || kept.size() < 2 || kept.peekLast().nanos() <= kept.peekFirst().nanos()) {
            return Double.NaN;
        }
        Reading first = kept.peekFirst();
        Reading last = kept.peekLast();
        long requests = last.requests() >= first.requests() ? last.requests() - first.requests() : last.requests();
        return requests / ((last.nanos() - first.nanos()) / NANOS_PER_SECOND);
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
