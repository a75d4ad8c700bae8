package io.troupe.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store file: append-only chunks, and the rewrite that reclaims their dead space by copying the live
 * snapshots into a new file renamed over the old one.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread, which plays the writer.
 */
class StoreFileTest {

    @TempDir
    Path dir;

    @Test
    void aRewriteKeepsEverySnapshotInAFileOfTheLiveSize() throws Exception {
        Path path = dir.resolve("state.mv.db");
        StoreFile file = StoreFile.open(path.toString());
        byte[] big = new byte[64 * 1024];
        for (int round = 0; round < 50; round++) {
            for (int key = 0; key < 4; key++) {
                big[0] = (byte) round;
                file.map().put("t\0o\0k" + key, StoredValue.encode(big, round));
                file.commit();
            }
        }
        long before = file.size();

        file.replaceWithCopy();
        StoreFile rewritten = StoreFile.open(path.toString());
        file.closeImmediately();

        try {
            assertEquals(4, rewritten.map().sizeAsLong());
            for (int key = 0; key < 4; key++) {
                byte[] snapshot = StoredValue.snapshot(rewritten.map().get("t\0o\0k" + key));
                assertEquals(49, snapshot[0]);
                assertEquals(big.length, snapshot.length);
            }
            assertTrue(rewritten.size() < before / 4, "rewritten " + rewritten.size() + " bytes, was " + before);
            assertFalse(Files.exists(dir.resolve("state.mv.db" + StoreFile.REWRITE_SUFFIX)));
        } finally {
            rewritten.close();
        }
    }

    @Test
    void aCopyLeftByACrashDuringARewriteIsDeletedAndTheFileIsWhole() throws Exception {
        Path path = dir.resolve("state.mv.db");
        StoreFile file = StoreFile.open(path.toString());
        file.map().put("t\0o\0k", StoredValue.encode(new byte[] {7}, 1));
        file.commit();
        file.close();
        Files.write(dir.resolve("state.mv.db" + StoreFile.REWRITE_SUFFIX), new byte[] {1, 2, 3});

        StoreFile again = StoreFile.open(path.toString());
        try {
            assertArrayEquals(new byte[] {7}, StoredValue.snapshot(again.map().get("t\0o\0k")));
            assertFalse(Files.exists(dir.resolve("state.mv.db" + StoreFile.REWRITE_SUFFIX)));
        } finally {
            again.close();
        }
    }
}
