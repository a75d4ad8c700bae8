package io.troupe.host.supervise;

/**
 * A little heap held back from everyone else (a "ballast"), released by the fatal path just before it writes
 * its record: when the heap is exhausted, formatting and writing one log record still needs a few kilobytes,
 * and this is where they come from. Sized as {@value #HEAP_FRACTION_DIVISOR}th of the maximum heap, between
 * {@value #MIN_BYTES} and {@value #MAX_BYTES} bytes.
 *
 * <p><b>Threading:</b> {@link #release} from any thread, idempotent; the array is published through a
 * volatile field.
 */
public final class HeapReserve {

    static final int HEAP_FRACTION_DIVISOR = 64;
    static final int MIN_BYTES = 1 << 20;
    static final int MAX_BYTES = 16 << 20;

    private volatile byte[] reserve;

    private HeapReserve(int bytes) {
        this.reserve = new byte[bytes];
    }

    /** Reserves the size {@link #bytesFor} gives for this JVM's maximum heap. */
    public static HeapReserve forThisJvm() {
        return new HeapReserve(bytesFor(Runtime.getRuntime().maxMemory()));
    }

    /** The reserve for a heap of at most {@code maxHeapBytes} ({@link Long#MAX_VALUE}: no limit). */
    static int bytesFor(long maxHeapBytes) {
        return (int) Math.max(MIN_BYTES, Math.min(MAX_BYTES, maxHeapBytes / HEAP_FRACTION_DIVISOR));
    }

    /** Bytes still held: the reserve's size, or 0 once released. */
    public int held() {
        byte[] current = reserve;
        return current == null ? 0 : current.length;
    }

    /** Lets the reserve be collected. */
    public void release() {
        reserve = null;
    }
}
