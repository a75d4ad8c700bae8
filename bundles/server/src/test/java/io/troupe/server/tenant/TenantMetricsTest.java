package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class TenantMetricsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void countsRequestsAndErrors() {
        TenantMetrics metrics = new TenantMetrics(0);
        metrics.countRequest();
        metrics.countRequest();
        metrics.countError();
        assertEquals(2, metrics.requests());
        assertEquals(1, metrics.errors());
    }

    @Test
    void theRateIsThatOfTheLastCompletedWindow() {
        TenantMetrics metrics = new TenantMetrics(5 * SECOND);
        for (int i = 0; i < 50; i++) {
            metrics.countRequest();
        }
        assertEquals(0.0, metrics.ratePerSecond());
        assertEquals(50, metrics.sample(15 * SECOND));
        assertEquals(5.0, metrics.ratePerSecond(), 1e-9);
        for (int i = 0; i < 10; i++) {
            metrics.countRequest();
        }
        assertEquals(5.0, metrics.ratePerSecond(), 1e-9, "unchanged until the window ends");
        assertEquals(10, metrics.sample(20 * SECOND));
        assertEquals(2.0, metrics.ratePerSecond(), 1e-9);
        assertEquals(0, metrics.sample(30 * SECOND));
        assertEquals(0.0, metrics.ratePerSecond());
        assertEquals(60, metrics.requests());
    }

    @Test
    void aWindowOfNoTimeChangesNothing() {
        TenantMetrics metrics = new TenantMetrics(0);
        metrics.countRequest();
        metrics.sample(SECOND);
        metrics.countRequest();
        assertEquals(0, metrics.sample(SECOND));
        assertEquals(1.0, metrics.ratePerSecond(), 1e-9);
        assertEquals(1, metrics.sample(2 * SECOND));
    }

    @Test
    void theCountersSurviveAConfigurationChange() throws Exception {
        AtomicLong now = new AtomicLong();
        Tenant tenant = new Tenant(TenantConfig.from(null, Map.of("tenant", "t", "tokenHash", TestTokens.HASH)),
                now::get);
        TenantMetrics metrics = tenant.metrics();
        metrics.countRequest();
        tenant.update(TenantConfig.from(null, Map.of("tenant", "t", "tokenHash", TestTokens.HASH,
                "maxRequestsPerSecond", "5")));
        assertSame(metrics, tenant.metrics());
        assertEquals(1, tenant.metrics().requests());
    }
}
