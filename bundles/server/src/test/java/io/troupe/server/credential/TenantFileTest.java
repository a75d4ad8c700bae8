package io.troupe.server.credential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant file's token replaced by its hash, every other line kept; and secret files written owner-only.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class TenantFileTest {

    private static final TokenHash HASH = TokenHash.of("x".repeat(32), TokenHash.MIN_ITERATIONS, new SecureRandom());

    @TempDir
    Path directory;

    @Test
    void thePlaintextTokenBecomesATokenHashLineInItsPlaceAndOtherLinesStay() throws Exception {
        String content = "# my tenant\ntoken = " + "x".repeat(32) + "\nmaxConnections = 5\n\n# the end\n";
        String rewritten = TenantFile.withTokenHash(content, HASH);
        assertEquals("# my tenant\ntokenHash = " + HASH.format() + "\nmaxConnections = 5\n\n# the end\n", rewritten);
        assertNull(TenantFile.valueOf(rewritten, TenantFile.TOKEN));
        assertEquals(HASH.format(), TenantFile.valueOf(rewritten, TenantFile.TOKEN_HASH));
    }

    @Test
    void bothKeysAndAContinuedValueAreReplacedByOneLine() throws Exception {
        String content = "tokenHash:old\n  token   abc\\\n   def\nweight=2\n";
        assertEquals("tokenHash = " + HASH.format() + "\nweight=2\n", TenantFile.withTokenHash(content, HASH));
    }

    @Test
    void aFileWithoutTokenGetsTheHashAppended() {
        assertEquals("weight = 2\ntokenHash = " + HASH.format() + "\n", TenantFile.withTokenHash("weight = 2", HASH));
    }

    @Test
    void secretFilesAreReplacedWholeAndOwnerOnly() throws Exception {
        Path file = directory.resolve("io.troupe.tenant-a.cfg");
        Files.writeString(file, "token = old\n");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        SecretFile.replace(file, "tokenHash = new\n");
        assertEquals("tokenHash = new\n", Files.readString(file));
        assertTrue(SecretFile.isOwnerOnly(file));
        try (var left = Files.list(directory)) {
            assertEquals(1, left.count(), "no temporary file is left behind");
        }
    }

    @Test
    void aCreatedSecretFileIsOwnerOnlyAndAnExistingOneIsLeftAlone() throws Exception {
        Path file = directory.resolve("new.cfg");
        SecretFile.create(file, "a = 1\n");
        assertTrue(SecretFile.isOwnerOnly(file));
        org.junit.jupiter.api.Assertions.assertThrows(java.nio.file.FileAlreadyExistsException.class,
                () -> SecretFile.create(file, "a = 2\n"));
        assertEquals("a = 1\n", Files.readString(file));
    }

    @Test
    void generatedTokensAre43UrlSafeCharacters() {
        String token = TenantToken.generate(new SecureRandom());
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
        assertNull(TenantToken.problemWith(token));
    }
}
