package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * Tenant B, the well-behaved one: one connection, one request in flight, in a closed loop on a
 * thread of its own (blocking socket), each reply checked (type, corrId, content) and its latency
 * from just before the write to just after the reply is decoded recorded in an HdrHistogram (three
 * significant digits) when the request was sent inside the window.
 *
 * <p><b>Threading:</b> {@link #start} and {@link #await} on the suite's thread; the loop on its own
 * thread, which publishes its result through {@link Thread#join}.
 */
final class VictimLoop {

    /** Latencies above this are recorded as this: a minute. */
    private static final long HIGHEST = TimeUnit.MINUTES.toNanos(1);

    private final int port;
    private final String tenant;
    private final String token;
    private final String handler;
    private final byte[] payload;
    private final Window window;
    private final Thread thread;
    private final Histogram histogram = new Histogram(HIGHEST, 3);
    private long errors;
    private String firstError;
    private String failure;

    private VictimLoop(int port, String tenant, String token, String handler, int payloadBytes, Window window) {
        this.port = port;
        this.tenant = tenant;
        this.token = token;
        this.handler = handler;
        this.payload = new byte[payloadBytes];
        ThreadLocalRandom.current().nextBytes(payload);
        this.window = window;
        this.thread = new Thread(this::run, "tenant-b-loop");
        thread.setDaemon(true);
    }

    /** Connects and runs the loop on a new thread until the window ends. */
    static VictimLoop start(int port, String tenant, String token, String handler, int payloadBytes,
            Window window) {
        VictimLoop loop = new VictimLoop(port, tenant, token, handler, payloadBytes, window);
        loop.thread.start();
        return loop;
    }

    /**
     * Waits for the end of the window and then up to {@code graceMillis} more; interrupts a loop
     * stuck in a read after that (it is then reported as failed).
     */
    VictimResult await(long graceMillis) throws InterruptedException {
        long left = TimeUnit.NANOSECONDS.toMillis(window.measureUntil() - System.nanoTime()) + graceMillis;
        thread.join(Math.max(1, left));
        if (thread.isAlive()) {
            thread.interrupt();
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        synchronized (this) {
            return VictimResult.of(histogram, errors, firstError, thread.isAlive() ? "the loop did not stop" : failure);
        }
    }

    private void run() {
        BlockingFrameReader reader = new BlockingFrameReader(FrameDecoder.DEFAULT_MAX_FRAME_BYTES);
        ByteBuffer out = ByteBuffer.allocateDirect(FrameEncoder.encodedSize(Frame.request(1, handler, payload)));
        long corrId = 1;
        try (SocketChannel channel = Sessions.open(port, tenant, token, reader)) {
            while (!window.isOver(System.nanoTime())) {
                corrId++;
                Frame request = Frame.request(corrId, handler, payload);
                out.clear();
                FrameEncoder.encode(request, out);
                out.flip();
                long sent = System.nanoTime();
                Sessions.writeFully(channel, out);
                Frame reply = reader.next(channel);
                long answered = System.nanoTime();
                boolean good = reply.type() == FrameType.REPLY && reply.corrId() == corrId
                        && Arrays.equals(reply.content(), payload);
                synchronized (this) {
                    if (!good) {
                        errors++;
                        if (firstError == null) {
                            firstError = describe(reply, corrId);
                        }
                    } else if (window.measures(sent)) {
                        histogram.recordValue(Math.min(answered - sent, HIGHEST));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                failure = e.toString();
            }
        }
    }

    private String describe(Frame reply, long corrId) {
        if (reply.type() == FrameType.ERROR) {
            return "ERROR " + reply.name() + ": " + reply.text();
        }
        if (reply.type() != FrameType.REPLY) {
            return reply.type() + " instead of REPLY";
        }
        return reply.corrId() != corrId ? "REPLY to corrId " + reply.corrId() + " while waiting for " + corrId
                : "REPLY with other content than the request's";
    }
}
