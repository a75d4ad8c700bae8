package io.troupe.benchmarks.net;

import io.netty.channel.ChannelHandlerContext;

/**
 * Answers an authenticated client's {@code echo} REQUEST with a REPLY carrying the same name and
 * content: in the event loop ({@link InlineEcho}) or through an actor ({@link PekkoEcho}).
 *
 * <p><b>Threading:</b> {@link #echo} is called on the channel's event loop; implementations say
 * where the reply is written from.
 */
interface EchoService {

    /**
     * Answers {@code request}, taking over its reference (releasing it when done).
     *
     * @param tenant the tenant the connection authenticated as
     */
    void echo(ChannelHandlerContext ctx, String tenant, InboundFrame request);

    /**
     * The client said BYE: close the channel once every echo requested before it is written.
     *
     * @param tenant the tenant the connection authenticated as
     */
    void bye(ChannelHandlerContext ctx, String tenant);

    /** Stops whatever the service started; called once the server has closed. */
    void close();
}
