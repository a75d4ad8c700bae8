package io.troupe.cluster.sync;

import static io.troupe.cluster.state.EmbeddedMembers.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.hazelcast.map.IMap;

import io.troupe.cluster.state.EmbeddedMembers;

/** Three real members, each with its own installation folder and a sync scanning every 100 ms. */
class FolderSyncTest {

    private static final Duration SCAN = Duration.ofMillis(100);
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final AtomicInteger MARKERS = new AtomicInteger();

    @TempDir
    static Path root;
    private static EmbeddedMembers members;
    private static final List<Path> homes = new ArrayList<>();
    private static final List<FolderSync> syncs = new ArrayList<>();

    @BeforeAll
    static void startNodes() throws IOException {
        members = new EmbeddedMembers(3).startAll();
        for (int i = 0; i < 3; i++) {
            Path home = home("node-" + i);
            homes.add(home);
            FolderSync sync = new FolderSync(members.member(i), home, true, true, SCAN);
            sync.start();
            syncs.add(sync);
        }
    }

    @AfterAll
    static void stopNodes() {
        syncs.forEach(FolderSync::close);
        members.close();
    }

    @Test
    void aJarWrittenOnOneNodeAppearsOnTheOthersByteIdentical() throws Exception {
        byte[] jar = new byte[300_000];
        new Random(1).nextBytes(jar);
        Files.write(homes.get(0).resolve("deploy/one.jar"), jar);

        for (int i = 1; i < 3; i++) {
            Path copy = homes.get(i).resolve("deploy/one.jar");
            await(PATIENCE, () -> Arrays.equals(jar, readOrNull(copy)), "one.jar on node " + i);
        }
        // the ledger is written after the file it records (CI once read it in between)
        String expected = "1 " + FileRecord.sha(jar);
        await(PATIENCE, () -> expected.equals(ledgerEntry(homes.get(1), "deploy/one.jar")), "the ledger of node 1");
        assertEquals(expected, ledgerEntry(homes.get(1), "deploy/one.jar"));
        try (var folder = Files.list(homes.get(1).resolve("deploy"))) {
            assertTrue(folder.noneMatch(p -> p.getFileName().toString().endsWith(".part")), "no temporary file left");
        }
    }

    @Test
    void onlyPluginJarsAndTenantFilesAreSynchronised() throws Exception {
        Path a = homes.get(0);
        Files.writeString(a.resolve("deploy/.hidden.jar"), "hidden");
        Files.writeString(a.resolve("deploy/x.jar.failed"), "marker");
        Files.createDirectories(a.resolve("deploy/.status"));
        Files.writeString(a.resolve("deploy/.status/x.jar"), "outcome=running");
        Files.writeString(a.resolve("etc/io.troupe.server.cfg"), "port=1");
        Files.writeString(a.resolve("etc/.io.troupe.tenant-hidden.cfg"), "tenant=hidden");
        settle(a);

        Path b = homes.get(1);
        IMap<String, byte[]> map = members.member(0).getMap(FolderSync.FILES);
        for (String other : List.of("deploy/.hidden.jar", "deploy/x.jar.failed", "deploy/.status/x.jar",
                "etc/io.troupe.server.cfg", "etc/.io.troupe.tenant-hidden.cfg")) {
            assertFalse(Files.exists(b.resolve(other)), other);
            assertFalse(map.containsKey(other), other);
        }
    }

    @Test
    void aTenantFileRemovedOnOneNodeDisappearsEverywhere() throws Exception {
        String name = "etc/io.troupe.tenant-acme.cfg";
        Files.writeString(homes.get(0).resolve(name), "tenant=acme\ntoken=0123456789abcdef0123\n");
        for (Path home : homes) {
            await(PATIENCE, () -> Files.exists(home.resolve(name)), name + " in " + home);
        }

        Files.delete(homes.get(1).resolve(name));

        for (Path home : homes) {
            await(PATIENCE, () -> !Files.exists(home.resolve(name)), name + " gone from " + home);
        }
        IMap<String, byte[]> map = members.member(0).getMap(FolderSync.FILES);
        FileRecord tombstone = FileRecord.decode(name, map.get(name));
        assertTrue(tombstone.deleted());
        assertEquals(2, tombstone.version());
        assertEquals(syncs.get(1).node(), tombstone.origin());
    }

    @Test
    void concurrentChangesConvergeToOneContentOnEveryNode() throws Exception {
        String name = "etc/io.troupe.tenant-race.cfg";
        for (int round = 0; round < 3; round++) {
            List<String> contents = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                contents.add("tenant=race\nround=" + round + "\nwriter=" + i + "\n");
            }
            for (int i = 0; i < 3; i++) {
                Files.writeString(homes.get(i).resolve(name), contents.get(i));
            }
            await(PATIENCE, () -> {
                String first = textOrNull(homes.get(0).resolve(name));
                return first != null && first.equals(textOrNull(homes.get(1).resolve(name)))
                        && first.equals(textOrNull(homes.get(2).resolve(name)));
            }, "one content of " + name + " on every node in round " + round);
            String agreed = textOrNull(homes.get(0).resolve(name));
            assertTrue(contents.contains(agreed), agreed);
            IMap<String, byte[]> map = members.member(0).getMap(FolderSync.FILES);
            await(PATIENCE, () -> agreed.equals(new String(FileRecord.decode(name, map.get(name)).content(),
                    StandardCharsets.UTF_8)), "the map holding what the nodes hold");
        }
    }

    @Test
    void aJarRefusedOnOneNodeIsRolledBackOnEveryNode() throws Exception {
        String name = "deploy/plugin.jar";
        byte[] good = "good jar".getBytes(StandardCharsets.UTF_8);
        byte[] bad = "bad jar".getBytes(StandardCharsets.UTF_8);
        Files.write(homes.get(0).resolve(name), good);
        awaitEverywhere(name, good);
        Files.write(homes.get(0).resolve(name), bad);
        awaitEverywhere(name, bad);

        writeStatus(homes.get(2), "plugin.jar", FileRecord.sha(bad), "rolled-back", "did not start: boom");

        awaitEverywhere(name, good);
        IMap<String, String> deploys = members.member(0).getMap(FolderSync.DEPLOYS);
        assertEquals(syncs.get(2).node() + ": rolled-back: did not start: boom", deploys.get("plugin.jar@2"));
        FileRecord back = FileRecord.decode(name, members.member(0).<String, byte[]>getMap(FolderSync.FILES).get(name));
        assertEquals(3, back.version());
        assertTrue(back.rollback());
    }

    @Test
    void aNewJarRefusedOnOneNodeIsRemovedFromEveryNode() throws Exception {
        String name = "deploy/fresh.jar";
        byte[] jar = "fresh".getBytes(StandardCharsets.UTF_8);
        Files.write(homes.get(1).resolve(name), jar);
        awaitEverywhere(name, jar);

        writeStatus(homes.get(0), "fresh.jar", FileRecord.sha(jar), "failed", "not usable: no manifest");

        for (Path home : homes) {
            await(PATIENCE, () -> !Files.exists(home.resolve(name)), name + " gone from " + home);
        }
        IMap<String, String> deploys = members.member(0).getMap(FolderSync.DEPLOYS);
        assertEquals(syncs.get(0).node() + ": failed: not usable: no manifest", deploys.get("fresh.jar@1"));
    }

    @Test
    void aStatusOlderThanTheJarIsNotTakenForIt() throws Exception {
        String name = "deploy/again.jar";
        byte[] jar = "same bytes as a jar refused long ago".getBytes(StandardCharsets.UTF_8);
        Files.write(homes.get(0).resolve(name), jar);
        awaitEverywhere(name, jar);

        writeStatus(homes.get(1), "again.jar", FileRecord.sha(jar), "failed", "long ago", Instant.EPOCH);
        settle(homes.get(1));
        IMap<String, String> deploys = members.member(0).getMap(FolderSync.DEPLOYS);
        assertFalse(deploys.containsKey("again.jar@1"));
        awaitEverywhere(name, jar);

        writeStatus(homes.get(1), "again.jar", FileRecord.sha(jar), "failed", "now", Instant.now());
        for (Path home : homes) {
            await(PATIENCE, () -> !Files.exists(home.resolve(name)), name + " gone from " + home);
        }
        assertEquals(syncs.get(1).node() + ": failed: now", deploys.get("again.jar@1"));
    }

    @Test
    void aNodeStartedLaterCatchesUpAndPublishesWhatChangedWhileItWasAway() throws Exception {
        Path late = home("late");
        String jar = "deploy/late.jar";
        String mine = "etc/io.troupe.tenant-late.cfg";
        Files.writeString(homes.get(0).resolve(jar), "v1");
        Files.writeString(homes.get(0).resolve(mine), "tenant=late\nv=1\n");
        awaitEverywhere(jar, "v1".getBytes(StandardCharsets.UTF_8));

        // a new node's own copy of a file the cluster has yields; a file only it has is published
        Files.writeString(late.resolve(jar), "the new node's own late.jar");
        Files.writeString(late.resolve("deploy/only-late.jar"), "only here");
        FolderSync first = new FolderSync(members.member(2), late, true, true, SCAN);
        first.start();
        await(PATIENCE, () -> "v1".equals(textOrNull(late.resolve(jar))), "late.jar caught up by a new node");
        awaitEverywhere("deploy/only-late.jar", "only here".getBytes(StandardCharsets.UTF_8));
        assertEquals("v1", textOrNull(homes.get(0).resolve(jar)));
        await(PATIENCE, () -> textOrNull(late.resolve(mine)) != null, mine + " caught up by a new node");
        first.close();

        // while it is away: the cluster changes the jar, and the node changes its copy of the tenant file
        Files.writeString(homes.get(0).resolve(jar), "v2");
        awaitEverywhere(jar, "v2".getBytes(StandardCharsets.UTF_8));
        Files.writeString(late.resolve(mine), "tenant=late\nv=changed while away\n");

        FolderSync again = new FolderSync(members.member(2), late, true, true, SCAN);
        again.start();
        try {
            await(PATIENCE, () -> "v2".equals(textOrNull(late.resolve(jar))), "late.jar v2 after the restart");
            for (Path home : homes) {
                await(PATIENCE, () -> "tenant=late\nv=changed while away\n".equals(textOrNull(home.resolve(mine))),
                        "the change made while away on " + home);
            }
        } finally {
            again.close();
        }
    }

    @Test
    void aNodeThatServedAloneBringsWhatTheClusterHasNeverSeenAndYieldsWhereItHas() throws Exception {
        Path alone = home("alone");
        String own = "etc/io.troupe.tenant-alone.cfg";
        String shared = "deploy/shared-alone.jar";
        Files.writeString(homes.get(0).resolve(shared), "the cluster's");
        awaitEverywhere(shared, "the cluster's".getBytes(StandardCharsets.UTF_8));
        // a wrong member list: the node forms a cluster of its own and publishes its files there (version 1)
        try (EmbeddedMembers apart = new EmbeddedMembers(1).startAll()) {
            Files.writeString(alone.resolve(own), "tenant=alone");
            Files.writeString(alone.resolve(shared), "the lone node's");
            FolderSync lonely = new FolderSync(apart.member(0), alone, true, true, SCAN);
            lonely.start();
            try {
                await(PATIENCE, () -> apart.member(0).getMap(FolderSync.FILES).containsKey(own),
                        own + " published in the lone cluster");
            } finally {
                lonely.close();
            }
        }
        // the member list fixed, it joins the cluster: its own tenant file reaches every node, and for the jar
        // the cluster also has at version 1, the cluster's content wins
        FolderSync joined = new FolderSync(members.member(2), alone, true, true, SCAN);
        joined.start();
        try {
            awaitEverywhere(own, "tenant=alone".getBytes(StandardCharsets.UTF_8));
            await(PATIENCE, () -> "the cluster's".equals(textOrNull(alone.resolve(shared))),
                    shared + " on the node that joined");
        } finally {
            joined.close();
        }
    }

    @Test
    void aHalfTurnedOffIsLeftAlone() throws Exception {
        Path tenantsOnly = home("tenants-only");
        FolderSync sync = new FolderSync(members.member(1), tenantsOnly, false, true, SCAN);
        sync.start();
        try {
            Files.writeString(homes.get(0).resolve("deploy/skipped.jar"), "jar");
            awaitEverywhere("deploy/skipped.jar", "jar".getBytes(StandardCharsets.UTF_8));
            Files.writeString(homes.get(0).resolve("etc/io.troupe.tenant-half.cfg"), "tenant=half");
            await(PATIENCE, () -> Files.exists(tenantsOnly.resolve("etc/io.troupe.tenant-half.cfg")),
                    "the tenant file on the node that syncs tenants only");
            Files.writeString(tenantsOnly.resolve("deploy/local-only.jar"), "mine");
            settle(tenantsOnly);
            assertFalse(Files.exists(tenantsOnly.resolve("deploy/skipped.jar")));
            assertFalse(members.member(0).getMap(FolderSync.FILES).containsKey("deploy/local-only.jar"));
        } finally {
            sync.close();
        }
    }

    private static void awaitEverywhere(String name, byte[] content) {
        for (Path home : homes) {
            await(PATIENCE, () -> Arrays.equals(content, readOrNull(home.resolve(name))), name + " in " + home);
        }
    }

    /**
     * Waits until the sync of {@code home} has finished every scan it had begun and one more: a tenant file
     * written there after that scan's changes has to reach every node, twice in a row (the second marker is
     * published at least one whole scan after the first). What the node would have published or reported by
     * then, it has. (Negative assertions need such a point; no fixed sleep.)
     */
    private static void settle(Path home) throws IOException {
        for (int i = 0; i < 2; i++) {
            String marker = "etc/io.troupe.tenant-marker-" + MARKERS.incrementAndGet() + ".cfg";
            Files.writeString(home.resolve(marker), "tenant=marker");
            for (Path each : homes) {
                await(PATIENCE, () -> Files.exists(each.resolve(marker)), marker + " in " + each);
            }
        }
    }

    private static void writeStatus(Path home, String file, String sha, String outcome, String reason)
            throws IOException {
        writeStatus(home, file, sha, outcome, reason, null);
    }

    private static void writeStatus(Path home, String file, String sha, String outcome, String reason, Instant time)
            throws IOException {
        Path folder = Files.createDirectories(home.resolve("deploy/.status"));
        Properties status = new Properties();
        status.setProperty("file", file);
        status.setProperty("sha256", sha);
        status.setProperty("outcome", outcome);
        status.setProperty("reason", reason);
        if (time != null) {
            status.setProperty("time", time.toString());
        }
        Path part = folder.resolve("." + file + ".part");
        try (OutputStream out = Files.newOutputStream(part)) {
            status.store(out, null);
        }
        Files.move(part, folder.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path home(String name) throws IOException {
        Path home = root.resolve(name);
        Files.createDirectories(home.resolve("deploy"));
        Files.createDirectories(home.resolve("etc"));
        return home;
    }

    /** What {@code home}'s ledger records for {@code path}; null when it records nothing (or cannot be read yet). */
    private static String ledgerEntry(Path home, String path) {
        Properties ledger = new Properties();
        try (var in = Files.newInputStream(home.resolve(FolderSync.LEDGER))) {
            ledger.load(in);
        } catch (IOException e) {
            return null;
        }
        return ledger.getProperty(path);
    }

    private static byte[] readOrNull(Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            return null;
        }
    }

    private static String textOrNull(Path path) {
        byte[] bytes = readOrNull(path);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
