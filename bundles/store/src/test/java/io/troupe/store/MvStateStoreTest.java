package io.troupe.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StoreStats;
import io.troupe.api.state.StoredState;

/**
 * The store on a real file: what it keeps, in which order, how it batches syncs, and what a closed store
 * says.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread; some tests write from several.
 */
class MvStateStoreTest {

    private static final long TIMEOUT_SECONDS = 10;

    @TempDir
    Path dir;

    private Path file;
    private MvStateStore store;

    @BeforeEach
    void open() throws IOException {
        file = dir.resolve("data").resolve("state.mv.db");
        store = MvStateStore.open(file);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static StateKey key(String tenant, String path) {
        return new StateKey(tenant, "handler:counter.add", path);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }

    private static <T> T await(java.util.concurrent.CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void aWrittenSnapshotIsReadBackAndSurvivesReopening() throws Exception {
        StateKey key = key("acme", "handler:counter.add@acme");
        await(store.write(key, bytes("5")));

        assertArrayEquals(bytes("5"), store.read(key).orElseThrow());
        store.close();
        try (MvStateStore again = MvStateStore.open(file)) {
            assertArrayEquals(bytes("5"), again.read(key).orElseThrow());
            assertEquals(1, again.stats().storedStates());
            assertEquals(1, again.stats().storedBytes());
        }
    }

    @Test
    void createsTheFolderOfItsFile() {
        assertTrue(Files.isRegularFile(file), file + " exists");
    }

    @Test
    void theCallerMayReuseItsArrayOnceWriteReturns() throws Exception {
        StateKey key = key("acme", "a");
        byte[] snapshot = bytes("one");
        CompletableFuture<Void> written = store.write(key, snapshot).toCompletableFuture();
        snapshot[0] = 'X';
        await(written);

        assertArrayEquals(bytes("one"), store.read(key).orElseThrow());
    }

    @Test
    void aLaterWriteReplacesAnEarlierOneAndDeleteRemovesIt() throws Exception {
        StateKey key = key("acme", "a");
        await(store.write(key, bytes("1")));
        await(store.write(key, bytes("22")));
        assertArrayEquals(bytes("22"), store.read(key).orElseThrow());
        assertEquals(2, store.stats().storedBytes());

        await(store.delete(key));

        assertTrue(store.read(key).isEmpty());
        assertEquals(0, store.stats().storedStates());
        assertEquals(0, store.stats().storedBytes());
        await(store.delete(key)); // deleting what is not there is no error
    }

    @Test
    void listsOneTenantsSnapshotsOrderedByKeyWithSizeAndWriteTime() throws Exception {
        Instant before = Instant.now().minusMillis(1);
        await(store.write(new StateKey("acme", "handler:counter.add", "handler:counter.add@acme"), bytes("123")));
        await(store.write(new StateKey("acme", "factory:chat.room", "handler:chat.join@acme/room-lobby"), bytes("x")));
        await(store.write(new StateKey("acme2", "handler:counter.add", "handler:counter.add@acme2"), bytes("9")));
        await(store.write(new StateKey("acm", "handler:counter.add", "handler:counter.add@acm"), bytes("9")));
        await(store.write(new StateKey("", "factory:system", "system/probe"), bytes("no tenant")));

        List<StoredState> acme = store.list("acme");

        assertEquals(List.of(new StateKey("acme", "factory:chat.room", "handler:chat.join@acme/room-lobby"),
                new StateKey("acme", "handler:counter.add", "handler:counter.add@acme")),
                acme.stream().map(StoredState::key).toList());
        assertEquals(List.of(1, 3), acme.stream().map(StoredState::bytes).toList());
        for (StoredState state : acme) {
            assertFalse(state.writtenAt().isBefore(before), state + " written after " + before);
            assertFalse(state.writtenAt().isAfter(Instant.now()), state.toString());
        }
        assertEquals(List.of("system/probe"), store.list("").stream().map(s -> s.key().path()).toList());
        assertEquals(1, store.list("acme2").size());
        assertTrue(store.list("nobody").isEmpty());
    }

    @Test
    void purgeRemovesOneTenantAndNoOther() throws Exception {
        await(store.write(key("acme", "a"), bytes("1")));
        await(store.write(key("acme", "b/c"), bytes("22")));
        await(store.write(key("acme2", "a"), bytes("333")));
        await(store.write(key("acm", "a"), bytes("4444")));

        assertEquals(2, store.purge("acme"));

        assertTrue(store.list("acme").isEmpty());
        assertEquals(1, store.list("acme2").size());
        assertEquals(1, store.list("acm").size());
        assertEquals(2, store.stats().storedStates());
        assertEquals(7, store.stats().storedBytes());
        assertEquals(0, store.purge("acme"));
        store.close();
        try (MvStateStore again = MvStateStore.open(file)) {
            assertTrue(again.list("acme").isEmpty());
            assertEquals(2, again.stats().storedStates());
        }
    }

    @Test
    void writesToOneKeyCompleteInTheOrderTheyWereMade() throws Exception {
        StateKey key = key("acme", "ordered");
        List<Integer> completed = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> stages = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            int version = i;
            stages.add(store.write(key, bytes(Integer.toString(i)))
                    .thenRun(() -> completed.add(version)).toCompletableFuture());
        }
        CompletableFuture.allOf(stages.toArray(new CompletableFuture<?>[0])).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            expected.add(i);
        }
        assertEquals(expected, completed);
        assertArrayEquals(bytes("1999"), store.read(key).orElseThrow());
    }

    @Test
    void concurrentWritesShareSyncs() throws Exception {
        int threads = 8;
        int perThread = 250;
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Void>> stages = Collections.synchronizedList(new ArrayList<>());
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread writer = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    stages.add(store.write(key("acme", "actor-" + thread + "-" + (i % 10)), new byte[64])
                            .toCompletableFuture());
                }
            });
            writers.add(writer);
            writer.start();
        }
        start.countDown();
        for (Thread writer : writers) {
            writer.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        }
        CompletableFuture.allOf(stages.toArray(new CompletableFuture<?>[0])).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        StoreStats stats = store.stats();
        assertEquals(threads * perThread, stats.writes());
        assertEquals(threads * perThread * 64L, stats.bytesWritten());
        assertTrue(stats.syncs() >= 1, stats.toString());
        assertTrue(stats.syncs() < stats.writes(), "batched: " + stats);
        assertEquals(threads * 10, stats.storedStates());
        assertTrue(stats.writeNanosP99() > 0, stats.toString());
    }

    @Test
    void withoutSyncWritesBatchesAreCommittedButNotSynced() throws Exception {
        store.syncWrites(false);
        await(store.write(key("acme", "a"), bytes("1")));

        assertEquals(0, store.stats().syncs());
        assertEquals(1, store.stats().writes());
        store.close();
        try (MvStateStore again = MvStateStore.open(file, false)) {
            assertArrayEquals(bytes("1"), again.read(key("acme", "a")).orElseThrow());
        }
    }

    @Test
    void aClosedStoreRefusesWritesAndReadsNamingItsFile() throws Exception {
        await(store.write(key("acme", "a"), bytes("1")));
        store.close();
        store.close();

        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> await(store.write(key("acme", "a"), bytes("2"))));
        IllegalStateException cause = assertInstanceOf(IllegalStateException.class, refused.getCause());
        assertTrue(cause.getMessage().contains(file.toString()) && cause.getMessage().contains("closed"),
                cause.getMessage());
        IllegalStateException read = assertThrows(IllegalStateException.class, () -> store.read(key("acme", "a")));
        assertTrue(read.getMessage().contains("closed"), read.getMessage());
        assertTrue(store.isClosed());
    }

    @Test
    void closeWritesWhatWasQueued() throws Exception {
        List<CompletableFuture<Void>> stages = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            stages.add(store.write(key("acme", "k" + i), bytes("v" + i)).toCompletableFuture());
        }
        store.close();

        for (CompletableFuture<Void> stage : stages) {
            assertTrue(stage.isDone() && !stage.isCompletedExceptionally(), stage.toString());
        }
        try (MvStateStore again = MvStateStore.open(file)) {
            assertEquals(500, again.list("acme").size());
        }
    }

    @Test
    void aSecondStoreOnTheSameFileIsRefused() {
        IOException refused = assertThrows(IOException.class, () -> MvStateStore.open(file));
        assertTrue(refused.getMessage().contains(file.toString()), refused.getMessage());
    }

    @Test
    void aFileThatIsNoStoreIsRefusedWithItsName() throws Exception {
        Path junk = dir.resolve("junk.mv.db");
        Files.writeString(junk, "this is not an MVStore file, just some text long enough to look like a header");

        IOException refused = assertThrows(IOException.class, () -> MvStateStore.open(junk));
        assertTrue(refused.getMessage().contains(junk.toString()), refused.getMessage());
    }

    @Test
    void aKeyWhoseOriginHoldsTheSeparatorIsRefused() throws Exception {
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> await(store.write(new StateKey("acme", "handler:a\0b", "p"), bytes("1"))));
        assertInstanceOf(IllegalArgumentException.class, refused.getCause());
        assertTrue(refused.getCause().getMessage().contains("origin"), refused.getCause().getMessage());
    }

    @Test
    void aCallbackCannotCloseTheStoreItRunsOn() throws Exception {
        // a write that completed before its callback was attached runs the callback on this thread instead:
        // write again until one runs on the store's writer, the case under test (CI once met the other)
        Throwable failure = null;
        for (int attempt = 0; attempt < 100 && failure == null; attempt++) {
            CompletableFuture<Throwable> thrown = new CompletableFuture<>();
            await(store.write(key("acme", "a" + attempt), bytes("1")).whenComplete((ok, error) -> {
                if (!Thread.currentThread().getName().equals(StoreWriter.THREAD_NAME)) {
                    thrown.complete(null); // not the writer's thread: try again
                    return;
                }
                try {
                    store.close();
                    thrown.complete(new AssertionError("close() on the writer's own thread returned"));
                } catch (IllegalStateException e) {
                    thrown.complete(e);
                }
            }));
            failure = thrown.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertInstanceOf(IllegalStateException.class, failure);
        await(store.write(key("acme", "b"), bytes("2")));
    }
}
