package io.troupe.client.cli;

import java.util.concurrent.ThreadLocalRandom;

/**
 * What each request of a bench run carries: fresh random bytes of a size ({@code --size}), or the same
 * bytes every time ({@code --payload TEXT} in UTF-8, {@code --payload-file F}), for a handler that
 * checks what it is given.
 *
 * <p><b>Threading:</b> immutable; {@link #next} from any thread (a fixed payload's array is shared by
 * every request and must not be changed).
 */
final class BenchPayload {

    private final byte[] fixed;
    private final int size;
    private final String origin;

    private BenchPayload(byte[] fixed, int size, String origin) {
        this.fixed = fixed;
        this.size = size;
        this.origin = origin;
    }

    /** {@code size} random bytes, new for every request. */
    static BenchPayload random(int size) {
        return new BenchPayload(null, size, "random");
    }

    /**
     * The same {@code bytes} on every request.
     *
     * @param origin how the report names them: {@code text}, {@code file /path}
     */
    static BenchPayload fixed(byte[] bytes, String origin) {
        return new BenchPayload(bytes.clone(), bytes.length, origin);
    }

    /** The content of the next request. */
    byte[] next() {
        if (fixed != null) {
            return fixed;
        }
        byte[] bytes = new byte[size];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }

    /** Bytes per request. */
    int size() {
        return size;
    }

    /** {@code random}, {@code text} or {@code file F}: the report's {@code payload:} line. */
    String origin() {
        return origin;
    }
}
