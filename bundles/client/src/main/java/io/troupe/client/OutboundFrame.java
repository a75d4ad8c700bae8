package io.troupe.client;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.troupe.protocol.FrameType;

/**
 * A frame on its way from a caller to the socket: encoded on the caller's thread, queued in the
 * client's outbox, then in its connection's output queue.
 *
 * <p><b>Threading:</b> created by any thread, handed over through a concurrent queue, then confined
 * to the loop thread.
 */
final class OutboundFrame {

    final FrameType type;
    final long corrId;
    final String name;
    /** The encoded frame in read mode; the connection consumes it. */
    final ByteBuffer bytes;
    /** Completed by the answer (REQUEST, PING); null for frames that get none. */
    final CompletableFuture<byte[]> answer;
    /** Completed once the bytes are in the socket's send buffer; may be null. */
    final CompletableFuture<Void> written;

    OutboundFrame(FrameType type, long corrId, String name, ByteBuffer bytes,
            CompletableFuture<byte[]> answer, CompletableFuture<Void> written) {
        this.type = type;
        this.corrId = corrId;
        this.name = name;
        this.bytes = bytes;
        this.answer = answer;
        this.written = written;
    }

    /** Fails whichever futures the caller holds. */
    void fail(Throwable cause) {
        if (answer != null) {
            answer.completeExceptionally(cause);
        }
        if (written != null) {
            written.completeExceptionally(cause);
        }
    }

    @Override
    public String toString() {
        return type + " '" + name + "' (corrId " + Long.toUnsignedString(corrId) + ")";
    }
}
