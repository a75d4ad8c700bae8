package io.troupe.server.credential;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A tenant token as it is stored: salted and stretched with PBKDF2-HMAC-SHA256, written as
 *
 * <pre>
 *   pbkdf2-sha256$&lt;iterations&gt;$&lt;salt, base64&gt;$&lt;hash, base64&gt;
 *   pbkdf2-sha256$600000$3q2+7wAAAAAAAAAAAAAAAA==$gSx1...=      (16-byte salt, 32-byte hash, standard base64)
 * </pre>
 *
 * <p>PBKDF2WithHmacSHA256 is the JDK's own ({@code javax.crypto}): no dependency, present in every JDK,
 * and approved by FIPS 140 (NIST SP 800-132). {@value #DEFAULT_ITERATIONS} iterations is OWASP's figure for
 * PBKDF2-HMAC-SHA256; one verification costs about 190 ms of one core on the 2-core machine Troupe is
 * tested on, so an offline guesser with the file gets about 5 guesses per second and core, while the
 * server verifies a token once per tenant and process (later HELLOs hit a cache) on threads of its own,
 * never on an IO loop. A parsed hash may have from {@value #MIN_ITERATIONS} (RFC 8018's floor) to
 * {@value #MAX_ITERATIONS} iterations, so that a hand-made file can neither be trivially weak nor stall
 * the verifier.
 *
 * <p>Tokens are compared as their UTF-8 bytes; the hashes in constant time ({@link MessageDigest#isEqual}).
 *
 * <p><b>Threading:</b> immutable; any thread. {@link #of} and {@link #verify} take the full PBKDF2 time.
 */
public final class TokenHash {

    /** The scheme that opens the stored form. */
    public static final String SCHEME = "pbkdf2-sha256";
    /** Iterations of hashes made here. */
    public static final int DEFAULT_ITERATIONS = 600_000;
    /** The fewest iterations a stored hash may have. */
    public static final int MIN_ITERATIONS = 1_000;
    /** The most iterations a stored hash may have. */
    public static final int MAX_ITERATIONS = 10_000_000;
    /** Bytes of salt. */
    public static final int SALT_BYTES = 16;
    /** Bytes of the derived hash. */
    public static final int HASH_BYTES = 32;

    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final char SEPARATOR = '$';

    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private TokenHash(int iterations, byte[] salt, byte[] hash) {
        this.iterations = iterations;
        this.salt = salt;
        this.hash = hash;
    }

    /** Hashes {@code token} with a new random salt and {@value #DEFAULT_ITERATIONS} iterations. */
    public static TokenHash of(String token, SecureRandom random) {
        return of(token, DEFAULT_ITERATIONS, random);
    }

    /** Hashes {@code token} with a new random salt and {@code iterations} (within the bounds). */
    public static TokenHash of(String token, int iterations, SecureRandom random) {
        Objects.requireNonNull(token, "token");
        checkIterations(iterations);
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        return new TokenHash(iterations, salt, derive(token.toCharArray(), salt, iterations));
    }

    /**
     * Reads the stored form.
     *
     * @throws IllegalArgumentException saying exactly what is wrong (never echoing the hash itself)
     */
    public static TokenHash parse(String stored) {
        Objects.requireNonNull(stored, "stored");
        String[] parts = stored.strip().split("\\$", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("expected " + SCHEME + "$<iterations>$<salt base64>$<hash base64> "
                    + "(4 fields separated by '$'), found " + parts.length + " field(s)");
        }
        if (!SCHEME.equals(parts[0])) {
            throw new IllegalArgumentException("unknown scheme '" + printable(parts[0]) + "' (only " + SCHEME
                    + " is supported)");
        }
        int iterations;
        try {
            iterations = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("iterations '" + printable(parts[1]) + "' is not an integer");
        }
        checkIterations(iterations);
        byte[] salt = decode("salt", parts[2], SALT_BYTES);
        byte[] hash = decode("hash", parts[3], HASH_BYTES);
        return new TokenHash(iterations, salt, hash);
    }

    /** Whether {@code token} (its UTF-8 bytes) is the token hashed here; takes the full PBKDF2 time. */
    public boolean verify(byte[] token) {
        char[] chars = decodeUtf8(token);
        boolean valid = chars != null;
        byte[] candidate = derive(valid ? chars : new char[0], salt, iterations);
        return MessageDigest.isEqual(hash, candidate) & valid;
    }

    /** Whether {@code token} is the token hashed here; takes the full PBKDF2 time. */
    public boolean verify(String token) {
        return verify(token.getBytes(UTF_8));
    }

    public int iterations() {
        return iterations;
    }

    /** The stored form: {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}. */
    public String format() {
        Base64.Encoder base64 = Base64.getEncoder();
        return SCHEME + SEPARATOR + iterations + SEPARATOR + base64.encodeToString(salt) + SEPARATOR
                + base64.encodeToString(hash);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TokenHash that && iterations == that.iterations
                && MessageDigest.isEqual(salt, that.salt) && MessageDigest.isEqual(hash, that.hash);
    }

    @Override
    public int hashCode() {
        return 31 * iterations + Arrays.hashCode(salt);
    }

    /** Never the hash: it is what an offline guesser needs. */
    @Override
    public String toString() {
        return "TokenHash[" + SCHEME + ", " + iterations + " iterations]";
    }

    private static void checkIterations(int iterations) {
        if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("iterations " + iterations + " is out of range (" + MIN_ITERATIONS
                    + " to " + MAX_ITERATIONS + ")");
        }
    }

    private static byte[] decode(String what, String base64, int length) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the " + what + " is not valid base64 (" + e.getMessage() + ")");
        }
        if (bytes.length != length) {
            throw new IllegalArgumentException("the " + what + " has " + bytes.length + " bytes, not " + length);
        }
        return bytes;
    }

    private static byte[] derive(char[] token, byte[] salt, int iterations) {
        KeySpec spec = new PBEKeySpec(token, salt, iterations, HASH_BYTES * 8);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has " + ALGORITHM, e);
        } finally {
            Arrays.fill(token, '\0');
        }
    }

    /** The characters of {@code bytes}, or {@code null} when they are not UTF-8. */
    private static char[] decodeUtf8(byte[] bytes) {
        try {
            CharBuffer chars = UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            char[] result = new char[chars.remaining()];
            chars.get(result);
            return result;
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static String printable(String text) {
        String shown = text.length() > 32 ? text.substring(0, 32) + "..." : text;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
