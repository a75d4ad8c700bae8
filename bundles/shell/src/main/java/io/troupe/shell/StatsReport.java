package io.troupe.shell;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.PoolStats;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.TenantStats;
import io.troupe.api.monitor.ThreadStats;
import io.troupe.api.monitor.WorkerPoolStats;

/**
 * A {@link RuntimeSnapshot} as the {@code stats} command prints it: a summary (with the state store's
 * line when a store runs), the handlers, the
 * actor pools of poolable handlers (when there are any), the server's tenants (when it runs), and
 * with {@code --threads} one row per worker and loop.
 *
 * <pre>
 * workers       3 (min 2, max 8)  busy 41%  in turns 2  stalled 1  queued 0
 * loops         5  busy 3%
 * actors        14  mailbox backlog 3
 * dead letters  4
 * log drops     0
 * stalls        1
 * store         812.4 writes/s  48210 writes (3.0 MiB)  9120 syncs  write p99 1.8 ms  42 stored (2.1 KiB)
 *
 * HANDLER  ACTORS  QUEUED  PROCESSED  FAILURES
 * echo     2       0       120        0
 *
 * POOL       TENANT  SIZE  MIN  MAX  QUEUED  STALLED
 * thumbnail  demo    3     1    8    12      1
 *
 * TENANT  CONNECTIONS  REQUESTS  REQ/S   ERRORS
 * demo    12/1000      48210     812.4   3
 *
 * THREAD           BUSY  CURRENT
 * troupe-worker-1  80%   2503 ms STALLED
 * troupe-io-1      2%    -
 * </pre>
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class StatsReport {

    private final RuntimeSnapshot snapshot;
    private final List<TenantStats> tenants;
    /** The state store's line ({@link StoreStatsLine}), or null without a store. */
    private final String storeLine;

    StatsReport(RuntimeSnapshot snapshot, List<TenantStats> tenants) {
        this(snapshot, tenants, null);
    }

    StatsReport(RuntimeSnapshot snapshot, List<TenantStats> tenants, String storeLine) {
        this.snapshot = snapshot;
        this.tenants = List.copyOf(tenants);
        this.storeLine = storeLine;
    }

    void print(PrintStream out, boolean threads) {
        WorkerPoolStats workers = snapshot.workers();
        out.println("workers       " + workers.current() + " (min " + workers.min() + ", max " + workers.max()
                + ")  busy " + percent(workers.busyRatio()) + "  in turns " + workers.busy() + "  stalled "
                + workers.stalled() + "  queued " + workers.queued());
        out.println("loops         " + snapshot.loops().size() + "  busy " + percent(snapshot.loopsBusyRatio()));
        out.println("actors        " + snapshot.actors() + "  mailbox backlog " + snapshot.mailboxBacklog());
        out.println("dead letters  " + snapshot.deadLetters());
        out.println("log drops     " + snapshot.logRecordsDropped());
        out.println("stalls        " + snapshot.stalls());
        if (storeLine != null) {
            out.println(storeLine);
        }
        if (!snapshot.handlers().isEmpty()) {
            out.println();
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"HANDLER", "ACTORS", "QUEUED", "PROCESSED", "FAILURES"});
            for (HandlerStats handler : snapshot.handlers()) {
                rows.add(new String[] {handler.name(), String.valueOf(handler.actors()),
                    String.valueOf(handler.mailboxDepth()), String.valueOf(handler.processed()),
                    String.valueOf(handler.failures())});
            }
            printColumns(out, rows);
        }
        if (!snapshot.pools().isEmpty()) {
            out.println();
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"POOL", "TENANT", "SIZE", "MIN", "MAX", "QUEUED", "STALLED"});
            for (PoolStats pool : snapshot.pools()) {
                rows.add(new String[] {pool.handler(), pool.tenant(), String.valueOf(pool.size()),
                    String.valueOf(pool.min()), String.valueOf(pool.max()), String.valueOf(pool.mailboxDepth()),
                    String.valueOf(pool.stalled())});
            }
            printColumns(out, rows);
        }
        if (!tenants.isEmpty()) {
            out.println();
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"TENANT", "CONNECTIONS", "REQUESTS", "REQ/S", "ERRORS"});
            for (TenantStats tenant : tenants) {
                rows.add(new String[] {tenant.tenant(), tenant.connections() + "/" + tenant.maxConnections(),
                    String.valueOf(tenant.requests()), String.format(Locale.ROOT, "%.1f", tenant.requestsPerSecond()),
                    String.valueOf(tenant.errors())});
            }
            printColumns(out, rows);
        }
        if (threads) {
            out.println();
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"THREAD", "BUSY", "CURRENT"});
            workers.threads().forEach(thread -> rows.add(row(thread)));
            snapshot.loops().forEach(thread -> rows.add(row(thread)));
            printColumns(out, rows);
        }
    }

    private static String[] row(ThreadStats thread) {
        String current = thread.busyMillis() == 0 ? "-"
                : thread.busyMillis() + " ms" + (thread.stalled() ? " STALLED" : "");
        return new String[] {thread.name(), percent(thread.busyRatio()), current};
    }

    static String percent(double ratio) {
        return Math.round(ratio * 100) + "%";
    }

    private static void printColumns(PrintStream out, List<String[]> rows) {
        Columns.print(out, rows);
    }
}
