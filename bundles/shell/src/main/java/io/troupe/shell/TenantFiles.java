package io.troupe.shell;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;

import io.troupe.server.credential.SecretFile;
import io.troupe.server.credential.TenantFile;
import io.troupe.server.credential.TenantToken;
import io.troupe.server.credential.TokenHash;

/**
 * The tenant files of an installation's {@code etc/} folder, where credentials are concerned: a new tenant
 * with a new token, and a new token for an existing tenant. A token is {@link TenantToken#generate
 * generated} (256 bits, 43 URL-safe characters) and returned to be shown once; the file gets only its
 * PBKDF2 hash ({@code tokenHash}), owner-only (0600), written whole through a temporary file. FileInstall
 * then loads the file and the server applies it within seconds.
 *
 * <p><b>Threading:</b> any thread; two commands on one tenant at once: the last file written wins whole.
 */
final class TenantFiles {

    private final Path etc;
    private final SecureRandom random;

    /** @param etc the installation's {@code etc/} folder */
    TenantFiles(Path etc, SecureRandom random) {
        this.etc = etc;
        this.random = random;
    }

    /** The file of tenant {@code id}. */
    Path fileOf(String id) {
        return etc.resolve(TenantFile.fileName(id));
    }

    /**
     * Creates tenant {@code id} with a new token.
     *
     * @return the token, which is kept nowhere
     */
    String add(String id) throws TenantCommandException {
        checkId(id);
        Path file = fileOf(id);
        if (Files.exists(file)) {
            throw exists(id, file);
        }
        String token = TenantToken.generate(random);
        try {
            SecretFile.create(file, TenantFile.newTenant(id, TokenHash.of(token, random), "troupe:tenant-add"));
        } catch (FileAlreadyExistsException e) {
            throw exists(id, file);
        } catch (IOException e) {
            throw new TenantCommandException(TenantCommandException.IO, "cannot write " + file + ": " + e);
        }
        return token;
    }

    /**
     * Gives tenant {@code id} a new token, keeping every other line of its file.
     *
     * @return the token, which is kept nowhere
     */
    String rotate(String id) throws TenantCommandException {
        checkId(id);
        Path file = fileOf(id);
        String content;
        try {
            content = Files.readString(file, UTF_8);
        } catch (NoSuchFileException e) {
            throw new TenantCommandException(TenantCommandException.UNKNOWN, "no tenant '" + id + "': " + file
                    + " does not exist (troupe:tenant-add " + id + " creates it)");
        } catch (IOException e) {
            throw new TenantCommandException(TenantCommandException.IO, "cannot read " + file + ": " + e);
        }
        String token = TenantToken.generate(random);
        try {
            SecretFile.replace(file, TenantFile.withTokenHash(content, TokenHash.of(token, random)));
        } catch (IOException e) {
            throw new TenantCommandException(TenantCommandException.IO, "cannot write " + file + ": " + e);
        }
        return token;
    }

    private static void checkId(String id) throws TenantCommandException {
        if (!TenantFile.isValidId(id)) {
            throw new TenantCommandException(TenantCommandException.BAD_ID, "'" + printable(id)
                    + "' is not a tenant id (1 to 64 of A-Z a-z 0-9 . _ -)");
        }
    }

    private static TenantCommandException exists(String id, Path file) {
        return new TenantCommandException(TenantCommandException.EXISTS, "tenant '" + id + "' exists (" + file
                + "); troupe:tenant-rotate-token " + id + " gives it a new token");
    }

    private static String printable(String text) {
        if (text == null) {
            return "";
        }
        String shown = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
