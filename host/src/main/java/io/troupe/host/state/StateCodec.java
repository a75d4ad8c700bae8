package io.troupe.host.state;

import java.util.Objects;

/**
 * The one encoding of actor state, for the state store and anything else that keeps or moves what
 * {@link io.troupe.api.Actor#exportState} returns: a versioned binary format of Troupe's own (no Java
 * serialization, no class loaded by a name read from the bytes but {@code java.*} enums).
 * {@code docs/state-format.md} is its specification; in short:
 *
 * <pre>
 * state   = 'T' 'S' version(1 byte, = 1) value          nothing may follow the value
 * value   = tag(1 byte) payload
 *   0x00 null            0x01 false           0x02 true
 *   0x03 Byte   1 byte   0x04 Short  zigzag   0x05 Integer zigzag   0x06 Long zigzag
 *   0x07 Float  4 bytes  0x08 Double 8 bytes (raw IEEE 754 bits, big-endian: NaN payloads survive)
 *   0x09 Character uvarint   0x0A String str   0x0B BigInteger bytes (two's complement, big-endian)
 *   0x0C BigDecimal zigzag(scale) bytes(unscaled)
 *   0x10 byte[] bytes    0x11 boolean[] n (0|1)*n   0x12 short[] n zigzag*n   0x13 int[] n zigzag*n
 *   0x14 long[] n zigzag*n   0x15 float[] n 4*n   0x16 double[] n 8*n   0x17 char[] n uvarint*n
 *   0x18 Object[] n value*n   0x19 typed array str(component class name) n value*n
 *   0x20 List n value*n  0x21 Set n value*n  0x22 Map n (key value)*n     (n: uvarint count)
 *   0x23 Optional.empty  0x24 Optional value
 *   0x30 Instant zigzag(seconds) uvarint(nanos)   0x31 Duration zigzag(seconds) uvarint(nanos)
 *   0x32 UUID 8 bytes (most significant) 8 bytes (least)   0x33 enum of java.* str(class) str(constant)
 *   0x40 Message str(name) bytes(content)   0x41 Failure str(code) str(detail)
 * uvarint = unsigned LEB128 (7 bits a byte, low group first, high bit = more)
 * zigzag  = uvarint of (v &lt;&lt; 1) ^ (v &gt;&gt; 63), for a long (31 for an int, short)
 * bytes   = uvarint length, then the bytes;  str = bytes of UTF-8 (a lone surrogate as its 3-byte form)
 * </pre>
 *
 * <p>Decoding gives back equal values: every {@code List} as an {@link java.util.ArrayList}, every
 * {@code Set} as a {@link java.util.LinkedHashSet}, every {@code Map} as a {@link java.util.LinkedHashMap},
 * in the iteration order they had (a sorted collection becomes its insertion-ordered equivalent with
 * equal content), arrays with their component type, a {@code Message} without its client (a network
 * session does not outlive the process). Anything else is refused with an
 * {@link UnstorableStateException} naming the actor, the type and where it sits; bytes that cannot be
 * decoded with an {@link UnreadableStateException}; a higher version than {@value StateFormat#VERSION}
 * is refused, never guessed at.
 *
 * <p><b>Size:</b> a counter whose state is a {@code Long} of 1,234 is 6 bytes ({@code 54 53 01 06 a4 13});
 * a map {@code {"total"=1234L, "updates"=17}} is 26 bytes (checked by {@code StateCodecSizeTest}).
 *
 * <p><b>Cost:</b> one growable buffer per encode (doubling from 64 bytes) and one copy to the exact
 * length; no stream, no object per leaf value written. Decoding allocates the values it returns, and
 * checks every length against the bytes left before allocating.
 *
 * <p><b>Threading:</b> stateless and immutable: one instance may be used from any thread, concurrently.
 * The state being encoded must not change meanwhile (it is the actor's, read on its turn); a collection
 * seen to change is refused.
 */
public final class StateCodec {

    private static final int INITIAL_CAPACITY = 64;

    /**
     * Encodes {@code state}.
     *
     * @param actor names the actor in errors, e.g. {@code handler:counter.add@acme}
     * @throws UnstorableStateException when the state holds a type the format does not store, a cycle,
     *                                  nesting deeper than 512 levels, a collection that changed while it
     *                                  was read, or more than 2 GB
     */
    public byte[] encode(Object state, String actor) {
        Objects.requireNonNull(actor, "actor");
        StateBuffer out = new StateBuffer(INITIAL_CAPACITY);
        out.writeByte(StateFormat.MAGIC_0);
        out.writeByte(StateFormat.MAGIC_1);
        out.writeByte(StateFormat.VERSION);
        try {
            new StateEncoder(out).write(state);
        } catch (StateFault fault) {
            throw new UnstorableStateException(actor, fault);
        }
        return out.toByteArray();
    }

    /**
     * Decodes what {@link #encode} wrote.
     *
     * @param actor names the actor in errors
     * @throws UnreadableStateException when the bytes are not a state, are truncated or corrupt, or were
     *                                  written by a newer version of the format
     */
    public Object decode(byte[] bytes, String actor) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(actor, "actor");
        requireHeader(bytes, actor);
        StateInput in = new StateInput(bytes, StateFormat.HEADER_LENGTH);
        try {
            Object state = new StateDecoder(in).read();
            if (in.remaining() != 0) {
                throw StateFault.unreadable(in.position(), in.remaining() + " bytes follow the end of the state");
            }
            return state;
        } catch (StateFault fault) {
            throw new UnreadableStateException(actor, bytes.length, fault);
        }
    }

    private static void requireHeader(byte[] bytes, String actor) {
        if (bytes.length < StateFormat.HEADER_LENGTH) {
            throw new UnreadableStateException(actor, "stored state of " + bytes.length + " bytes is truncated:"
                    + " it has no room for the 3-byte header");
        }
        if (bytes[0] != StateFormat.MAGIC_0 || bytes[1] != StateFormat.MAGIC_1) {
            throw new UnreadableStateException(actor, String.format("stored state is not in the state format: it"
                    + " starts with 0x%02x 0x%02x, not 'T' 'S'", bytes[0] & 0xFF, bytes[1] & 0xFF));
        }
        int version = bytes[2] & 0xFF;
        if (version > StateFormat.VERSION) {
            throw new UnreadableStateException(actor, "stored state is in state format version " + version
                    + ", newer than this Troupe reads (up to " + StateFormat.VERSION + "): run a Troupe that"
                    + " reads it, or restore a backup this version wrote");
        }
        if (version == 0) {
            throw new UnreadableStateException(actor, "stored state has version 0, which no Troupe writes");
        }
    }
}
