package io.troupe.shell;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.server.credential.TenantFile;
import io.troupe.server.credential.TokenHash;

/**
 * {@code troupe:tenant-add} and {@code troupe:tenant-rotate-token} on real files: the token printed once,
 * only its hash in the file, owner-only, other keys kept on rotation, and a precise error for each misuse.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class TenantCommandTest {

    private static final Pattern TOKEN_LINE = Pattern.compile("(?m)^Token: ([A-Za-z0-9_-]{43})$");

    @TempDir
    Path home;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, UTF_8);

    @Test
    void addCreatesTheTenantsFileWithTheHashOfATokenPrintedOnce() throws Exception {
        command(TenantCommand.Kind.ADD).run(out, List.of("acme"));
        String token = printedToken();
        assertTrue(printed.toString(UTF_8).contains("This token will not be shown again"), printed.toString(UTF_8));
        Path file = home.resolve("etc/io.troupe.tenant-acme.cfg");
        String content = Files.readString(file, UTF_8);
        assertFalse(content.contains(token), "never the token in the file");
        TokenHash hash = TokenHash.parse(TenantFile.valueOf(content, TenantFile.TOKEN_HASH));
        assertEquals(TokenHash.DEFAULT_ITERATIONS, hash.iterations());
        assertTrue(hash.verify(token));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void rotateReplacesOnlyTheTokenHashAndKeepsTheOtherKeys() throws Exception {
        Path file = Files.createDirectories(home.resolve("etc")).resolve("io.troupe.tenant-acme.cfg");
        Files.writeString(file, "# acme\ntoken = old-old-old-old-old-old-old-old-old\nmaxConnections = 5\n", UTF_8);
        command(TenantCommand.Kind.ROTATE_TOKEN).run(out, List.of("acme"));
        String token = printedToken();
        String content = Files.readString(file, UTF_8);
        assertTrue(content.startsWith("# acme\ntokenHash = pbkdf2-sha256$"), content);
        assertTrue(content.endsWith("\nmaxConnections = 5\n"), content);
        assertFalse(content.contains("old-old"), content);
        assertTrue(TokenHash.parse(TenantFile.valueOf(content, TenantFile.TOKEN_HASH)).verify(token));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void eachMisuseIsRefusedWithItsCodeAndNothingIsWritten() throws Exception {
        assertRefused(TenantCommand.Kind.ADD, List.of("bad id!"), "ERROR tenant.bad_id: 'bad id!' is not a tenant id "
                + "(1 to 64 of A-Z a-z 0-9 . _ -)");
        assertRefused(TenantCommand.Kind.ROTATE_TOKEN, List.of("ghost"), "ERROR tenant.unknown: no tenant 'ghost': "
                + home.resolve("etc/io.troupe.tenant-ghost.cfg")
                + " does not exist (troupe:tenant-add ghost creates it)");
        assertRefused(TenantCommand.Kind.ADD, List.of(), "ERROR tenant.usage: usage: troupe:tenant-add <tenant id>");
        command(TenantCommand.Kind.ADD).run(out, List.of("acme"));
        String before = Files.readString(home.resolve("etc/io.troupe.tenant-acme.cfg"), UTF_8);
        printed.reset();
        assertRefused(TenantCommand.Kind.ADD, List.of("acme"), "ERROR tenant.exists: tenant 'acme' exists ("
                + home.resolve("etc/io.troupe.tenant-acme.cfg") + "); troupe:tenant-rotate-token acme gives it a new "
                + "token");
        assertEquals(before, Files.readString(home.resolve("etc/io.troupe.tenant-acme.cfg"), UTF_8));
        try (var files = Files.list(home.resolve("etc"))) {
            assertEquals(1, files.count(), "no other file, no temporary file left");
        }
    }

    @Test
    void withoutAnInstallationDirectoryTheCommandsSaySo() {
        TenantCommand command = new TenantCommand(TenantCommand.Kind.ADD, null, new SecureRandom());
        TenantCommandException e = assertThrows(TenantCommandException.class, () -> command.run(out, List.of("a")));
        assertEquals(TenantCommandException.UNAVAILABLE, e.code());
        assertTrue(printed.toString(UTF_8).startsWith("ERROR tenant.unavailable: the framework property troupe.home "
                + "is not set"), printed.toString(UTF_8));
    }

    private TenantCommand command(TenantCommand.Kind kind) {
        return new TenantCommand(kind, home.toString(), new SecureRandom());
    }

    private void assertRefused(TenantCommand.Kind kind, List<Object> arguments, String line) {
        printed.reset();
        assertThrows(TenantCommandException.class, () -> command(kind).run(out, arguments));
        assertEquals(line, printed.toString(UTF_8).strip());
    }

    private String printedToken() {
        Matcher matcher = TOKEN_LINE.matcher(printed.toString(UTF_8));
        assertTrue(matcher.find(), printed.toString(UTF_8));
        String token = matcher.group(1);
        assertFalse(matcher.find(), "printed once");
        return token;
    }
}
