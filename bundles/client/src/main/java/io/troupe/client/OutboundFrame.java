package io.troupe.client;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.troupe.protocol.FrameType;

/**
 * A frame on its way from a caller to the socket: encoded on the caller's thread, queued in the
 * client's outbox, then in its connection's output queue.
 *
 * <p>A REQUEST or PING goes to a connection as a {@linkplain #wireCopy() wire copy}: the same bytes
 * from their start and no answer future (the client's {@link PendingRequests} entry holds it), so that
 * the original can be sent again on a later connection, and a connection that closes before writing
 * it does not decide the request's fate.
 *
 * <p><b>Threading:</b> created by any thread, handed over through a concurrent queue, then confined
 * to the loop thread ({@link #markWritten()}, {@link #isWritten()} included).
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
    /** Where the frame starts in {@link #bytes}, for copies. */
    private final int start;
    /** Every byte is in the socket's send buffer: the server may have read it. */
    private boolean wrote;

    OutboundFrame(FrameType type, long corrId, String name, ByteBuffer bytes,
            CompletableFuture<byte[]> answer, CompletableFuture<Void> written) {
        this.type = type;
        this.corrId = corrId;
        this.name = name;
        this.bytes = bytes;
        this.answer = answer;
        this.written = written;
        this.start = bytes.position();
    }

    /** A copy for one connection's output queue: all the bytes, no answer future, the same written future. */
    OutboundFrame wireCopy() {
        return new OutboundFrame(type, corrId, name, bytes.duplicate().position(start), null, written);
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

    /** The connection put the last byte in the socket's send buffer. */
    void markWritten() {
        wrote = true;
    }

    boolean isWritten() {
        return wrote;
    }

    @Override
    public String toString() {
        return type + " '" + name + "' (corrId " + Long.toUnsignedString(corrId) + ")";
    }
}
