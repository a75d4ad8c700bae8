package io.troupe.store;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;

/**
 * The value stored under a key: a small header, then the snapshot's bytes as the runtime gave them.
 *
 * <pre>
 *  offset  size  field
 *  0       1     format of this value: 1
 *  1       8     written at: milliseconds since the epoch, big-endian
 *  9       n     the snapshot
 * </pre>
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class StoredValue {

    static final byte FORMAT = 1;
    static final int HEADER_BYTES = 9;

    private StoredValue() {
    }

    /** The value holding {@code snapshot}, written at {@code millis}. */
    static byte[] encode(byte[] snapshot, long millis) {
        byte[] value = new byte[HEADER_BYTES + snapshot.length];
        ByteBuffer.wrap(value).put(FORMAT).putLong(millis).put(snapshot);
        return value;
    }

    /** The snapshot in {@code value}. */
    static byte[] snapshot(byte[] value) {
        check(value);
        return Arrays.copyOfRange(value, HEADER_BYTES, value.length);
    }

    /** When {@code value} was written. */
    static Instant writtenAt(byte[] value) {
        check(value);
        return Instant.ofEpochMilli(ByteBuffer.wrap(value, 1, 8).getLong());
    }

    /** The size of the snapshot in {@code value}. */
    static int snapshotBytes(byte[] value) {
        return value.length - HEADER_BYTES;
    }

    private static void check(byte[] value) {
        if (value.length < HEADER_BYTES || value[0] != FORMAT) {
            throw new IllegalStateException("a stored value of " + value.length + " bytes in an unknown format "
                    + (value.length == 0 ? "(empty)"
                            : "(format byte " + value[0] + ", this store reads " + FORMAT + ")"));
        }
    }
}
