package io.troupe.cluster.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A value of the replicated map {@value ReplicatedStateStore#MAP}: when it was written, then the snapshot as
 * the runtime gave it.
 *
 * <pre>
 *  offset  size  field
 *  0       8     stamp: milliseconds since the epoch when the snapshot was written, big-endian;
 *                negative (minus the milliseconds) for a tombstone: the state was deleted then
 *  8       n     the snapshot (nothing in a tombstone)
 * </pre>
 *
 * Tombstones keep a deleted or purged state from coming back from a node's local store, which
 * {@link ReplicatedStateStore#read} falls back to only when the map has nothing for the key, and from a
 * {@link ReplicatedStateStore#seedFrom seed} of an older local copy.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class StateMapValue {

    static final int HEADER_BYTES = 8;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private StateMapValue() {
    }

    /** The value holding {@code snapshot}, written at {@code millis}: the one allocation of a write. */
    static byte[] encode(byte[] snapshot, long millis) {
        byte[] value = new byte[HEADER_BYTES + snapshot.length];
        LONG.set(value, 0, millis);
        System.arraycopy(snapshot, 0, value, HEADER_BYTES, snapshot.length);
        return value;
    }

    /** A tombstone: the state was deleted at {@code millis}. */
    static byte[] tombstone(long millis) {
        byte[] value = new byte[HEADER_BYTES];
        LONG.set(value, 0, -Math.max(1, millis));
        return value;
    }

    /** Whether {@code value} is a tombstone. */
    static boolean deleted(byte[] value) {
        return rawStamp(value) < 0;
    }

    /** When {@code value} was written (or deleted), in milliseconds since the epoch. */
    static long stamp(byte[] value) {
        return Math.abs(rawStamp(value));
    }

    /** The snapshot held by {@code value}, which is not a tombstone. */
    static byte[] snapshot(byte[] value) {
        check(value);
        return Arrays.copyOfRange(value, HEADER_BYTES, value.length);
    }

    /** The size of the snapshot held by {@code value}. */
    static int snapshotBytes(byte[] value) {
        return value.length - HEADER_BYTES;
    }

    private static long rawStamp(byte[] value) {
        check(value);
        return (long) LONG.get(value, 0);
    }

    private static void check(byte[] value) {
        if (value.length < HEADER_BYTES) {
            throw new IllegalStateException("a value of " + value.length + " bytes in the replicated state map, shorter"
                    + " than its " + HEADER_BYTES + "-byte stamp");
        }
    }
}
