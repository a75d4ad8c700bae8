package io.troupe.shell;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.troupe.api.cluster.ClusterMember;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.cluster.Migration;

class ClusterCommandsTest {

    private static final String LOCAL = "5f0c2a7e-1111-2222-3333-444455556666";
    private static final String OTHER = "9a1b2c3d-aaaa-bbbb-cccc-ddddeeeeffff";

    @Test
    void showsTheMembersTheMissingOnesAndTheMigrations() {
        ClusterView view = view(List.of(
                new ClusterMember(OTHER, "10.0.0.2:5701", "10.0.0.2:7878", false, List.of("globex"), 3, 120.0),
                new ClusterMember(LOCAL, "10.0.0.1:5701", "10.0.0.1:7878", true, List.of("acme", "initech"), 12,
                        840.44)),
                List.of("10.0.0.4:5701"),
                List.of(new Migration("acme", OTHER, LOCAL, Migration.Cause.JOIN, Instant.parse("2026-12-02T08:10:03.5Z"),
                        Duration.ofMillis(41), true),
                        new Migration("globex", LOCAL, "", Migration.Cause.LEAVE, Instant.parse("2026-12-02T08:11:00Z"),
                                Duration.ZERO, false)));

        List<String> lines = print(new ClusterCommands(view)).lines().toList();

        assertEquals("cluster shop: 2 members; this node 5f0c2a7e", lines.get(0));
        assertEquals(List.of("NODE", "CLUSTER", "ADDRESS", "CLIENT", "ADDRESS", "SESSIONS", "REQ/S", "TENANTS"),
                List.of(lines.get(1).split(" +")));
        assertEquals(List.of("9a1b2c3d", "10.0.0.2:5701", "10.0.0.2:7878", "3", "120.0", "globex"),
                List.of(lines.get(2).split(" +")));
        assertEquals(List.of("5f0c2a7e*", "10.0.0.1:5701", "10.0.0.1:7878", "12", "840.4", "acme,", "initech"),
                List.of(lines.get(3).split(" +")));
        assertTrue(lines.get(4).startsWith("missing: 10.0.0.4:5701 (configured, not in the cluster"), lines.get(4));
        assertEquals(List.of("MIGRATION", "FROM", "TO", "CAUSE", "STARTED", "PAUSE"), List.of(lines.get(5).split(" +")));
        assertEquals(List.of("acme", "9a1b2c3d", "5f0c2a7e", "JOIN", "2026-12-02T08:10:03Z", "41", "ms"),
                List.of(lines.get(6).split(" +")));
        assertEquals(List.of("globex", "5f0c2a7e", "-", "LEAVE", "2026-12-02T08:11:00Z", "in", "progress"),
                List.of(lines.get(7).split(" +")));
        assertEquals(8, lines.size());
    }

    @Test
    void aMemberThatHasNotPublishedItsFiguresShowsDashes() {
        ClusterView view = view(List.of(new ClusterMember(LOCAL, "127.0.0.1:5701", "", true, List.of(), -1, -1)),
                List.of(), List.of());

        List<String> lines = print(new ClusterCommands(view)).lines().toList();

        assertEquals("cluster shop: 1 member; this node 5f0c2a7e", lines.get(0));
        assertEquals(List.of("5f0c2a7e*", "127.0.0.1:5701", "-", "-", "-", "-"), List.of(lines.get(2).split(" +")));
        assertEquals("no migrations yet", lines.get(3));
    }

    @Test
    void withoutAClusterItSaysSo() {
        assertTrue(print(new ClusterCommands(null)).startsWith("(this node is not in a cluster"));
    }

    private static String print(ClusterCommands commands) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        commands.cluster(new PrintStream(bytes, true, UTF_8));
        return bytes.toString(UTF_8);
    }

    private static ClusterView view(List<ClusterMember> members, List<String> missing, List<Migration> migrations) {
        return new ClusterView() {
            @Override
            public String clusterName() {
                return "shop";
            }

            @Override
            public String localNode() {
                return LOCAL;
            }

            @Override
            public List<ClusterMember> members() {
                return members;
            }

            @Override
            public List<String> missingMembers() {
                return missing;
            }

            @Override
            public List<Migration> migrations() {
                return migrations;
            }
        };
    }
}
