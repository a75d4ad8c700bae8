package io.troupe.host.reactor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SocketChannel;

/**
 * A plaintext connection's socket as its loop writes to it: the heap buffers of one write are copied
 * into the loop's direct staging buffer ({@link EventLoop#writeStaging()}) and leave in one
 * {@code write} call.
 *
 * <p>The JDK makes that same copy for any heap buffer written to a socket, into temporary direct
 * buffers it caches per thread; but it takes the first cached buffer large enough, whatever its size,
 * so a gathering write that mixes small and large buffers (a large frame's header, content and CRC,
 * written without copying the content) leaves the cache without a buffer for the content at the next
 * write, and the JDK frees one and allocates another, zeroed, every time. One staging buffer per loop,
 * as large as the most {@link OutputQueue} writes at once, is copied into exactly once per byte
 * written and never reallocated. Bytes the socket did not take are copied again at the next write,
 * as the JDK's own path does.
 *
 * <p><b>Threading:</b> the connection's loop only.
 */
final class StagedChannel implements GatheringByteChannel {

    private final SocketChannel socket;
    private final EventLoop loop;

    StagedChannel(SocketChannel socket, EventLoop loop) {
        this.socket = socket;
        this.loop = loop;
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
        if (source.isDirect()) {
            return socket.write(source);
        }
        return (int) write(new ByteBuffer[] {source}, 0, 1);
    }

    @Override
    public long write(ByteBuffer[] sources) throws IOException {
        return write(sources, 0, sources.length);
    }

    @Override
    public long write(ByteBuffer[] sources, int offset, int length) throws IOException {
        ByteBuffer staging = loop.writeStaging();
        for (int i = offset; i < offset + length && staging.hasRemaining(); i++) {
            ByteBuffer source = sources[i];
            int bytes = Math.min(source.remaining(), staging.remaining());
            staging.put(staging.position(), source, source.position(), bytes);
            staging.position(staging.position() + bytes);
        }
        staging.flip();
        long written = socket.write(staging);
        for (int i = offset; i < offset + length && written > 0; i++) {
            ByteBuffer source = sources[i];
            int taken = (int) Math.min(source.remaining(), written);
            source.position(source.position() + taken);
            written -= taken;
        }
        return staging.position();
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    /** Closes the socket. */
    @Override
    public void close() throws IOException {
        socket.close();
    }
}
