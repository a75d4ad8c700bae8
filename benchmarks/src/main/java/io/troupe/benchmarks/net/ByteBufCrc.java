package io.troupe.benchmarks.net;

import java.util.zip.CRC32C;

import io.netty.buffer.ByteBuf;

/**
 * CRC-32C (the checksum of wire protocol v1) over a range of a {@link ByteBuf}, without copying:
 * heap buffers through their array, direct ones through their NIO view.
 *
 * <p><b>Threading:</b> one instance per channel (it reuses one {@link CRC32C}); confined to the
 * channel's event loop.
 */
final class ByteBufCrc {

    private final CRC32C crc = new CRC32C();

    /** The CRC-32C of {@code length} bytes of {@code buf} from {@code index}; moves no index. */
    int of(ByteBuf buf, int index, int length) {
        crc.reset();
        add(buf, index, length);
        return (int) crc.getValue();
    }

    /** The CRC-32C of two ranges, one after the other, as if they were contiguous; moves no index. */
    int of(ByteBuf first, int firstIndex, int firstLength, ByteBuf second, int secondIndex, int secondLength) {
        crc.reset();
        add(first, firstIndex, firstLength);
        add(second, secondIndex, secondLength);
        return (int) crc.getValue();
    }

    private void add(ByteBuf buf, int index, int length) {
        if (buf.hasArray()) {
            crc.update(buf.array(), buf.arrayOffset() + index, length);
        } else if (buf.nioBufferCount() == 1) {
            crc.update(buf.internalNioBuffer(index, length));
        } else {
            for (java.nio.ByteBuffer part : buf.nioBuffers(index, length)) {
                crc.update(part);
            }
        }
    }
}
