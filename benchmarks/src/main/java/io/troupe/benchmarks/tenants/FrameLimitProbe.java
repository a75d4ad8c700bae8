package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.Locale;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * Finds out whether a frame limit is in force for a tenant: sends one {@code echo} REQUEST whose
 * length field is {@code limit + 1} on a new session and looks at the answer. A REPLY means the
 * frame was accepted; an ERROR, or the connection closed while sending or before an answer, means
 * it was refused.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class FrameLimitProbe {

    /**
     * @param refused whether the frame was refused
     * @param how     what the server did, for the report
     */
    record Outcome(boolean refused, String how) {
    }

    private FrameLimitProbe() {
    }

    /**
     * @throws IOException when no session can be opened
     */
    static Outcome overLimit(int port, String tenant, String token, int limit) throws IOException {
        int length = limit + 1;
        byte[] content = new byte[Scenario.largestPayload(length, "echo")];
        BlockingFrameReader reader = new BlockingFrameReader(FrameDecoder.MAX_LENGTH);
        try (SocketChannel channel = Sessions.open(port, tenant, token, reader)) {
            try {
                Sessions.writeFully(channel, FrameEncoder.encode(Frame.request(2, "echo", content)));
            } catch (IOException e) {
                return new Outcome(true, String.format(Locale.ROOT,
                        "closed the connection while a frame of %,d bytes was being sent (%s)", length,
                        e.getMessage()));
            }
            Frame answer;
            try {
                answer = reader.next(channel);
            } catch (IOException e) {
                return new Outcome(true, String.format(Locale.ROOT,
                        "closed the connection after a frame of %,d bytes (%s)", length, e.getMessage()));
            }
            if (answer.type() == FrameType.REPLY) {
                return new Outcome(false, String.format(Locale.ROOT, "echoed a frame of %,d bytes", length));
            }
            return new Outcome(true, String.format(Locale.ROOT, "answered a frame of %,d bytes with %s %s", length,
                    answer.type(), answer.type() == FrameType.ERROR ? answer.name() : ""));
        }
    }
}
