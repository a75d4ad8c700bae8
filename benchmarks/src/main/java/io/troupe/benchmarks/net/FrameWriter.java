package io.troupe.benchmarks.net;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameType;

/**
 * Writes the protocol-v1 frames the benchmark servers send (REPLY, WELCOME, ERROR, PONG) into
 * pooled buffers: header, name, content, then the CRC-32C computed over the bytes just written; or, for
 * a large content, around it without copying it ({@link #writeGathered}).
 *
 * <p><b>Threading:</b> stateless apart from a per-thread {@link CRC32C}; any thread.
 */
final class FrameWriter {

    /** Content size from which {@link #writeGathered} beats copying the content into one buffer. */
    static final int GATHER_FROM = 1024;
    private static final int CRC_BYTES = 4;
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

    /**
     * Writes to {@code ctx} (without flushing) a frame of {@code type} whose name is copied and whose content
     * is not: a header buffer, a retained slice of {@code content}, and the CRC in a buffer of its own, which
     * the channel sends with one gathering write. Worth it for large contents only ({@link #GATHER_FROM});
     * below, copying the content is cheaper than the two extra buffers.
     */
    static void writeGathered(ChannelHandlerContext ctx, FrameType type, long corrId, ByteBuf name, ByteBuf content) {
        int nameLength = name.readableBytes();
        int contentLength = content.readableBytes();
        int headLength = FrameDecoder.LENGTH_FIELD_BYTES + FrameDecoder.MIN_LENGTH - CRC_BYTES + nameLength;
        ByteBuf head = start(ctx.alloc(), headLength, type, corrId, nameLength, contentLength);
        head.writeBytes(name, name.readerIndex(), nameLength);
        head.writeInt(contentLength);
        int from = head.readerIndex() + FrameDecoder.LENGTH_FIELD_BYTES;
        int crc = CRC.get().of(head, from, head.writerIndex() - from, content, content.readerIndex(), contentLength);
        ctx.write(head, ctx.voidPromise());
        ctx.write(content.retainedSlice(), ctx.voidPromise());
        ctx.write(ctx.alloc().ioBuffer(CRC_BYTES).writeInt(crc), ctx.voidPromise());
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
        return start(alloc, FrameDecoder.LENGTH_FIELD_BYTES + length, type, corrId, nameLength, contentLength);
    }

    /** A buffer of {@code capacity} holding the frame's header up to its name. */
    private static ByteBuf start(ByteBufAllocator alloc, int capacity, FrameType type, long corrId, int nameLength,
            int contentLength) {
        int length = FrameDecoder.MIN_LENGTH + nameLength + contentLength;
        ByteBuf out = alloc.ioBuffer(capacity);
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
