package io.troupe.benchmarks.net;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.troupe.protocol.FrameType;

/**
 * The ceiling: the event loop writes the REPLY itself, as it decodes the REQUEST, without copying a
 * content of {@link FrameWriter#GATHER_FROM} bytes or more (the reply's header and CRC around a slice
 * of the request's bytes, one gathering write); the session flushes once per read burst
 * ({@link V1SessionHandler#channelReadComplete}).
 *
 * <p><b>Threading:</b> stateless; runs on the channel's event loop.
 */
final class InlineEcho implements EchoService {

    @Override
    public void echo(ChannelHandlerContext ctx, String tenant, InboundFrame request) {
        try {
            if (request.content().readableBytes() >= FrameWriter.GATHER_FROM) {
                FrameWriter.writeGathered(ctx, FrameType.REPLY, request.corrId(), request.name(), request.content());
            } else {
                ctx.write(FrameWriter.frame(ctx.alloc(), FrameType.REPLY, request.corrId(), request.name(),
                        request.content()), ctx.voidPromise());
            }
        } finally {
            request.release();
        }
    }

    @Override
    public void bye(ChannelHandlerContext ctx, String tenant) {
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void close() {
        // nothing to stop
    }
}
