package io.troupe.host.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One block of the record queue: a byte array that producers fill front to back by claiming ranges
 * with a CAS, and that the logger thread writes out once it is sealed and every claimed range is
 * copied.
 *
 * <pre>
 *  bytes   [ rec 1 | rec 2 | rec 3 (being copied) |       free        ]
 *          0                                       ^claimed           ^capacity
 *  claimed: bytes handed out; bit 30 = SEALED, after which no claim succeeds and the
 *           low bits are frozen: they are the segment's final length
 *  published: bytes whose copy is complete; the segment is ready when it is sealed and
 *           published == length
 * </pre>
 *
 * Successful claims are contiguous from 0 (a claim that does not fit fails without moving
 * {@code claimed}), so the bytes {@code [0, length)} are whole records in claim order.
 *
 * <p>Threading: {@link #claim} and {@link #publish} from any producer; {@link #seal} from any
 * thread, and exactly one caller learns that it sealed the segment: that caller links the
 * {@link #next} segment. {@code next} is written once by that caller and read by the logger thread.
 * A producer's copy happens-before the logger thread's read through the volatile {@code published}.
 */
final class Segment {

    /** Above every capacity, so a sealed {@code claimed} never leaves room for a claim. */
    static final int SEALED = 1 << 30;
    static final int MAX_CAPACITY = SEALED - 1;

    private static final VarHandle CLAIMED;
    private static final VarHandle PUBLISHED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CLAIMED = lookup.findVarHandle(Segment.class, "claimed", int.class);
            PUBLISHED = lookup.findVarHandle(Segment.class, "published", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final byte[] EMPTY = new byte[0];

    enum Kind {
        /** Takes records. */
        OPEN,
        /** Stands for a full queue: records offered while it is current are dropped and counted. */
        DROPPING,
        /** Stands for a stopped logger: records offered while it is current go elsewhere. */
        CLOSED
    }

    final byte[] bytes;
    final Kind kind;
    /** A producer whose claim crosses this offset wakes the logger thread. */
    final int wakeAt;
    private volatile int claimed;
    private volatile int published;
    /** The successor in the queue; set once by whoever sealed this segment (or by the logger thread). */
    volatile Segment next;
    /** Logger-thread confined: whether {@link #bytes} went to the outputs already. */
    boolean written;

    Segment(byte[] bytes, int wakeAt) {
        this.bytes = bytes;
        this.kind = Kind.OPEN;
        this.wakeAt = wakeAt;
    }

    private Segment(Kind kind) {
        this.bytes = EMPTY;
        this.kind = kind;
        this.wakeAt = Integer.MAX_VALUE;
        this.claimed = SEALED;
    }

    /** A sealed, empty stand-in of the given kind. */
    static Segment marker(Kind kind) {
        return new Segment(kind);
    }

    int capacity() {
        return bytes.length;
    }

    /** The offset reserved for {@code length} bytes, or -1 if the segment is sealed or too full. */
    int claim(int length) {
        for (;;) {
            int at = claimed;
            if ((at & SEALED) != 0 || length > bytes.length - at) {
                return -1;
            }
            if (CLAIMED.weakCompareAndSet(this, at, at + length)) {
                return at;
            }
        }
    }

    /** Marks {@code length} claimed bytes as copied. */
    void publish(int length) {
        PUBLISHED.getAndAdd(this, length);
    }

    /**
     * Seals the segment: no claim succeeds afterwards.
     *
     * @return the final length if this call sealed it, or -1 if it was sealed already
     */
    int seal() {
        int before = (int) CLAIMED.getAndBitwiseOr(this, SEALED);
        return (before & SEALED) != 0 ? -1 : before;
    }

    boolean isSealed() {
        return (claimed & SEALED) != 0;
    }

    /** Bytes claimed so far; final once sealed. */
    int length() {
        return claimed & ~SEALED;
    }

    /** Whether the segment is sealed and every claimed range is copied. */
    boolean isComplete() {
        int c = claimed;
        return (c & SEALED) != 0 && published == (c & ~SEALED);
    }
}
