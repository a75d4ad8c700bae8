package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.troupe.api.monitor.TenantStats;

/**
 * {@link TenantMetrics}: its counts, errors by code and request rate windows.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class TenantMetricsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void countsRequestsAndErrors() {
        TenantMetrics metrics = new TenantMetrics(0);
        metrics.countRequest();
        metrics.countRequest();
        metrics.countError("no.handler");
        assertEquals(2, metrics.requests());
        assertEquals(1, metrics.errors());
    }

    @Test
    void errorsAreCountedByProtocolCodeAndHandlersOwnCodesTogether() {
        TenantMetrics metrics = new TenantMetrics(0);
        metrics.countError("no.handler");
        metrics.countError("handler.timeout");
        metrics.countError("no.handler");
        metrics.countError("orders.out_of_stock"); // a handler's own code
        metrics.countError("payments.declined");
        assertEquals(Map.of("no.handler", 2L, "handler.timeout", 1L, TenantStats.OTHER_ERRORS, 2L),
                metrics.errorsByCode());
        assertEquals(List.of("handler.timeout", "no.handler", "other"), List.copyOf(metrics.errorsByCode().keySet()),
                "sorted by code");
        assertEquals(5, metrics.errors());
        assertEquals(Map.of(), new TenantMetrics(0).errorsByCode(), "codes with none are left out");
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
