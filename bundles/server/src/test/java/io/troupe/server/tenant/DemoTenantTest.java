package io.troupe.server.tenant;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.io.StringReader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.server.credential.TokenHash;

/**
 * The demo tenant's file, as FileInstall would read it: valid as written, and valid with every key it
 * shows in a comment switched on, so that its examples teach nothing wrong.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class DemoTenantTest {

    private static final String FILE = "file:/opt/troupe/etc/" + DemoTenant.FILE_NAME;

    @Test
    void theDemoFileIsAValidTenantWithTheDefaults() throws Exception {
        TenantConfig config = TenantConfig.from(null, read(DemoTenant.fileContent(TokenHash.parse(TestTokens.HASH))));
        assertEquals(DemoTenant.ID, config.id());
        assertEquals(new TenantLimits(1000, 0, 0, 0, 1, 0, 0, Set.of()), config.limits());
        assertEquals(TestTokens.HASH, config.tokenHash().format());
        assertFalse(DemoTenant.fileContent(TokenHash.parse(TestTokens.HASH)).contains("token ="), "no plaintext");
    }

    @Test
    void everyKeyTheDemoFileShowsInACommentIsValidWhenSwitchedOn() throws Exception {
        String switchedOn = DemoTenant.fileContent(TokenHash.parse(TestTokens.HASH))
                .replaceAll("(?m)^# ([a-zA-Z]\\w* = )", "$1");
        TenantConfig config = TenantConfig.from(null, read(switchedOn));
        assertEquals(Set.of("echo", "wordcount"), config.limits().handlers());
        assertEquals(List.of(), config.unknownKeys());
    }

    @Test
    void onFirstStartTheTenantFileHoldsTheHashAndTheTokenFileTheTokenBothOwnerOnly(@TempDir Path home)
            throws Exception {
        TenantDirectory directory = new TenantDirectory(null, System::nanoTime); // serve() never reads ConfigAdmin
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        new DemoTenant(null, directory, new SecureRandom(), new PrintStream(console, true, UTF_8)).createFile(home);

        Path file = home.resolve("etc").resolve(DemoTenant.FILE_NAME);
        Path tokenFile = home.resolve("etc").resolve(DemoTenant.TOKEN_FILE_NAME);
        String token = Files.readString(tokenFile, UTF_8).strip();
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
        String content = Files.readString(file, UTF_8);
        assertFalse(content.contains(token), "the tenant file never holds the token");
        assertTrue(TokenHash.parse(read(content).get("tokenHash").toString()).verify(token));
        assertTrue(directory.find(DemoTenant.ID).orElseThrow().config().tokenHash().verify(token), "served at once");
        for (Path secret : List.of(file, tokenFile)) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)),
                    secret::toString);
        }
        assertFalse(console.toString(UTF_8).contains(token), "the console names the token file, not the token");
    }

    private static Map<String, Object> read(String content) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(content));
        Map<String, Object> map = new HashMap<>();
        properties.forEach((key, value) -> map.put((String) key, value));
        map.put(TenantConfig.FILE_PROPERTY, FILE);
        return map;
    }
}
