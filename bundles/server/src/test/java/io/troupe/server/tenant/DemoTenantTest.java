package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.Test;

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

    private static Map<String, Object> read(String content) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(content));
        Map<String, Object> map = new HashMap<>();
        properties.forEach((key, value) -> map.put((String) key, value));
        map.put(TenantConfig.FILE_PROPERTY, FILE);
        return map;
    }
}
