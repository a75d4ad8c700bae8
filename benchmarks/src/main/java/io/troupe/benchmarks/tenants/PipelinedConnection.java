package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Iterator;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameException;
import io.troupe.protocol.FrameType;

/**
 * One of tenant A's connections, non-blocking, on {@link PipelinedLoad}'s selector: it keeps
 * {@code inFlight} requests outstanding, each answer sending the same request again.
 *
 * <p>Kept lean, since it shares the machine with the server: request {@code i} is encoded once, with
 * corrId {@code i + 1}, into a direct buffer, and resent from it (corrIds stay unique among the
 * requests in flight); writes gather up to {@value #GATHER} queued requests in one call. Answers are
 * read through a 64 KiB buffer: a REPLY is counted from its first 16 bytes (length, type, corrId) and
 * the rest of it skipped as it streams past, without a copy or a checksum; any other frame (an ERROR,
 * a BYE) is decoded whole by the protocol's {@link FrameDecoder}.
 *
 * <p><b>Threading:</b> confined to the selector thread after {@link #register}.
 */
final class PipelinedConnection {

    /** Requests written by one gathering write at most. */
    private static final int GATHER = 64;
    /** Length, version, type, flags and corrId: what a REPLY is counted from. */
    private static final int HEADER_BYTES = 16;
    private static final int TYPE_OFFSET = 5;
    private static final int CORR_ID_OFFSET = 8;

    /** What the connection reports to its load. */
    interface Listener {
        /** A REPLY arrived at {@code nanoTime}. */
        void replied(long nanoTime);

        /** An ERROR frame with {@code code} arrived. */
        void failed(String code);
    }

    private final SocketChannel channel;
    private final ByteBuffer[] requests;
    private final ArrayDeque<ByteBuffer> queued = new ArrayDeque<>();
    private final ByteBuffer[] gather = new ByteBuffer[GATHER];
    private final ByteBuffer in = ByteBuffer.allocate(64 * 1024);
    private final FrameDecoder decoder = new FrameDecoder(FrameDecoder.MAX_LENGTH);
    private SelectionKey key;
    /** Bytes of the REPLY being skipped that have not arrived yet. */
    private long skip;

    /** @param channel an authenticated session, in blocking mode still */
    PipelinedConnection(SocketChannel channel, LoadShape shape) {
        this.channel = channel;
        this.requests = new ByteBuffer[shape.inFlight()];
        byte[] payload = shape.payload();
        for (int i = 0; i < requests.length; i++) {
            ByteBuffer encoded = FrameEncoder.encode(Frame.request(i + 1, shape.handler(), payload));
            requests[i] = ByteBuffer.allocateDirect(encoded.remaining()).put(encoded).flip();
        }
    }

    /** Switches to non-blocking mode, registers with {@code selector} and sends every request. */
    void register(Selector selector) throws IOException {
        channel.configureBlocking(false);
        key = channel.register(selector, SelectionKey.OP_READ, this);
        for (ByteBuffer request : requests) {
            queued.addLast(request.rewind());
        }
        flush();
    }

    /** Handles what the selector reported; returns false once the server closed the connection. */
    boolean ready(long nanoTime, Listener listener) throws IOException {
        if (key.isReadable()) {
            int read = channel.read(in);
            if (read < 0) {
                return false;
            }
            in.flip();
            try {
                scan(nanoTime, listener);
            } finally {
                in.compact();
            }
        }
        flush();
        return true;
    }

    void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing at the end of a run: nothing left to tell
        }
    }

    private void scan(long nanoTime, Listener listener) throws IOException {
        while (true) {
            if (skip > 0) {
                int step = (int) Math.min(skip, in.remaining());
                in.position(in.position() + step);
                skip -= step;
                if (skip > 0) {
                    return;
                }
            }
            if (in.remaining() < HEADER_BYTES) {
                return;
            }
            int at = in.position();
            long length = Integer.toUnsignedLong(in.getInt(at));
            int type = in.get(at + TYPE_OFFSET) & 0xFF;
            long corrId = in.getLong(at + CORR_ID_OFFSET);
            if (type == FrameType.REPLY.code()) {
                skip = FrameDecoder.LENGTH_FIELD_BYTES + length;
                listener.replied(nanoTime);
                answered(corrId);
                continue;
            }
            if (length + FrameDecoder.LENGTH_FIELD_BYTES > in.capacity()) {
                throw new IOException("a frame of type " + type + " and " + length + " bytes instead of a REPLY");
            }
            Frame frame;
            try {
                frame = decoder.decode(in);
            } catch (FrameException e) {
                throw new IOException("the server sent a bad frame: " + e.getMessage(), e);
            }
            if (frame == null) {
                return;
            }
            if (frame.type() != FrameType.ERROR) {
                throw new IOException("the server sent " + frame.type() + " (" + frame.text() + ")");
            }
            listener.failed(frame.name());
            if (frame.corrId() != 0) {
                answered(frame.corrId());
            }
        }
    }

    private void answered(long corrId) throws IOException {
        if (corrId < 1 || corrId > requests.length) {
            throw new IOException("an answer to corrId " + corrId + ", which was never sent");
        }
        queued.addLast(requests[(int) corrId - 1].rewind());
    }

    private void flush() throws IOException {
        while (!queued.isEmpty()) {
            int count = 0;
            for (Iterator<ByteBuffer> it = queued.iterator(); it.hasNext() && count < GATHER;) {
                gather[count++] = it.next();
            }
            long written = channel.write(gather, 0, count);
            while (!queued.isEmpty() && !queued.peekFirst().hasRemaining()) {
                queued.pollFirst();
            }
            if (written == 0 || (!queued.isEmpty() && count < GATHER)) {
                break;
            }
        }
        int interest = queued.isEmpty() ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE;
        if (key.interestOps() != interest) {
            key.interestOps(interest);
        }
    }
}
