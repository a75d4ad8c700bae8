package io.troupe.server.tenant;

import java.security.SecureRandom;

import io.troupe.server.credential.TokenHash;

/**
 * A token long enough for a tenant, and its hash with the fewest iterations allowed, so that tests that
 * configure many tenants do not each pay a real PBKDF2 hash.
 *
 * <p><b>Threading:</b> constants; any thread.
 */
public final class TestTokens {

    /** 32 characters. */
    public static final String TOKEN = "t".repeat(32);
    /** {@link #TOKEN}'s hash, {@value TokenHash#MIN_ITERATIONS} iterations. */
    public static final String HASH = TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, new SecureRandom()).format();

    private TestTokens() {
    }
}
