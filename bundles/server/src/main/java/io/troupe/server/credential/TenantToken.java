package io.troupe.server.credential;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * What a tenant token must be, and how Troupe makes one: {@value #RANDOM_BYTES} bytes (256 bits) from
 * {@link SecureRandom}, in URL-safe base64 without padding: {@value #GENERATED_LENGTH} characters of
 * {@code A-Z a-z 0-9 - _}. A configured token must have at least {@value #MIN_LENGTH} characters.
 *
 * <p><b>Threading:</b> stateless; any thread ({@link SecureRandom} is thread-safe).
 */
public final class TenantToken {

    /** The fewest characters a token may have. */
    public static final int MIN_LENGTH = 32;
    /** Random bytes in a generated token. */
    public static final int RANDOM_BYTES = 32;
    /** Characters of a generated token. */
    public static final int GENERATED_LENGTH = 43;

    private TenantToken() {
    }

    /** A new random token. */
    public static String generate(SecureRandom random) {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Why {@code token} may not be used, or {@code null} when it may. Never quotes the token. */
    public static String problemWith(String token) {
        if (token.length() < MIN_LENGTH) {
            return "the token has " + token.length() + " characters; at least " + MIN_LENGTH
                    + " are required (generate one with troupe:tenant-rotate-token)";
        }
        return null;
    }
}
