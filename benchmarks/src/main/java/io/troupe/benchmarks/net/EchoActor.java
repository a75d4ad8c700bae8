package io.troupe.benchmarks.net;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.troupe.protocol.FrameType;
import org.apache.pekko.actor.AbstractActor;

/**
 * A tenant's echo handler as a Pekko classic actor: answers each {@link Echo} with a REPLY of the
 * same name and content written to the client's channel, and closes a channel on {@link Bye} after
 * the echoes it requested before (one sender's messages stay in order in the mailbox).
 *
 * <p><b>Threading:</b> an actor: one message at a time on the dispatcher's threads; Netty hands
 * the writes to the channel's event loop.
 */
final class EchoActor extends AbstractActor {

    /** A request to echo, copied out of the network buffer. */
    record Echo(Channel channel, long corrId, String name, byte[] content) {
    }

    /** The client said BYE. */
    record Bye(Channel channel) {
    }

    @Override
    public Receive createReceive() {
        return receiveBuilder()
                .match(Echo.class, this::echo)
                .match(Bye.class, bye -> bye.channel().writeAndFlush(Unpooled.EMPTY_BUFFER)
                        .addListener(ChannelFutureListener.CLOSE))
                .build();
    }

    private void echo(Echo echo) {
        Channel channel = echo.channel();
        channel.writeAndFlush(FrameWriter.frame(channel.alloc(), FrameType.REPLY, echo.corrId(),
                echo.name().getBytes(StandardCharsets.UTF_8), echo.content()), channel.voidPromise());
    }
}
