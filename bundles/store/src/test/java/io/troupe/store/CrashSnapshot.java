package io.troupe.store;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The snapshots {@link CrashWriter} writes: key, version, a filler whose length varies with the version,
 * and a CRC-32C of all that, so that a snapshot read back after a crash can be checked byte for byte.
 *
 * <pre>
 *  0   4  key
 *  4   8  version
 *  12  4  filler length n (0..2047)
 *  16  n  filler: (version + i) as bytes
 *  ..  4  CRC-32C of the bytes before
 * </pre>
 *
 * <p><b>Threading:</b> stateless.
 */
final class CrashSnapshot {

    private CrashSnapshot() {
    }

    static byte[] of(int key, long version) {
        int filler = (int) (version * 31 % 2048);
        ByteBuffer buffer = ByteBuffer.allocate(16 + filler + 4);
        buffer.putInt(key).putLong(version).putInt(filler);
        for (int i = 0; i < filler; i++) {
            buffer.put((byte) (version + i));
        }
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), 0, buffer.position());
        buffer.putInt((int) crc.getValue());
        return buffer.array();
    }

    /** The version in {@code snapshot} of {@code key}; throws AssertionError when it is not intact. */
    static long versionOf(int key, byte[] snapshot) {
        ByteBuffer buffer = ByteBuffer.wrap(snapshot);
        int storedKey = buffer.getInt();
        long version = buffer.getLong();
        if (storedKey != key) {
            throw new AssertionError("snapshot of key " + key + " says key " + storedKey);
        }
        byte[] expected = of(key, version);
        if (!java.util.Arrays.equals(expected, snapshot)) {
            throw new AssertionError("snapshot of key " + key + " version " + version + " is damaged ("
                    + snapshot.length + " bytes, expected " + expected.length + ")");
        }
        return version;
    }
}
