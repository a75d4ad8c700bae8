package io.troupe.shell;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

import io.troupe.api.state.StateKey;

/**
 * The file {@code troupe:state-export} writes and {@code troupe:state-import} reads: one tenant's stored
 * snapshots, as the store holds them (the runtime's encoding, opaque here), in a small versioned binary
 * format. Every number is big-endian; every string is UTF-8 after its length.
 *
 * <pre>
 *  offset  size  field
 *  0       8     magic: the ASCII bytes TRPSTATE
 *  8       2     format version: 1
 *  10      2+n   tenant: unsigned 16-bit length, bytes ("" for actors of no tenant)
 *  ..      8     exported at: milliseconds since the epoch
 *  ..      4     entries: count
 *  per entry:
 *          4+n   origin: 32-bit length, bytes
 *          4+n   path: 32-bit length, bytes
 *          8     written at: milliseconds since the epoch
 *          4+n   snapshot: 32-bit length, bytes
 *  end     4     CRC-32C of every byte before it
 * </pre>
 *
 * A reader refuses a file without the magic, of another format version, cut short or with a checksum
 * that does not match, naming the file and what is wrong, before it restores anything.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param tenant     the tenant the entries belong to
 * @param exportedAt when the export was made
 * @param entries    the snapshots, ordered by key
 */
record StateArchive(String tenant, Instant exportedAt, List<Entry> entries) {

    static final byte[] MAGIC = "TRPSTATE".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;

    /**
     * One stored snapshot.
     *
     * @param key       where it is stored (its tenant is the archive's)
     * @param writtenAt when it was last written
     * @param snapshot  its bytes
     */
    record Entry(StateKey key, Instant writtenAt, byte[] snapshot) {
    }

    StateArchive {
        entries = List.copyOf(entries);
    }

    /** The bytes of this archive in format {@value #VERSION}. */
    byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(MAGIC);
            out.writeShort(VERSION);
            byte[] tenantBytes = tenant.getBytes(StandardCharsets.UTF_8);
            out.writeShort(tenantBytes.length);
            out.write(tenantBytes);
            out.writeLong(exportedAt.toEpochMilli());
            out.writeInt(entries.size());
            for (Entry entry : entries) {
                writeBytes(out, entry.key().origin().getBytes(StandardCharsets.UTF_8));
                writeBytes(out, entry.key().path().getBytes(StandardCharsets.UTF_8));
                out.writeLong(entry.writtenAt().toEpochMilli());
                writeBytes(out, entry.snapshot());
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray());
            out.writeInt((int) crc.getValue());
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        return bytes.toByteArray();
    }

    /** Writes this archive to {@code file} (a new file: a temporary one renamed at the end). */
    void write(Path file) throws IOException {
        Path temporary = file.resolveSibling("." + file.getFileName() + ".part");
        Files.write(temporary, toBytes());
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }

    /**
     * Reads the archive in {@code bytes}, from {@code file} (named in the errors).
     *
     * @throws StateCommandException {@link StateCommandException#FORMAT} when it is no archive this reads
     */
    static StateArchive read(String file, byte[] bytes) throws StateCommandException {
        if (bytes.length < MAGIC.length + 2 || !Arrays.equals(MAGIC, Arrays.copyOf(bytes, MAGIC.length))) {
            throw format(file + " is not a Troupe state export (it does not start with TRPSTATE)");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        in.position(MAGIC.length);
        int version = Short.toUnsignedInt(in.getShort());
        if (version != VERSION) {
            throw format(file + " is a Troupe state export of format version " + version + "; this Troupe reads "
                    + "version " + VERSION + " only (export it again with the Troupe that reads it)");
        }
        if (bytes.length < 4) {
            throw format(file + " is cut short");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt()) {
            throw format(file + " is damaged or cut short: its CRC-32C does not match its content");
        }
        try {
            in.limit(bytes.length - 4);
            byte[] tenantBytes = new byte[Short.toUnsignedInt(in.getShort())];
            in.get(tenantBytes);
            String tenant = new String(tenantBytes, StandardCharsets.UTF_8);
            Instant exportedAt = Instant.ofEpochMilli(in.getLong());
            int count = in.getInt();
            List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String origin = new String(readBytes(in), StandardCharsets.UTF_8);
                String path = new String(readBytes(in), StandardCharsets.UTF_8);
                Instant writtenAt = Instant.ofEpochMilli(in.getLong());
                entries.add(new Entry(new StateKey(tenant, origin, path), writtenAt, readBytes(in)));
            }
            if (in.hasRemaining()) {
                throw format(file + " has " + in.remaining() + " bytes after its " + count + " entries");
            }
            return new StateArchive(tenant, exportedAt, entries);
        } catch (RuntimeException e) {
            throw format(file + " is not a valid state export: " + e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("a length of " + length + " with " + in.remaining() + " bytes left");
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    private static StateCommandException format(String detail) {
        return new StateCommandException(StateCommandException.FORMAT, detail);
    }
}
