package io.troupe.host.reactor;

import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * A socket that takes at most {@code perWrite} bytes per write (so that buffers are written partly, as a busy
 * peer makes them) and keeps everything written, in order.
 *
 * <p><b>Threading:</b> written by the loop thread of the trial only, read by the arbiter after it.
 */
final class SinkChannel implements GatheringByteChannel {

    private final StringBuilder written = new StringBuilder();
    private final int perWrite;

    SinkChannel(int perWrite) {
        this.perWrite = perWrite;
    }

    @Override
    public long write(ByteBuffer[] sources, int offset, int length) {
        long budget = perWrite;
        long total = 0;
        for (int i = offset; i < offset + length && budget > 0; i++) {
            ByteBuffer source = sources[i];
            int take = (int) Math.min(budget, source.remaining());
            byte[] bytes = new byte[take];
            source.get(bytes);
            written.append(new String(bytes, StandardCharsets.US_ASCII));
            budget -= take;
            total += take;
        }
        return total;
    }

    @Override
    public long write(ByteBuffer[] sources) {
        return write(sources, 0, sources.length);
    }

    @Override
    public int write(ByteBuffer source) {
        return (int) write(new ByteBuffer[] {source}, 0, 1);
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {
        // nothing to release
    }

    String written() {
        return written.toString();
    }
}
