package io.troupe.benchmarks.net;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.FrameType;

/**
 * One client's protocol-v1 session, as far as {@code troupe-client bench} needs it: HELLO with the
 * configured tenant and token gets WELCOME (anything else first gets {@code auth.required}, a bad
 * tenant or token {@code auth.failed}, both closing); then REQUEST {@code echo} goes to the
 * {@link EchoService}, other names get {@code no.handler}, PING gets PONG, BYE closes once the echoes
 * requested before it are written ({@link EchoService#bye}), and types a client must not send get {@code frame.unexpected}.
 *
 * <p>Writes in the event loop are flushed once per read burst, in {@link #channelReadComplete}.
 *
 * <p><b>Threading:</b> one instance per channel, on its event loop.
 */
final class V1SessionHandler extends ChannelInboundHandlerAdapter {

    private static final byte[] ECHO = "echo".getBytes(StandardCharsets.UTF_8);
    private static final AtomicLong SESSION_IDS = new AtomicLong();

    private final InboundFrameDecoder decoder;
    private final byte[] tenant;
    private final byte[] token;
    private final String tenantId;
    private final EchoService echo;
    private boolean authenticated;
    /** An error that closes the connection was sent: later frames are ignored. */
    private boolean closing;

    V1SessionHandler(InboundFrameDecoder decoder, String tenant, String token, EchoService echo) {
        this.decoder = decoder;
        this.tenantId = tenant;
        this.tenant = tenant.getBytes(StandardCharsets.UTF_8);
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.echo = echo;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        InboundFrame frame = (InboundFrame) msg;
        if (closing) {
            frame.release();
            return;
        }
        if (frame.type() == FrameType.REQUEST.code() && authenticated && FrameWriter.nameIs(frame.name(), ECHO)) {
            echo.echo(ctx, tenantId, frame);
            return;
        }
        try {
            handleOther(ctx, frame);
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private void handleOther(ChannelHandlerContext ctx, InboundFrame frame) {
        int type = frame.type();
        if (!authenticated) {
            if (type != FrameType.HELLO.code()) {
                closeWith(ctx, frame.corrId(), ErrorCode.AUTH_REQUIRED, "HELLO first");
            } else if (FrameWriter.nameIs(frame.name(), tenant) && FrameWriter.nameIs(frame.content(), token)) {
                authenticated = true;
                decoder.authenticated();
                byte[] session = ("session-" + SESSION_IDS.incrementAndGet()).getBytes(StandardCharsets.UTF_8);
                ctx.write(FrameWriter.frame(ctx.alloc(), FrameType.WELCOME, frame.corrId(), new byte[0], session));
            } else {
                closeWith(ctx, frame.corrId(), ErrorCode.AUTH_FAILED, "unknown tenant or wrong token");
            }
            return;
        }
        if (type == FrameType.REQUEST.code()) {
            ctx.write(FrameWriter.error(ctx.alloc(), frame.corrId(), ErrorCode.NO_HANDLER,
                    "no handler for " + frame.name().toString(StandardCharsets.UTF_8)));
        } else if (type == FrameType.PING.code()) {
            ctx.write(FrameWriter.frame(ctx.alloc(), FrameType.PONG, frame.corrId(), Unpooled.EMPTY_BUFFER,
                    frame.content()));
        } else if (type == FrameType.BYE.code()) {
            echo.bye(ctx, tenantId);
        } else if (type == FrameType.HELLO.code()) {
            ctx.write(FrameWriter.error(ctx.alloc(), frame.corrId(), ErrorCode.AUTH_ALREADY, "already authenticated"));
        } else if (type != FrameType.SEND.code()) {
            ctx.write(FrameWriter.error(ctx.alloc(), frame.corrId(), ErrorCode.FRAME_UNEXPECTED,
                    "a client must not send type " + type));
        }
    }

    private void closeWith(ChannelHandlerContext ctx, long corrId, ErrorCode code, String detail) {
        closing = true;
        ctx.writeAndFlush(FrameWriter.error(ctx.alloc(), corrId, code, detail)).addListener(ChannelFutureListener.CLOSE);
    }
}
