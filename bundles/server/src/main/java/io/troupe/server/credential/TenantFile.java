package io.troupe.server.credential;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The text of a tenant file ({@code etc/io.troupe.tenant-<id>.cfg}, Java properties syntax as FileInstall
 * reads it) where credentials are concerned: a new tenant's file, and an existing file with its token
 * (plaintext {@value #TOKEN} or {@value #TOKEN_HASH}) replaced by a new hash, every other line (keys,
 * comments, blank lines) kept as it was.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class TenantFile {

    /** The plaintext token key (accepted once, then migrated). */
    public static final String TOKEN = "token";
    /** The hashed token key. */
    public static final String TOKEN_HASH = "tokenHash";
    /** The file name of tenant {@code <id>}: this prefix, the id, {@code .cfg}. */
    public static final String FILE_PREFIX = "io.troupe.tenant-";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private TenantFile() {
    }

    /** Whether {@code id} is a valid tenant id: 1 to 64 of {@code A-Z a-z 0-9 . _ -}. */
    public static boolean isValidId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /** {@code io.troupe.tenant-<id>.cfg}. */
    public static String fileName(String id) {
        return FILE_PREFIX + id + ".cfg";
    }

    /** A new tenant's file: its token hash, and the limits commented out at their defaults. */
    public static String newTenant(String id, TokenHash hash, String createdBy) {
        return "# Tenant '" + id + "', created by " + createdBy + ".\n"
                + "# Only a salted PBKDF2 hash of the token is kept; the token itself was shown once.\n"
                + "# A new token: troupe:tenant-rotate-token " + id + "\n"
                + TOKEN_HASH + " = " + hash.format() + "\n"
                + "# maxConnections = 1000\n"
                + "# 0 = unlimited\n"
                + "# maxRequestsPerSecond = 0\n"
                + "# maxBytesPerSecond = 0\n"
                + "# maxQueuedMessages = 0\n"
                + "# maxActors = 0\n"
                + "# weight = 1\n"
                + "# handler names the tenant may call, comma-separated; empty = all\n"
                + "# handlers =\n"
                + "# the subject a client certificate must have (mutual TLS), e.g. CN=client,O=Example\n"
                + "# certificateSubject =\n";
    }

    /**
     * {@code content} with its {@value #TOKEN} and {@value #TOKEN_HASH} entries replaced by one
     * {@code tokenHash = <hash>} line, where the first of them was (appended when there was none).
     */
    public static String withTokenHash(String content, TokenHash hash) {
        List<String> lines = content.lines().toList();
        StringBuilder result = new StringBuilder(content.length() + 128);
        boolean written = false;
        boolean continuing = false;
        boolean dropping = false;
        for (String line : lines) {
            if (continuing) {
                continuing = continues(line);
                if (!dropping) {
                    result.append(line).append('\n');
                }
                continue;
            }
            String key = keyOf(line);
            continuing = key != null && continues(line);
            dropping = TOKEN.equals(key) || TOKEN_HASH.equals(key);
            if (!dropping) {
                result.append(line).append('\n');
            } else if (!written) {
                result.append(TOKEN_HASH).append(" = ").append(hash.format()).append('\n');
                written = true;
            }
        }
        if (!written) {
            result.append(TOKEN_HASH).append(" = ").append(hash.format()).append('\n');
        }
        return result.toString();
    }

    /** The value of {@code key} in {@code content} as FileInstall reads it, or {@code null}. */
    public static String valueOf(String content, String key) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(content));
        return properties.getProperty(key);
    }

    /** The key of a natural line, or {@code null} for a comment or a blank line. */
    static String keyOf(String line) {
        int start = 0;
        while (start < line.length() && isBlank(line.charAt(start))) {
            start++;
        }
        if (start == line.length() || line.charAt(start) == '#' || line.charAt(start) == '!') {
            return null;
        }
        StringBuilder key = new StringBuilder();
        for (int i = start; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                key.append(line.charAt(++i));
            } else if (c == '=' || c == ':' || isBlank(c)) {
                break;
            } else {
                key.append(c);
            }
        }
        return key.toString();
    }

    /** Whether a line ends with an odd number of backslashes (the entry goes on on the next line). */
    private static boolean continues(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\f';
    }
}
