package io.troupe.client.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A file holding one secret (a token, a store's password) on its first line, surrounding blanks
 * ignored: how {@code troupe-client} takes secrets without putting them on its command line, where
 * {@code ps} shows them to every user.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class SecretFile {

    private SecretFile() {
    }

    /**
     * The secret in {@code file}.
     *
     * @param what what the secret is, for messages ({@code --token-file})
     * @throws UsageException when the file is missing, unreadable or its first line is blank
     */
    static String read(String what, Path file) throws UsageException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException(what + " " + file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new UsageException(what + " " + file + ": not readable (permission denied)");
        } catch (IOException e) {
            throw new UsageException(what + " " + file + ": cannot be read: " + e.getMessage());
        }
        String secret = text.lines().findFirst().orElse("").strip();
        if (secret.isEmpty()) {
            throw new UsageException(what + " " + file + ": its first line is empty");
        }
        return secret;
    }
}
