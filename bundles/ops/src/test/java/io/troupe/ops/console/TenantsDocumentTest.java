package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.troupe.api.monitor.RequestLatency;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.monitor.TenantStats;

/**
 * The tenants view from real {@link TenantStats} and {@link TenantLoad} records, with the p99 of the last
 * seconds computed by {@link TenantWindows} from the server's cumulative histograms.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class TenantsDocumentTest {

    /** Bounds of 1, 2, 5 and 10 ms. */
    private static final List<Long> BOUNDS = List.of(1_000_000L, 2_000_000L, 5_000_000L, 10_000_000L);

    private static RequestLatency latency(long... counts) {
        List<Long> list = new ArrayList<>();
        long sum = 0;
        for (int i = 0; i < counts.length; i++) {
            list.add(counts[i]);
            sum += counts[i] * (i < BOUNDS.size() ? BOUNDS.get(i) : 20_000_000L);
        }
        return new RequestLatency(BOUNDS, list, sum);
    }

    private static TenantStats tenant(String id, long requests, RequestLatency latency) {
        return new TenantStats(id, 2, 10, requests, 12.5, 3, 100, 2048,
                Map.of(TenantStats.REQUESTS_PER_SECOND, 1_500_000_000L), Set.of(TenantStats.REQUESTS_PER_SECOND),
                0, 65536, 1, 0, 0, Set.of(), Map.of("no.handler", 2L, "other", 1L), latency);
    }

    private static final long SECOND = 1_000_000_000L;
    private long nanos;

    @Test
    void eachTenantJoinsTheServersFiguresWithTheRuntimesAndTheRecentP99() {
        TenantWindows windows = new TenantWindows();
        windows.sample(List.of(tenant("acme", 0, latency(0, 0, 0, 0, 0))), nanos += SECOND);
        windows.sample(List.of(tenant("acme", 100, latency(90, 5, 3, 2, 0))), nanos += SECOND);
        List<TenantLoad> loads = List.of(new TenantLoad("acme", 1, 4, 0, 7, 0, 50, 1_000_000, 0.25),
                new TenantLoad("leftover", 1, 1, 0, 0, 0, 1, 10, 0.0), new TenantLoad("", 1, 3, 0, 0, 0, 0, 0, 0));

        JsonNode view = JsonTrees.read(new TenantsDocument(true, List.of(tenant("acme", 100,
                latency(90, 5, 3, 2, 0))), loads, windows));

        assertTrue(view.get("server").asBoolean());
        assertEquals(2, view.get("tenants").size(), "the system actors' empty tenant is left out");
        JsonNode acme = view.at("/tenants/0");
        assertEquals("acme", acme.get("tenant").asText());
        assertTrue(acme.get("configured").asBoolean());
        assertEquals(2, acme.get("connections").asInt());
        assertEquals(100, acme.get("requests").asLong());
        assertEquals(100.0, acme.get("requestsPerSecond").asDouble(), "100 requests between two samples 1 s apart");
        assertEquals(12.5, acme.get("serverRequestsPerSecond").asDouble());
        assertEquals(3, acme.get("errors").asLong());
        assertEquals(2, acme.at("/errorsByCode/no.handler").asLong());
        assertEquals(1.5, acme.at("/throttledSeconds/requestsPerSecond").asDouble());
        assertEquals("requestsPerSecond", acme.at("/throttledBy/0").asText());
        // rank 99 of 100 falls in the (5 ms, 10 ms] bucket, which holds ranks 99 and 100: half way in it
        assertEquals(0.0075, acme.get("p99Seconds").asDouble(), 1e-9);
        assertEquals(4, acme.get("actors").asInt());
        assertEquals(7, acme.get("queuedMessages").asLong());
        assertEquals(0.25, acme.get("workerShare").asDouble());
        JsonNode leftover = view.at("/tenants/1");
        assertEquals("leftover", leftover.get("tenant").asText());
        assertFalse(leftover.get("configured").asBoolean());
        assertTrue(leftover.get("p99Seconds").isNull());
    }

    @Test
    void aTenantWithoutRequestsInTheWindowHasNoP99AndWithoutTheServerOnlyTheRuntimesTenantsShow() {
        TenantWindows windows = new TenantWindows();
        windows.sample(List.of(tenant("acme", 100, latency(90, 5, 3, 2, 0))), nanos += SECOND);
        windows.sample(List.of(tenant("acme", 100, latency(90, 5, 3, 2, 0))), nanos += SECOND);

        JsonNode quiet = JsonTrees.read(new TenantsDocument(true, List.of(tenant("acme", 100,
                latency(90, 5, 3, 2, 0))), List.of(), windows));
        JsonNode serverless = JsonTrees.read(new TenantsDocument(false, List.of(),
                List.of(new TenantLoad("solo", 1, 1, 0, 0, 0, 1, 10, 0.0)), windows));

        assertTrue(quiet.at("/tenants/0/p99Seconds").isNull());
        assertEquals(0.0, quiet.at("/tenants/0/requestsPerSecond").asDouble());
        assertFalse(serverless.get("server").asBoolean());
        assertEquals("solo", serverless.at("/tenants/0/tenant").asText());
        assertEquals(0, serverless.at("/tenants/0/connections").asInt());
    }

    @Test
    void theLastSecondAddsEveryTenantsRequestsAndTheWindowForgetsRemovedTenants() {
        TenantWindows windows = new TenantWindows();
        windows.sample(List.of(tenant("a", 0, latency(0, 0, 0, 0, 0)), tenant("b", 0, latency(0, 0, 0, 0, 0))),
                nanos += SECOND);
        windows.sample(List.of(tenant("a", 10, latency(10, 0, 0, 0, 0)), tenant("b", 5, latency(0, 0, 0, 5, 0))),
                nanos += SECOND);

        assertEquals(15, windows.lastSecond().count());
        assertEquals(10, windows.recent("a").count());
        assertEquals(10.0, windows.recentRate("a"));
        assertTrue(Double.isNaN(windows.recentRate("c")), "a tenant never sampled has no rate");

        windows.sample(List.of(tenant("a", 10, latency(10, 0, 0, 0, 0))), nanos += SECOND);

        assertEquals(0, windows.recent("b").count());
        assertEquals(0, windows.lastSecond().count());
    }
}
