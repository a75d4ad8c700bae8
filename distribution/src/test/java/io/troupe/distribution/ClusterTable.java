package io.troupe.distribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What {@code troupe:cluster} printed on one node, parsed: the members (node id, client address, the
 * tenants each serves), the configured members missing, and the migrations with their pauses.
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
 * A node not (yet) in a cluster prints one line, which parses as {@link #inCluster()} false.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param lines      what the command printed
 * @param inCluster  whether the node reported a cluster
 * @param members    the member rows, in the order printed
 * @param missing    the configured members not in the cluster ({@code host:port})
 * @param migrations the migration rows, in the order printed
 */
record ClusterTable(List<String> lines, boolean inCluster, List<Member> members, List<String> missing,
        List<Migration> migrations) {

    /** A member row. {@code node} is the short id, {@code clientAddress} "-" when unknown. */
    record Member(String node, boolean local, String clusterAddress, String clientAddress, List<String> tenants) {
    }

    /** A migration row; {@code pauseMillis} is empty while in progress. */
    record Migration(String tenant, String from, String to, String cause, OptionalLong pauseMillis) {
    }

    static ClusterTable parse(List<String> lines) {
        List<Member> members = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<Migration> migrations = new ArrayList<>();
        boolean inCluster = false;
        String section = "";
        for (String line : lines) {
            String trimmed = line.trim();
            if (trimmed.startsWith("cluster ") && trimmed.contains(" member")) {
                inCluster = true;
                section = "";
            } else if (trimmed.startsWith("NODE ")) {
                section = "members";
            } else if (trimmed.startsWith("MIGRATION ")) {
                section = "migrations";
            } else if (trimmed.startsWith("missing: ")) {
                String list = trimmed.substring("missing: ".length());
                int reason = list.indexOf(" (");
                missing.addAll(Arrays.asList((reason < 0 ? list : list.substring(0, reason)).split(",\\s*")));
                section = "";
            } else if (trimmed.equals("no migrations yet")) {
                section = "";
            } else if (section.equals("members") && !trimmed.isEmpty()) {
                String[] columns = trimmed.split("\\s+", 6);
                if (columns.length == 6) {
                    boolean local = columns[0].endsWith("*");
                    String node = local ? columns[0].substring(0, columns[0].length() - 1) : columns[0];
                    List<String> tenants = columns[5].equals("-") ? List.of() : List.of(columns[5].split(",\\s*"));
                    members.add(new Member(node, local, columns[1], columns[2], tenants));
                }
            } else if (section.equals("migrations") && !trimmed.isEmpty()) {
                String[] columns = trimmed.split("\\s+", 6);
                if (columns.length == 6) {
                    OptionalLong pause = columns[5].endsWith(" ms")
                            ? OptionalLong.of(Long.parseLong(columns[5].substring(0, columns[5].length() - 3)))
                            : OptionalLong.empty();
                    migrations.add(new Migration(columns[0], columns[1], columns[2], columns[3], pause));
                }
            }
        }
        return new ClusterTable(List.copyOf(lines), inCluster, List.copyOf(members), List.copyOf(missing),
                List.copyOf(migrations));
    }

    /** The member whose client address is {@code address}, or null. */
    Member member(String address) {
        return members.stream().filter(member -> member.clientAddress().equals(address)).findFirst().orElse(null);
    }

    /** Each tenant a member serves, with the client addresses of the members that list it. */
    Map<String, List<String>> servedBy() {
        Map<String, List<String>> served = new TreeMap<>();
        for (Member member : members) {
            for (String tenant : member.tenants()) {
                served.computeIfAbsent(tenant, key -> new ArrayList<>()).add(member.clientAddress());
            }
        }
        return served;
    }

    /** Whether every member's client address is known. */
    boolean addressesKnown() {
        return members.stream().noneMatch(member -> member.clientAddress().equals("-"));
    }

    @Override
    public String toString() {
        return String.join("\n", lines);
    }
}
