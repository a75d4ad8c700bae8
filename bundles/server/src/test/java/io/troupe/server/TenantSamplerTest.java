package io.troupe.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.troupe.api.monitor.RequestLatency;
import io.troupe.api.monitor.TenantStats;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantConfig;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.TestTokens;
import io.troupe.server.tenant.ThrottleLimit;

/**
 * The sampler's rate windows and the {@link ServerStatistics} it serves, on a clock the test moves.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class TenantSamplerTest {

    private static final long SECOND = 1_000_000_000L;
    private static final int SERVER_FRAME_LIMIT = 1 << 20;

    private final AtomicLong now = new AtomicLong();
    private final TenantDirectory directory = new TenantDirectory(null, now::get);
    private final TenantSampler sampler = new TenantSampler(directory, now::get, () -> SERVER_FRAME_LIMIT);

    @Test
    void theServerStatsServiceGivesEachTenantsFiguresAndLimits() throws Exception {
        zetaServedAWindowBesideAnIdleAlpha();

        List<TenantStats> stats = sampler.statistics().tenants();
        assertEquals(new TenantStats("alpha", 0, 1000, 0, 0.0, 0, 0, 0,
                Map.of("bytesPerSecond", 0L, "requestsPerSecond", 0L, "queuedMessages", 0L, "pendingOutput", 0L),
                Set.of(), 0,
                SERVER_FRAME_LIMIT, 1, 0, 0, Set.of(), Map.of(), stats.get(0).latency()), stats.get(0), "the defaults");
        assertEquals(0, stats.get(0).latency().count());
        assertEquals(new TenantStats("zeta", 0, 4, 25, 2.5, 1, 100, 2048,
                Map.of("bytesPerSecond", 0L, "requestsPerSecond", 3 * SECOND, "queuedMessages", 0L, "pendingOutput",
                        0L), Set.of(), 5000,
                4096, 7, 10, 50, Set.of("echo", "wordcount"), Map.of("no.handler", 1L), stats.get(1).latency()),
                stats.get(1));
        RequestLatency latency = stats.get(1).latency();
        assertEquals(1, latency.count());
        assertEquals(3_000_000L, latency.sumNanos());
        assertTrue(latency.quantileSeconds(0.5) > 0.002 && latency.quantileSeconds(0.5) <= 0.005,
                "in the bucket (2 ms, 5 ms]: " + latency.quantileSeconds(0.5));
        assertEquals(latency.boundsNanos(), stats.get(0).latency().boundsNanos(), "every tenant has the same buckets");
    }

    @Test
    void aThrottledTenantIsListedAsThrottledWhileItLasts() throws Exception {
        zetaServedAWindowBesideAnIdleAlpha();
        sampler.watchThrottling(); // the request rate's episode of the window starts...
        now.addAndGet(SECOND);
        sampler.watchThrottling(); // ...and ends after a quiet second
        assertEquals(Set.of(), sampler.statistics().tenants().get(1).throttledBy());
        Tenant zeta = directory.find("zeta").orElseThrow();
        zeta.throttling().limit(ThrottleLimit.BYTES_PER_SECOND).begin(now.get());
        now.addAndGet(SECOND / 2);

        TenantStats held = sampler.statistics().tenants().get(1);
        assertEquals(Set.of("bytesPerSecond"), held.throttledBy());
        assertEquals(SECOND / 2, held.throttledNanos("bytesPerSecond"));
        zeta.throttling().limit(ThrottleLimit.BYTES_PER_SECOND).end(now.get());
        sampler.watchThrottling();
        assertEquals(Set.of("bytesPerSecond"), sampler.statistics().tenants().get(1).throttledBy(),
                "the episode lasts until the limit has been quiet for a second");
        now.addAndGet(SECOND);
        sampler.watchThrottling();
        assertEquals(Set.of(), sampler.statistics().tenants().get(1).throttledBy());
    }

    @Test
    void theSummaryLineNamesEveryFigure() throws Exception {
        zetaServedAWindowBesideAnIdleAlpha();
        assertEquals("zeta connections 0/4 requests 25 req/s 2.5 errors 1 bytes 2048 rate limit 100/s",
                TenantSampler.summary(sampler.statistics().tenants().get(1)));
    }

    /**
     * Zeta (limits of every kind) got 25 requests, 2 KiB and one error in a 10 s window, and was throttled by
     * its request rate for 3 s; alpha has the defaults.
     */
    private void zetaServedAWindowBesideAnIdleAlpha() throws Exception {
        directory.serve(TenantConfig.from(null, Map.ofEntries(Map.entry("tenant", "zeta"),
                Map.entry("tokenHash", TestTokens.HASH),
                Map.entry("maxConnections", "4"), Map.entry("maxRequestsPerSecond", "100"),
                Map.entry("maxBytesPerSecond", "5000"), Map.entry("maxFrameBytes", "4096"), Map.entry("weight", "7"),
                Map.entry("maxActors", "10"), Map.entry("maxQueuedMessages", "50"),
                Map.entry("handlers", "wordcount, echo"))));
        directory.serve(TenantConfig.from(null, Map.of("tenant", "alpha", "tokenHash", TestTokens.HASH)));
        Tenant zeta = directory.find("zeta").orElseThrow();
        for (int i = 0; i < 25; i++) {
            zeta.metrics().countRequest();
        }
        zeta.metrics().countBytes(2048);
        zeta.metrics().countError("no.handler");
        zeta.metrics().latency().record(3_000_000L);
        zeta.throttling().limit(ThrottleLimit.REQUESTS_PER_SECOND).begin(now.get());
        now.addAndGet(3 * SECOND);
        zeta.throttling().limit(ThrottleLimit.REQUESTS_PER_SECOND).end(now.get());
        now.addAndGet(7 * SECOND);
        sampler.sample();
        assertTrue(sampler.statistics().tenants().get(1).throttledBy().isEmpty());
    }
}
