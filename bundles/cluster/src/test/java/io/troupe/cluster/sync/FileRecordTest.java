package io.troupe.cluster.sync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The records of troupe.files, the keys the sync accepts, and its ledger. */
class FileRecordTest {

    @TempDir
    Path home;

    @Test
    void aRecordReadsBackAsWritten() {
        byte[] content = "new".getBytes(StandardCharsets.UTF_8);
        byte[] previous = "old".getBytes(StandardCharsets.UTF_8);
        FileRecord record = FileRecord.file(7, "10.0.0.1:5701", true, content, previous);
        FileRecord read = FileRecord.decode("deploy/a.jar", record.encode());
        assertEquals(7, read.version());
        assertEquals("10.0.0.1:5701", read.origin());
        assertTrue(read.rollback());
        assertFalse(read.deleted());
        assertEquals(FileRecord.sha(content), read.sha());
        assertArrayEquals(content, read.content());
        assertArrayEquals(previous, read.previous());
    }

    @Test
    void aTombstoneHasNoShaNoContentAndNoPrevious() {
        FileRecord read = FileRecord.decode("etc/x", FileRecord.tombstone(3, "n", false, null).encode());
        assertTrue(read.deleted());
        assertNull(read.sha());
        assertEquals(0, read.content().length);
        assertNull(read.previous());
    }

    @Test
    void aValueOfAnotherFormatOrTruncatedIsRefusedNamingTheKey() {
        byte[] value = FileRecord.file(1, "n", false, new byte[10], null).encode();
        value[0] = 9;
        IllegalArgumentException format = assertThrows(IllegalArgumentException.class,
                () -> FileRecord.decode("deploy/a.jar", value));
        assertTrue(format.getMessage().contains("deploy/a.jar") && format.getMessage().contains("format 9"),
                format.getMessage());
        byte[] whole = FileRecord.file(1, "n", false, new byte[10], null).encode();
        IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
                () -> FileRecord.decode("deploy/a.jar", Arrays.copyOf(whole, whole.length - 8)));
        assertTrue(truncated.getMessage().contains("truncated"), truncated.getMessage());
    }

    @Test
    void onlyPlainJarAndTenantFileNamesAreSynchronised() {
        SyncedFolders folders = new SyncedFolders(home, true, true);
        assertTrue(folders.synced("deploy/counter-1.0.jar"));
        assertTrue(folders.synced("etc/io.troupe.tenant-acme.cfg"));
        for (String refused : new String[] {"deploy/../x.jar", "deploy/sub/x.jar", "deploy/.x.jar",
                "deploy/x.jar.failed",
                "deploy/.jar", "deploy/.status/x.jar", "etc/io.troupe.server.cfg", "etc/io.troupe.tenant-.cfg",
                "etc/../etc/io.troupe.tenant-a.cfg", "data/cluster-sync.properties", "x.jar"}) {
            assertFalse(folders.synced(refused), refused);
        }
        SyncedFolders tenantsOnly = new SyncedFolders(home, false, true);
        assertFalse(tenantsOnly.synced("deploy/counter.jar"));
        assertTrue(tenantsOnly.synced("etc/io.troupe.tenant-acme.cfg"));
    }

    @Test
    void theLedgerKeepsWhatWasAppliedAcrossARestart() {
        Path file = home.resolve("data/cluster-sync.properties");
        SyncLedger ledger = new SyncLedger(file);
        ledger.load();
        ledger.put("deploy/a.jar", 3, "ab12");
        ledger.put("etc/io.troupe.tenant-x.cfg", 2, null);

        SyncLedger again = new SyncLedger(file);
        again.load();
        assertEquals(new SyncLedger.Applied(3, "ab12"), again.get("deploy/a.jar"));
        assertEquals(new SyncLedger.Applied(2, null), again.get("etc/io.troupe.tenant-x.cfg"));
        assertNull(again.get("deploy/b.jar"));
    }
}
