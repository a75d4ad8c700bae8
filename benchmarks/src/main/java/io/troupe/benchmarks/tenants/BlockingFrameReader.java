package io.troupe.benchmarks.tenants;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameException;

/**
 * Reads whole protocol-v1 frames from a blocking channel with the protocol's own
 * {@link FrameDecoder} (checksum and structure checked), growing its buffer for frames larger than
 * it, up to the decoder's limit.
 *
 * <p><b>Threading:</b> one thread at a time, like the channel it reads.
 */
final class BlockingFrameReader {

    private final FrameDecoder decoder;
    private ByteBuffer in = ByteBuffer.allocate(8192).flip();

    /** @param maxFrameBytes the largest {@code length} field accepted */
    BlockingFrameReader(int maxFrameBytes) {
        decoder = new FrameDecoder(maxFrameBytes);
    }

    /**
     * The next frame, reading as much as it takes.
     *
     * @throws EOFException when the peer closes the connection first
     * @throws IOException  when the bytes are not a valid frame, or reading fails
     */
    Frame next(ReadableByteChannel channel) throws IOException {
        while (true) {
            try {
                Frame frame = decoder.decode(in);
                if (frame != null) {
                    return frame;
                }
            } catch (FrameException e) {
                throw new IOException("the server sent a bad frame: " + e.getMessage(), e);
            }
            long length = FrameDecoder.peekLength(in);
            if (length >= 0 && length + FrameDecoder.LENGTH_FIELD_BYTES > in.capacity()) {
                ByteBuffer larger = ByteBuffer.allocate((int) length + FrameDecoder.LENGTH_FIELD_BYTES);
                larger.put(in).flip();
                in = larger;
            }
            in.compact();
            int read;
            try {
                read = channel.read(in);
            } finally {
                in.flip();
            }
            if (read < 0) {
                throw new EOFException("the server closed the connection");
            }
        }
    }
}
