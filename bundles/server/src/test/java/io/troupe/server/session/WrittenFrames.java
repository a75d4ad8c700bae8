package io.troupe.server.session;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * What the session tests send to and read from a {@link ManualConnection}: an {@code echo} request, the one
 * frame written, the types of the frames written.
 *
 * <p><b>Threading:</b> stateless; the test's thread.
 */
final class WrittenFrames {

    private WrittenFrames() {
    }

    /** A REQUEST for the {@code echo} handler. */
    static Frame request(long corrId, String text) {
        return Frame.request(corrId, "echo", text.getBytes(UTF_8));
    }

    /** The only frame of {@code frames}; fails when there are none or several. */
    static Frame single(List<Frame> frames) {
        assertEquals(1, frames.size(), frames::toString);
        return frames.get(0);
    }

    static List<FrameType> types(List<Frame> frames) {
        return frames.stream().map(Frame::type).toList();
    }
}
