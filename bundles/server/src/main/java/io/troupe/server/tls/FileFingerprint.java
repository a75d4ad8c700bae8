package io.troupe.server.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * What a set of files holds now: each file's SHA-256 (or that it is missing or unreadable). Two
 * fingerprints differ when any file's content changed, whatever its size and modification time say
 * (a copy within the same second with the same size still counts).
 *
 * <p><b>Threading:</b> immutable; {@link #of} reads the files (small stores: a few KiB each).
 */
record FileFingerprint(List<String> digests) {

    FileFingerprint {
        digests = List.copyOf(digests);
    }

    static FileFingerprint of(List<Path> files) {
        List<String> digests = new ArrayList<>(files.size());
        for (Path file : files) {
            digests.add(file + "=" + digest(file));
        }
        return new FileFingerprint(digests);
    }

    private static String digest(Path file) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(Files.readAllBytes(file)));
        } catch (NoSuchFileException e) {
            return "missing";
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
