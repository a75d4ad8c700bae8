package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * Waits until a freshly started server serves a tenant's handler: "Troupe ready" comes before the
 * tenant files and the deploy folder are read, so the suite asks (a session, one request) until the
 * answer is a REPLY, retrying after refusals such as {@code auth.failed} (tenant not loaded yet) or
 * {@code no.handler} (plugin not started yet).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class Readiness {

    private static final long PAUSE_MILLIS = 200;

    private Readiness() {
    }

    /**
     * @throws IOException naming the tenant, the handler and the last refusal when no REPLY came
     *                     within {@code timeout}
     */
    public static void await(int port, String tenant, String token, String handler, byte[] content, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            IOException last;
            BlockingFrameReader reader = new BlockingFrameReader(FrameDecoder.DEFAULT_MAX_FRAME_BYTES);
            try (SocketChannel channel = Sessions.open(port, tenant, token, reader)) {
                Sessions.writeFully(channel, FrameEncoder.encode(Frame.request(2, handler, content)));
                Frame answer = reader.next(channel);
                if (answer.type() == FrameType.REPLY) {
                    return;
                }
                last = answer.type() == FrameType.ERROR ? new SessionRefusedException(answer.name(), answer.text())
                        : new IOException(answer.type() + " instead of a REPLY");
            } catch (IOException e) {
                last = e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("tenant " + tenant + " got no REPLY from " + handler + " within "
                        + SuiteOptions.format(timeout) + "; the last try: " + last.getMessage(), last);
            }
            Thread.sleep(PAUSE_MILLIS);
        }
    }
}
