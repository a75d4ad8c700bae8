package io.troupe.ops.console;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonGenerator;

import io.troupe.api.monitor.RequestLatency;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.monitor.TenantStats;

/**
 * {@code GET /console/api/tenants}: each tenant as the message server counts it ({@link TenantStats}) and as
 * the runtime schedules it ({@link TenantLoad}), by id.
 *
 * <pre>
 * {"server": true,
 *  "tenants": [{"tenant", "configured", "connections", "maxConnections", "requests", "requestsPerSecond",
 *               "serverRequestsPerSecond", "maxRequestsPerSecond", "errors", "errorsByCode": {"no.handler": 2},
 *               "throttledSeconds": {"requestsPerSecond": 0.5}, "throttledBy": [..],
 *               "p50Seconds", "p99Seconds", "latencyWindowSeconds",
 *               "actors", "maxActors", "queuedMessages", "workerShare"}]}
 * </pre>
 *
 * {@code server} is false when the message server does not run (then only the runtime's tenants are listed,
 * {@code configured} false, and the server's figures 0). {@code requestsPerSecond} is the rate over the last
 * {@value TenantWindows#WINDOW_SECONDS} s of the console's samples (null for a tenant sampled only once so far),
 * {@code serverRequestsPerSecond} the server's own over its last complete 10 s window; the percentiles cover the
 * requests answered in the last {@value TenantWindows#WINDOW_SECONDS} s, null when there were none. A tenant
 * the runtime knows but the server does not (actors of a removed tenant still stopping, or spawned without a
 * session) has {@code configured} false.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class TenantsDocument implements JsonDocument {

    private static final double NANOS_PER_SECOND = 1_000_000_000.0;

    private final boolean server;
    private final List<TenantStats> stats;
    private final List<TenantLoad> loads;
    private final TenantWindows windows;

    /**
     * @param server        whether the message server runs
     * @param stats         its tenants
     * @param loads         the runtime's tenants
     * @param windows       the tenants' recent requests
     */
    TenantsDocument(boolean server, List<TenantStats> stats, List<TenantLoad> loads, TenantWindows windows) {
        this.server = server;
        this.stats = List.copyOf(stats);
        this.loads = List.copyOf(loads);
        this.windows = windows;
    }

    @Override
    public void write(JsonGenerator json) throws IOException {
        Map<String, TenantStats> byStats = new TreeMap<>();
        stats.forEach(tenant -> byStats.put(tenant.tenant(), tenant));
        Map<String, TenantLoad> byLoad = new TreeMap<>();
        loads.forEach(load -> byLoad.put(load.tenant(), load));
        TreeMap<String, Boolean> ids = new TreeMap<>();
        byStats.keySet().forEach(id -> ids.put(id, true));
        byLoad.keySet().forEach(id -> ids.putIfAbsent(id, false));
        json.writeStartObject();
        json.writeBooleanField("server", server);
        json.writeArrayFieldStart("tenants");
        for (String id : ids.keySet()) {
            if (id.isEmpty()) {
                continue; // the system actors' "tenant"
            }
            writeTenant(json, id, byStats.get(id), byLoad.get(id));
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private void writeTenant(JsonGenerator json, String id, TenantStats tenant, TenantLoad load) throws IOException {
        json.writeStartObject();
        json.writeStringField("tenant", id);
        json.writeBooleanField("configured", tenant != null);
        json.writeNumberField("connections", tenant == null ? 0 : tenant.connections());
        json.writeNumberField("maxConnections", tenant == null ? 0 : tenant.maxConnections());
        json.writeNumberField("requests", tenant == null ? 0 : tenant.requests());
        JsonDocument.number(json, "requestsPerSecond", tenant == null ? 0 : windows.recentRate(id));
        JsonDocument.number(json, "serverRequestsPerSecond", tenant == null ? 0 : tenant.requestsPerSecond());
        json.writeNumberField("maxRequestsPerSecond", tenant == null ? 0 : tenant.maxRequestsPerSecond());
        json.writeNumberField("errors", tenant == null ? 0 : tenant.errors());
        json.writeObjectFieldStart("errorsByCode");
        if (tenant != null) {
            for (Map.Entry<String, Long> code : tenant.errorsByCode().entrySet()) {
                json.writeNumberField(code.getKey(), code.getValue());
            }
        }
        json.writeEndObject();
        json.writeObjectFieldStart("throttledSeconds");
        if (tenant != null) {
            for (Map.Entry<String, Long> limit : new TreeMap<>(tenant.throttledNanos()).entrySet()) {
                json.writeNumberField(limit.getKey(), limit.getValue() / NANOS_PER_SECOND);
            }
        }
        json.writeEndObject();
        json.writeArrayFieldStart("throttledBy");
        if (tenant != null) {
            for (String limit : new java.util.TreeSet<>(tenant.throttledBy())) {
                json.writeString(limit);
            }
        }
        json.writeEndArray();
        RequestLatency recent = tenant == null ? RequestLatency.none() : windows.recent(id);
        JsonDocument.number(json, "p50Seconds", recent.quantileSeconds(0.5));
        JsonDocument.number(json, "p99Seconds", recent.quantileSeconds(0.99));
        json.writeNumberField("latencyWindowSeconds", TenantWindows.WINDOW_SECONDS);
        json.writeNumberField("actors", load == null ? 0 : load.actors());
        json.writeNumberField("maxActors", load == null ? 0 : load.maxActors());
        json.writeNumberField("queuedMessages", load == null ? 0 : load.queuedMessages());
        JsonDocument.number(json, "workerShare", load == null ? 0 : load.workerShare());
        json.writeEndObject();
    }
}
