package io.troupe.benchmarks.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * A Netty 4.2 server speaking protocol v1 to {@code troupe-client bench}, configured as a Netty
 * expert would for small request/response traffic: one {@link MultiThreadIoEventLoopGroup} of
 * {@code threads} loops (native epoll when available, NIO otherwise) accepting and serving,
 * pooled direct buffers, TCP_NODELAY, a listen backlog of 4096, and one flush per read burst. When
 * replies are written from other threads ({@code flushFromOtherThreads}), a
 * {@link FlushConsolidationHandler} batches their flushes.
 *
 * <p>The pipeline of a connection: [flush consolidation] → {@link InboundFrameDecoder} →
 * {@link V1SessionHandler} → the {@link EchoService}.
 *
 * <p><b>Threading:</b> {@link #start} and {@link #close} from any thread (not an event loop);
 * connections are served on the event loops.
 */
final class NettyV1Server implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel listener;
    private final EchoService echo;
    private final String transport;

    private NettyV1Server(EventLoopGroup group, Channel listener, EchoService echo, String transport) {
        this.group = group;
        this.listener = listener;
        this.echo = echo;
        this.transport = transport;
    }

    static NettyV1Server start(ServerArguments arguments, EchoService echo, boolean flushFromOtherThreads)
            throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
        SslContext ssl = arguments.tlsKeystore() == null ? null : serverContext(arguments);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(arguments.threads(), io);
        try {
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            ChannelPipeline pipeline = channel.pipeline();
                            if (ssl != null) {
                                pipeline.addLast(ssl.newHandler(channel.alloc()));
                            }
                            if (flushFromOtherThreads) {
                                pipeline.addLast(new FlushConsolidationHandler(
                                        FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
                            }
                            InboundFrameDecoder decoder = new InboundFrameDecoder();
                            pipeline.addLast(decoder);
                            pipeline.addLast(new V1SessionHandler(decoder, arguments.tenant(), arguments.token(),
                                    echo));
                        }
                    });
            Channel listener = bootstrap.bind(arguments.host(), arguments.port()).sync().channel();
            return new NettyV1Server(group, listener, echo, (epoll ? "epoll" : "nio") + ", " + arguments.threads()
                    + " event loops" + (ssl == null ? "" : ", TLS 1.3 by SslHandler on the JDK provider"));
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully();
            throw e;
        }
    }

    /** TLS 1.3 with the JDK's provider, the one Troupe uses, from the PKCS#12 keystore in the arguments. */
    private static SslContext serverContext(ServerArguments arguments) {
        try (InputStream in = Files.newInputStream(arguments.tlsKeystore())) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            char[] password = arguments.tlsPassword().toCharArray();
            keys.load(in, password);
            KeyManagerFactory factory = KeyManagerFactory.getInstance(
                    KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys, password);
            return SslContextBuilder.forServer(factory).sslProvider(SslProvider.JDK).protocols("TLSv1.3").build();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read the keystore " + arguments.tlsKeystore() + ": " + e, e);
        }
    }

    /** "epoll, 2 event loops". */
    String transport() {
        return transport;
    }

    /** Blocks until the listening channel is closed. */
    void awaitClose() throws InterruptedException {
        listener.closeFuture().sync();
    }

    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        echo.close();
    }
}
