package io.troupe.cluster.sync;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One version of a synchronised file, as the value of {@value FolderSync#FILES} holds it.
 *
 * <pre>
 *  size  field
 *  1     format: 1
 *  8     version: 1 for the first, each change adds 1
 *  1     flags: 1 = deleted (a tombstone: no content), 2 = rollback (made because the version before failed)
 *  32    SHA-256 of the content (zeros in a tombstone)
 *  2+n   origin: the node that committed this version (length, UTF-8)
 *  4+m   content (length, bytes)
 *  4+p   previous content: what the version before held, for rolling back a failed plugin jar
 *        (length -1 and nothing when there is none: a first version, a tombstone before, a tenant file)
 * </pre>
 *
 * <p><b>Threading:</b> immutable (the arrays are not copied: never change them); any thread.
 *
 * @param sha hex SHA-256 of the content, {@code null} in a tombstone
 */
record FileRecord(long version, String origin, boolean deleted, boolean rollback, String sha, byte[] content,
                  byte[] previous) {

    static final byte FORMAT = 1;
    private static final int DELETED = 1;
    private static final int ROLLBACK = 2;
    private static final byte[] NO_SHA = new byte[32];

    FileRecord {
        Objects.requireNonNull(origin, "origin");
        if (deleted != (sha == null)) {
            throw new IllegalArgumentException("a tombstone has no sha, a file has one");
        }
        content = content == null ? new byte[0] : content;
    }

    /** Version {@code version} of a file holding {@code content}. */
    static FileRecord file(long version, String origin, boolean rollback, byte[] content, byte[] previous) {
        return new FileRecord(version, origin, false, rollback, sha(content), content, previous);
    }

    /** Version {@code version}: the file was deleted. */
    static FileRecord tombstone(long version, String origin, boolean rollback, byte[] previous) {
        return new FileRecord(version, origin, true, rollback, null, null, previous);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + content.length
                + (previous == null ? 0 : previous.length));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeLong(version);
            out.writeByte((deleted ? DELETED : 0) | (rollback ? ROLLBACK : 0));
            out.write(deleted ? NO_SHA : HexFormat.of().parseHex(sha));
            out.writeUTF(origin);
            out.writeInt(content.length);
            out.write(content);
            out.writeInt(previous == null ? -1 : previous.length);
            if (previous != null) {
                out.write(previous);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot happen in memory", e);
        }
        return bytes.toByteArray();
    }

    /**
     * The record encoded in {@code value}, found under {@code key}.
     *
     * @throws IllegalArgumentException naming the key when the value is not a record of this format
     */
    static FileRecord decode(String key, byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("the value of " + key + " in " + FolderSync.FILES
                        + " has format " + format + "; this node reads " + FORMAT);
            }
            long version = in.readLong();
            int flags = in.readByte();
            byte[] sha = in.readNBytes(32);
            String origin = in.readUTF();
            byte[] content = in.readNBytes(in.readInt());
            int previousLength = in.readInt();
            byte[] previous = previousLength < 0 ? null : in.readNBytes(previousLength);
            boolean deleted = (flags & DELETED) != 0;
            return new FileRecord(version, origin, deleted, (flags & ROLLBACK) != 0,
                    deleted ? null : HexFormat.of().formatHex(sha), content, previous);
        } catch (IOException e) {
            throw new IllegalArgumentException("the value of " + key + " in " + FolderSync.FILES + " ("
                    + value.length + " bytes) is truncated", e);
        }
    }

    /** Hex SHA-256 of {@code bytes}. */
    static String sha(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "version " + version + (deleted ? " (deleted)" : " (sha256 " + sha.substring(0, 12) + "…)")
                + (rollback ? " rollback" : "") + " from " + origin;
    }
}
