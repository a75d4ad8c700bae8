package io.troupe.shell;

import java.io.PrintStream;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.troupe.api.cluster.ClusterMember;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.cluster.Migration;

/**
 * What {@code troupe:cluster} prints, from a {@link ClusterView}: the members (this one starred) with
 * their addresses, sessions, requests/s and the tenants each serves; the configured members missing from
 * the cluster; the migrations in progress and the last ones, with their pauses. {@code troupe:stats}
 * prints the member table alone ({@link #printMembers}).
 *
 * <pre>
 * cluster shop: 3 members; this node 5f0c2a7e
 * NODE       CLUSTER ADDRESS  CLIENT ADDRESS  SESSIONS  REQ/S  TENANTS
 * 5f0c2a7e*  10.0.0.1:5701    10.0.0.1:7878   12        840.5  acme, globex
 * missing: 10.0.0.4:5701 (configured, not in the cluster: down, unreachable, or another secret)
 * MIGRATION  FROM      TO        CAUSE  STARTED               PAUSE
 * acme       9a1b2c3d  5f0c2a7e  JOIN   2026-12-02T08:10:03Z  41 ms
 * </pre>
 *
 * Member ids are shortened to their first 8 characters.
 *
 * <p><b>Threading:</b> immutable once built; any thread.
 */
final class ClusterReport {

    static final int SHORT_ID = 8;

    private final ClusterView view;

    ClusterReport(ClusterView view) {
        this.view = view;
    }

    void print(PrintStream out) {
        List<ClusterMember> members = view.members();
        out.println("cluster " + view.clusterName() + ": " + members.size() + " member" + (members.size() == 1 ? "" : "s")
                + "; this node " + shortId(view.localNode()));
        printMembers(out, members);
        List<String> missing = view.missingMembers();
        if (!missing.isEmpty()) {
            out.println("missing: " + String.join(", ", missing)
                    + " (configured, not in the cluster: down, unreachable, or another secret)");
        }
        List<Migration> migrations = view.migrations();
        if (migrations.isEmpty()) {
            out.println("no migrations yet");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"MIGRATION", "FROM", "TO", "CAUSE", "STARTED", "PAUSE"});
        for (Migration migration : migrations) {
            rows.add(new String[] {migration.tenant(), orDash(shortId(migration.from())),
                orDash(shortId(migration.to())), migration.cause().name(),
                migration.started().truncatedTo(ChronoUnit.SECONDS).toString(),
                migration.done() ? migration.pause().toMillis() + " ms" : "in progress"});
        }
        Columns.print(out, rows);
    }

    /** The member table. */
    static void printMembers(PrintStream out, List<ClusterMember> members) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"NODE", "CLUSTER ADDRESS", "CLIENT ADDRESS", "SESSIONS", "REQ/S", "TENANTS"});
        for (ClusterMember member : members) {
            rows.add(new String[] {shortId(member.node()) + (member.local() ? "*" : ""), member.clusterAddress(),
                orDash(member.clientAddress()), member.sessions() < 0 ? "-" : Integer.toString(member.sessions()),
                member.requestsPerSecond() < 0 ? "-" : String.format(Locale.ROOT, "%.1f", member.requestsPerSecond()),
                member.tenants().isEmpty() ? "-" : String.join(", ", member.tenants())});
        }
        Columns.print(out, rows);
    }

    static String shortId(String node) {
        return node.length() <= SHORT_ID ? node : node.substring(0, SHORT_ID);
    }

    private static String orDash(String text) {
        return text.isEmpty() ? "-" : text;
    }
}
