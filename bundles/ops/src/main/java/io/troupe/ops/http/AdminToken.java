package io.troupe.ops.http;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The admin token: the secret that opens every path of the HTTP endpoint but {@code /health}, given as
 * {@code Authorization: Bearer <token>}, or through the console's cookie, whose value is derived from the
 * token ({@link #cookieValue()}) so that the cookie never carries the token itself and stops working when
 * the token changes.
 *
 * <p>Comparisons take the same time whatever the candidate: both sides are hashed (SHA-256) and the digests
 * compared with {@link MessageDigest#isEqual}, so neither the content nor the length of the token leaks
 * through timing.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public final class AdminToken {

    /** The fewest characters a token may have: an operator's own token shorter than this is refused. */
    public static final int MIN_LENGTH = 16;
    private static final int GENERATED_BYTES = 32;
    private static final String COOKIE_PURPOSE = "troupe-console-session-v1";

    private final byte[] digest;
    private final String cookieValue;

    private AdminToken(String token) {
        this.digest = sha256(token);
        this.cookieValue = hmac(token, COOKIE_PURPOSE);
    }

    /**
     * The token {@code text}.
     *
     * @throws IllegalArgumentException when it is shorter than {@value #MIN_LENGTH} characters or holds a blank
     */
    public static AdminToken of(String text) {
        Objects.requireNonNull(text, "text");
        if (text.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("shorter than " + MIN_LENGTH + " characters");
        }
        if (text.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("holds a blank");
        }
        return new AdminToken(text);
    }

    /** A new random token: 32 bytes from {@link SecureRandom}, in URL-safe Base64 (43 characters). */
    public static String generate() {
        byte[] bytes = new byte[GENERATED_BYTES];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether {@code candidate} is this token; {@code null} is not. Constant time. */
    public boolean matches(String candidate) {
        return candidate != null && MessageDigest.isEqual(digest, sha256(candidate));
    }

    /** Whether {@code candidate} is the console cookie's value for this token; {@code null} is not. Constant time. */
    public boolean matchesCookie(String candidate) {
        return candidate != null && MessageDigest.isEqual(sha256(cookieValue), sha256(candidate));
    }

    /** The value of the console's cookie: HMAC-SHA256 of a fixed purpose keyed by the token, URL-safe Base64. */
    public String cookieValue() {
        return cookieValue;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String hmac(String key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] value = mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }

    /** Never the token. */
    @Override
    public String toString() {
        return "AdminToken[***]";
    }
}
