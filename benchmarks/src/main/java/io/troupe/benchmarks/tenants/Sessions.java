package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * Opens authenticated protocol-v1 sessions on loopback: connect (TCP_NODELAY), HELLO with the
 * tenant and token, WELCOME. The channel is returned in blocking mode; a load that wants it
 * non-blocking switches it itself.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class Sessions {

    private Sessions() {
    }

    /**
     * An authenticated session of {@code tenant}.
     *
     * @param reader reads the WELCOME; keep using it on the channel, it may hold bytes read past it
     * @throws SessionRefusedException when the server answers the HELLO with an ERROR
     * @throws IOException             when connecting or the handshake fails otherwise
     */
    static SocketChannel open(int port, String tenant, String token, BlockingFrameReader reader)
            throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            writeFully(channel, FrameEncoder.encode(Frame.hello(1, tenant, token)));
            Frame answer = reader.next(channel);
            if (answer.type() == FrameType.ERROR) {
                throw new SessionRefusedException(answer.name(), answer.text());
            }
            if (answer.type() != FrameType.WELCOME) {
                throw new IOException("the server answered HELLO with " + answer.type() + " instead of WELCOME");
            }
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Writes all of {@code bytes} to a blocking channel. */
    static void writeFully(SocketChannel channel, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }
}
