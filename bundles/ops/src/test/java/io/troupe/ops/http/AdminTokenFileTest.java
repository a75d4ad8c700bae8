package io.troupe.ops.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token file: created once with a random token readable by its owner only, read again when it changes,
 * and no token at all when it is missing, blank or too short.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class AdminTokenFileTest {

    @TempDir
    Path dir;

    @Test
    void createsAMissingFileWithARandomTokenReadableByItsOwnerOnly() throws Exception {
        Path path = dir.resolve("etc/admin.token");
        AdminTokenFile file = new AdminTokenFile(path);

        assertTrue(file.createIfAbsent());

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
        String token = Files.readString(path).strip();
        assertEquals(43, token.length());
        assertTrue(file.current().orElseThrow().matches(token));
        assertNull(file.problem());
    }

    @Test
    void neverOverwritesAnExistingFile() throws Exception {
        Path path = dir.resolve("admin.token");
        Files.writeString(path, "operators-own-token-1\nsecond line ignored\n");
        AdminTokenFile file = new AdminTokenFile(path);

        assertFalse(file.createIfAbsent());

        assertEquals("operators-own-token-1\nsecond line ignored\n", Files.readString(path));
        assertTrue(file.current().orElseThrow().matches("operators-own-token-1"));
    }

    @Test
    void aNewTokenWrittenIntoTheFileAppliesAtTheNextLook() throws Exception {
        Path path = dir.resolve("admin.token");
        Files.writeString(path, "operators-own-token-1\n");
        AdminTokenFile file = new AdminTokenFile(path);
        assertTrue(file.current().orElseThrow().matches("operators-own-token-1"));

        Path next = dir.resolve("admin.token.new");
        Files.writeString(next, "a-longer-replacement-token-2\n");
        Files.move(next, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        assertTrue(file.current().orElseThrow().matches("a-longer-replacement-token-2"));
        assertFalse(file.current().orElseThrow().matches("operators-own-token-1"));
    }

    @Test
    void aMissingBlankOrShortFileGivesNoTokenAndSaysWhy() throws Exception {
        Path path = dir.resolve("admin.token");
        AdminTokenFile file = new AdminTokenFile(path);
        assertTrue(file.current().isEmpty());
        assertEquals("missing", file.problem());

        Files.writeString(path, "   \n");
        assertTrue(file.current().isEmpty());
        assertEquals("its first line is blank", file.problem());

        Files.writeString(path, "short\n");
        assertTrue(file.current().isEmpty());
        assertEquals("the token shorter than 16 characters", file.problem());

        Files.writeString(path, "now-long-enough-token\n");
        assertTrue(file.current().isPresent());
        assertNull(file.problem());
    }
}
