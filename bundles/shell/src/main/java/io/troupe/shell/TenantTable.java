package io.troupe.shell;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;

import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.monitor.TenantStats;

/**
 * What {@code troupe:tenants} prints: one row per tenant of the server, with what the runtime says of
 * the same tenant when it says anything ({@link TenantLoad}: its queued messages and its share of the
 * worker pool), then one line per tenant with its frame limit (the server's, lowered by the tenant's)
 * and its limits other than the defaults.
 *
 * <pre>
 * TENANT  CONNECTIONS  REQUESTS  REQ/S  ERRORS  QUEUED   WORKERS  THROTTLED                 NOW
 * acme    3/1000       1520      12.5   0       40/100   35%      bytesPerSecond 2.1 s      bytesPerSecond
 * beta    0/1000       0         0.0    0       0        0%       -                         -
 *
 * acme: maxFrameBytes=65536, maxBytesPerSecond=65536, weight=3, handlers=echo,wordcount
 * beta: maxFrameBytes=1048576
 * </pre>
 * {@code QUEUED} and {@code WORKERS} are {@code -} when the runtime reports nothing of the tenant;
 * {@code THROTTLED} lists the time each limit has held the tenant's connections back, {@code NOW} the
 * limits holding them back now.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class TenantTable {

    private final List<TenantStats> tenants;
    private final Map<String, TenantLoad> loads = new TreeMap<>();

    TenantTable(List<TenantStats> tenants, List<TenantLoad> loads) {
        this.tenants = List.copyOf(tenants);
        for (TenantLoad load : loads) {
            this.loads.put(load.tenant(), load);
        }
    }

    void print(PrintStream out) {
        if (tenants.isEmpty()) {
            out.println("(no tenant configured)");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TENANT", "CONNECTIONS", "REQUESTS", "REQ/S", "ERRORS", "QUEUED", "WORKERS",
            "THROTTLED", "NOW"});
        for (TenantStats tenant : tenants) {
            TenantLoad load = loads.get(tenant.tenant());
            rows.add(new String[] {tenant.tenant(), tenant.connections() + "/" + tenant.maxConnections(),
                String.valueOf(tenant.requests()), String.format(Locale.ROOT, "%.1f", tenant.requestsPerSecond()),
                String.valueOf(tenant.errors()), queued(load),
                load == null ? "-" : StatsReport.percent(load.workerShare()),
                throttled(tenant), tenant.throttledBy().isEmpty() ? "-" : String.join(",", tenant.throttledBy())});
        }
        Columns.print(out, rows);
        out.println();
        for (TenantStats tenant : tenants) {
            out.println(tenant.tenant() + ": " + limits(tenant));
        }
    }

    private static String queued(TenantLoad load) {
        if (load == null) {
            return "-";
        }
        return load.maxQueuedMessages() == 0 ? String.valueOf(load.queuedMessages())
                : load.queuedMessages() + "/" + load.maxQueuedMessages();
    }

    private static String throttled(TenantStats tenant) {
        StringJoiner times = new StringJoiner(", ");
        new TreeMap<>(tenant.throttledNanos()).forEach((limit, nanos) -> {
            if (nanos > 0) {
                times.add(limit + " " + String.format(Locale.ROOT, "%.1f s", nanos / 1e9));
            }
        });
        return times.length() == 0 ? "-" : times.toString();
    }

    /** The frame limit, and the limits other than the defaults, as the keys of the tenant's file. */
    private static String limits(TenantStats tenant) {
        StringJoiner limits = new StringJoiner(", ");
        limits.add("maxFrameBytes=" + tenant.maxFrameBytes());
        if (tenant.maxRequestsPerSecond() > 0) {
            limits.add("maxRequestsPerSecond=" + tenant.maxRequestsPerSecond());
        }
        if (tenant.maxBytesPerSecond() > 0) {
            limits.add("maxBytesPerSecond=" + tenant.maxBytesPerSecond());
        }
        if (tenant.maxActors() > 0) {
            limits.add("maxActors=" + tenant.maxActors());
        }
        if (tenant.maxQueuedMessages() > 0) {
            limits.add("maxQueuedMessages=" + tenant.maxQueuedMessages());
        }
        if (tenant.weight() != 1) {
            limits.add("weight=" + tenant.weight());
        }
        if (!tenant.handlers().isEmpty()) {
            limits.add("handlers=" + String.join(",", new TreeSet<>(tenant.handlers())));
        }
        return limits.toString();
    }
}
