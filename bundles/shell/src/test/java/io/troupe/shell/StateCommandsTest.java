package io.troupe.shell;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;
import io.troupe.store.MvStateStore;

/**
 * The state commands on a real store (an MVStore file of the test's own): list, export and import as a
 * backup and restore, purge only when asked, and what each says when it cannot.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class StateCommandsTest {

    private static final StateKey COUNTER = new StateKey("acme", "handler:counter.add", "handler:counter.add@acme");
    private static final StateKey ROOM = new StateKey("acme", "factory:chat.room", "handler:chat.join@acme/room-lobby");
    private static final StateKey OTHER = new StateKey("globex", "handler:counter.add", "handler:counter.add@globex");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, UTF_8);
    private final List<String> knownTenants = new ArrayList<>();
    private final List<MvStateStore> stores = new ArrayList<>();
    private MvStateStore store;

    @BeforeEach
    void openStore() throws Exception {
        store = open("state.mv.db");
        write(store, COUNTER, "12");
        write(store, ROOM, "hello, lobby");
        write(store, OTHER, "7");
    }

    @AfterEach
    void closeStores() {
        stores.forEach(MvStateStore::close);
    }

    private MvStateStore open(String name) throws Exception {
        MvStateStore opened = MvStateStore.open(dir.resolve(name));
        stores.add(opened);
        return opened;
    }

    private static void write(StateStore store, StateKey key, String text) throws Exception {
        store.write(key, text.getBytes(UTF_8)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private StateCommands commands(StateStore on) {
        return new StateCommands(() -> on, () -> List.copyOf(knownTenants));
    }

    private String output() {
        String text = printed.toString(UTF_8);
        printed.reset();
        return text;
    }

    @Test
    void listsOneTenantsActorsWithSizeAndWriteTime() throws Exception {
        commands(store).list(out, List.of("acme"));

        String[] lines = output().split("\n");
        assertEquals(4, lines.length, String.join("\n", lines));
        assertTrue(lines[0].matches("TENANT +ORIGIN +PATH +BYTES +WRITTEN"), lines[0]);
        assertTrue(lines[1].matches("acme +factory:chat\\.room +handler:chat\\.join@acme/room-lobby +12 +"
                + "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"), lines[1]);
        assertTrue(lines[2].matches("acme +handler:counter\\.add +handler:counter\\.add@acme +2 +\\S+Z"), lines[2]);
        assertEquals("2 stored actors, 14 bytes", lines[3]);
    }

    @Test
    void withoutATenantListsEveryTenantTheServerKnows() throws Exception {
        knownTenants.addAll(List.of("globex", "acme"));

        commands(store).list(out, List.of());

        String text = output();
        assertTrue(text.contains("globex"), text);
        assertTrue(text.contains("3 stored actors, 15 bytes"), text);
        assertTrue(text.contains("another tenant's: troupe:state-list <tenant id>"), text);
        commands(store).list(out, List.of("nobody"));
        assertEquals("(no stored actors for tenant 'nobody')\n", output());
    }

    @Test
    void anExportRestoresIntoAnotherStoreByteForByte() throws Exception {
        Path backup = dir.resolve("acme.state");

        commands(store).export(out, dir, List.of("acme", "acme.state"));
        assertEquals("exported 2 actors of tenant 'acme' (14 bytes) to " + backup + "\n", output());

        MvStateStore restored = open("restored.mv.db");
        commands(restored).importFile(out, dir, List.of(backup.toString()));

        String text = output();
        assertTrue(text.startsWith("imported 2 actors of tenant 'acme' exported at "), text);
        assertArrayEquals("12".getBytes(UTF_8), restored.read(COUNTER).orElseThrow());
        assertArrayEquals("hello, lobby".getBytes(UTF_8), restored.read(ROOM).orElseThrow());
        assertTrue(restored.read(OTHER).isEmpty(), "only acme's state was exported");
    }

    @Test
    void anExportNeverOverwritesAFile() throws Exception {
        Path existing = Files.writeString(dir.resolve("taken"), "keep me");

        assertThrows(StateCommandException.class, () -> commands(store).export(out, dir, List.of("acme", "taken")));

        assertEquals("ERROR state.exists: " + existing + " exists; export to a new file\n", output());
        assertEquals("keep me", Files.readString(existing));
    }

    @Test
    void anImportOfAnotherFormatVersionIsRefusedAndWritesNothing() throws Exception {
        commands(store).export(out, dir, List.of("acme", "acme.state"));
        output();
        byte[] bytes = Files.readAllBytes(dir.resolve("acme.state"));
        ByteBuffer.wrap(bytes).putShort(8, (short) 2);
        Files.write(dir.resolve("v2.state"), bytes);
        MvStateStore empty = open("empty.mv.db");

        assertThrows(StateCommandException.class, () -> commands(empty).importFile(out, dir, List.of("v2.state")));

        assertEquals("ERROR state.format: " + dir.resolve("v2.state") + " is a Troupe state export of format version 2;"
                + " this Troupe reads version 1 only (export it again with the Troupe that reads it)\n", output());
        assertTrue(empty.list("acme").isEmpty());
    }

    @Test
    void anImportOfADamagedOrForeignFileIsRefused() throws Exception {
        commands(store).export(out, dir, List.of("acme", "acme.state"));
        output();
        byte[] bytes = Files.readAllBytes(dir.resolve("acme.state"));
        bytes[bytes.length - 10] ^= 1;
        Files.write(dir.resolve("damaged.state"), bytes);
        Files.writeString(dir.resolve("notes.txt"), "shopping list");

        assertThrows(StateCommandException.class, () -> commands(store).importFile(out, dir, List.of("damaged.state")));
        assertTrue(output().startsWith("ERROR state.format: " + dir.resolve("damaged.state") + " is damaged"));
        assertThrows(StateCommandException.class, () -> commands(store).importFile(out, dir, List.of("notes.txt")));
        assertEquals("ERROR state.format: " + dir.resolve("notes.txt") + " is not a Troupe state export (it does not "
                + "start with TRPSTATE)\n", output());
    }

    @Test
    void purgeWithoutYesOnlySaysWhatItWouldRemove() throws Exception {
        commands(store).purge(out, List.of("acme"));

        String text = output();
        assertTrue(text.startsWith("tenant 'acme' has 2 stored actors (14 bytes); nothing was removed\n"), text);
        assertTrue(text.contains("to remove them for good: troupe:tenant-purge --yes acme"), text);
        assertEquals(2, store.list("acme").size());
    }

    @Test
    void purgeWithYesRemovesThatTenantOnly() throws Exception {
        commands(store).purge(out, List.of("--yes", "acme"));

        assertEquals("purged tenant 'acme': 2 stored actors removed\n", output());
        assertTrue(store.list("acme").isEmpty());
        assertEquals(1, store.list("globex").size());
    }

    @Test
    void purgingATenantStillConfiguredWarnsThatItsActorsWriteAgain() throws Exception {
        knownTenants.add("acme");

        commands(store).purge(out, List.of("acme", "--yes"));

        String text = output();
        assertTrue(text.contains("warning: tenant 'acme' is still configured"), text);
        assertTrue(store.list("acme").isEmpty());
    }

    @Test
    void withoutAStoreEachCommandSaysSo() {
        StateCommands none = commands(null);

        StateCommandException e = assertThrows(StateCommandException.class, () -> none.list(out, List.of()));
        assertEquals(StateCommandException.UNAVAILABLE, e.code());
        assertTrue(output().startsWith("ERROR state.unavailable: no state store is running"));
        assertThrows(StateCommandException.class, () -> none.purge(out, List.of("--yes", "acme")));
        assertThrows(StateCommandException.class, () -> none.export(out, dir, List.of("acme", "x")));
        assertFalse(Files.exists(dir.resolve("x")));
    }

    @Test
    void wrongArgumentsPrintTheSynopsis() {
        assertThrows(StateCommandException.class, () -> commands(store).purge(out, List.of()));
        assertEquals("ERROR state.usage: usage: troupe:tenant-purge [--yes] <tenant id>\n", output());
        assertThrows(StateCommandException.class, () -> commands(store).export(out, dir, List.of("acme")));
        assertEquals("ERROR state.usage: usage: troupe:state-export <tenant id> <file>\n", output());
    }
}
