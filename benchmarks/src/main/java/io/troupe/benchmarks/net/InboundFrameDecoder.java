package io.troupe.benchmarks.net;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameType;

/**
 * Splits the bytes of a connection into protocol-v1 frames ({@link InboundFrame}), performing the
 * checks Troupe's server performs, in the same order: the length field (above the limit:
 * {@code frame.too_large}, before the body is read; below 22: {@code frame.malformed}), the CRC-32C,
 * the version, then the structure. A failed check is answered with ERROR and a close, and nothing
 * more is read.
 *
 * <p>The limit is 4096 bytes until {@link #authenticated()}, then 1 MiB (Troupe's defaults).
 *
 * <p><b>Threading:</b> one instance per channel, on its event loop.
 */
final class InboundFrameDecoder extends ByteToMessageDecoder {

    private static final int LENGTH = FrameDecoder.LENGTH_FIELD_BYTES;
    private static final int VERSION_AT = 4;
    private static final int TYPE_AT = 5;
    private static final int CORR_ID_AT = 8;
    private static final int NAME_LENGTH_AT = 16;
    private static final int NAME_AT = 18;
    private static final int CRC_BYTES = 4;

    private final ByteBufCrc crc = new ByteBufCrc();
    private long maxFrameBytes = FrameDecoder.PRE_AUTH_MAX_FRAME_BYTES;
    private boolean failed;

    /** Raises the limit to the post-authentication maximum. */
    void authenticated() {
        maxFrameBytes = FrameDecoder.DEFAULT_MAX_FRAME_BYTES;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= LENGTH) {
            int start = in.readerIndex();
            long length = in.getUnsignedInt(start);
            if (length > maxFrameBytes) {
                fail(ctx, in, ErrorCode.FRAME_TOO_LARGE, "length " + length + " is above " + maxFrameBytes);
                return;
            }
            if (length < FrameDecoder.MIN_LENGTH) {
                fail(ctx, in, ErrorCode.FRAME_MALFORMED, "length " + length + " is below 22");
                return;
            }
            int total = LENGTH + (int) length;
            if (in.readableBytes() < total) {
                return;
            }
            int crcAt = start + total - CRC_BYTES;
            if (crc.of(in, start + LENGTH, (int) length - CRC_BYTES) != in.getInt(crcAt)) {
                fail(ctx, in, ErrorCode.FRAME_CRC, "checksum mismatch");
                return;
            }
            if (in.getUnsignedByte(start + VERSION_AT) != 1) {
                fail(ctx, in, ErrorCode.VERSION_UNSUPPORTED, "version " + in.getUnsignedByte(start + VERSION_AT));
                return;
            }
            int type = in.getUnsignedByte(start + TYPE_AT);
            int nameLength = in.getUnsignedShort(start + NAME_LENGTH_AT);
            int contentLengthAt = start + NAME_AT + nameLength;
            if (contentLengthAt + 4 > crcAt || type < FrameType.HELLO.code() || type > FrameType.BYE.code()) {
                fail(ctx, in, ErrorCode.FRAME_MALFORMED, "bad structure or type " + type);
                return;
            }
            long contentLength = in.getUnsignedInt(contentLengthAt);
            if (contentLengthAt + 4 + contentLength != crcAt) {
                fail(ctx, in, ErrorCode.FRAME_MALFORMED, "length does not match nameLen and contentLen");
                return;
            }
            long corrId = in.getLong(start + CORR_ID_AT);
            ByteBuf name = in.retainedSlice(start + NAME_AT, nameLength);
            ByteBuf content = in.slice(contentLengthAt + 4, (int) contentLength);
            in.skipBytes(total);
            out.add(new InboundFrame(type, corrId, name, content));
        }
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, ErrorCode code, String detail) {
        failed = true;
        in.skipBytes(in.readableBytes());
        ctx.writeAndFlush(FrameWriter.error(ctx.alloc(), 0, code, detail)).addListener(ChannelFutureListener.CLOSE);
    }
}
