package io.troupe.benchmarks.net;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameType;

/**
 * Writes the protocol-v1 frames the benchmark servers send (REPLY, WELCOME, ERROR, PONG) into
 * pooled buffers: header, name, content, then the CRC-32C computed over the bytes just written.
 *
 * <p><b>Threading:</b> stateless apart from a per-thread {@link CRC32C}; any thread.
 */
final class FrameWriter {

    private static final ThreadLocal<ByteBufCrc> CRC = ThreadLocal.withInitial(ByteBufCrc::new);

    private FrameWriter() {
    }

    /** A frame of {@code type} whose name and content are copied from the given buffers (indexes untouched). */
    static ByteBuf frame(ByteBufAllocator alloc, FrameType type, long corrId, ByteBuf name, ByteBuf content) {
        int nameLength = name.readableBytes();
        int contentLength = content.readableBytes();
        ByteBuf out = start(alloc, type, corrId, nameLength, contentLength);
        out.writeBytes(name, name.readerIndex(), nameLength);
        out.writeInt(contentLength);
        out.writeBytes(content, content.readerIndex(), contentLength);
        return finish(out);
    }

    /** A frame of {@code type} from arrays. */
    static ByteBuf frame(ByteBufAllocator alloc, FrameType type, long corrId, byte[] name, byte[] content) {
        ByteBuf out = start(alloc, type, corrId, name.length, content.length);
        out.writeBytes(name);
        out.writeInt(content.length);
        out.writeBytes(content);
        return finish(out);
    }

    static ByteBuf error(ByteBufAllocator alloc, long corrId, ErrorCode code, String detail) {
        return frame(alloc, FrameType.ERROR, corrId, code.code().getBytes(StandardCharsets.UTF_8),
                detail.getBytes(StandardCharsets.UTF_8));
    }

    private static ByteBuf start(ByteBufAllocator alloc, FrameType type, long corrId, int nameLength,
            int contentLength) {
        int length = FrameDecoder.MIN_LENGTH + nameLength + contentLength;
        ByteBuf out = alloc.ioBuffer(FrameDecoder.LENGTH_FIELD_BYTES + length);
        out.writeInt(length);
        out.writeByte(1);
        out.writeByte(type.code());
        out.writeShort(0);
        out.writeLong(corrId);
        out.writeShort(nameLength);
        return out;
    }

    private static ByteBuf finish(ByteBuf out) {
        int from = out.readerIndex() + FrameDecoder.LENGTH_FIELD_BYTES;
        out.writeInt(CRC.get().of(out, from, out.writerIndex() - from));
        return out;
    }

    /** Whether {@code name} holds exactly the UTF-8 bytes of {@code expected}. */
    static boolean nameIs(ByteBuf name, byte[] expected) {
        if (name.readableBytes() != expected.length) {
            return false;
        }
        int from = name.readerIndex();
        for (int i = 0; i < expected.length; i++) {
            if (name.getByte(from + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }
}
