package io.troupe.benchmarks.net;

import io.netty.buffer.ByteBuf;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;

/**
 * One checked protocol-v1 frame read from a client: its header fields, and its name and content as
 * slices of the bytes received (no copy). Releasing it releases those bytes.
 *
 * <p><b>Threading:</b> created on the channel's event loop; may be handed to another thread with its
 * reference, which that thread then releases.
 */
final class InboundFrame extends AbstractReferenceCounted {

    private final int type;
    private final long corrId;
    private final ByteBuf name;
    private final ByteBuf content;

    /**
     * @param name    a retained slice; owned by this frame
     * @param content a slice of the same retained bytes (not retained again)
     */
    InboundFrame(int type, long corrId, ByteBuf name, ByteBuf content) {
        this.type = type;
        this.corrId = corrId;
        this.name = name;
        this.content = content;
    }

    int type() {
        return type;
    }

    long corrId() {
        return corrId;
    }

    /** The name bytes (UTF-8): routing key, tenant id in HELLO. Valid while the frame is. */
    ByteBuf name() {
        return name;
    }

    /** The content bytes. Valid while the frame is. */
    ByteBuf content() {
        return content;
    }

    @Override
    protected void deallocate() {
        name.release();
    }

    @Override
    public ReferenceCounted touch(Object hint) {
        name.touch(hint);
        return this;
    }
}
