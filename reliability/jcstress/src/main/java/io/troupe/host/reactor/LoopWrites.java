package io.troupe.host.reactor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the {@link OutputQueue} tests do as the connection's loop: one write to the socket, and the
 * arbiter's writes until the queue says it is empty; and their ASCII buffers.
 *
 * <p><b>Threading:</b> stateless; each call on the thread acting as the loop.
 */
final class LoopWrites {

    /** Writes beyond which a queue that still says it has output counts as stuck. */
    private static final int MAX_DRAIN_WRITES = 10;

    private LoopWrites() {
    }

    /** One gathering write of the queue to the socket. */
    static void writeOnce(OutputQueue queue, SinkChannel socket) {
        try {
            queue.writeTo(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes until the queue says it is empty, a bounded number of times. */
    static void drain(OutputQueue queue, SinkChannel socket) {
        for (int i = 0; i < MAX_DRAIN_WRITES && !queue.isEmpty(); i++) {
            writeOnce(queue, socket);
        }
    }

    static ByteBuffer ascii(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }
}
