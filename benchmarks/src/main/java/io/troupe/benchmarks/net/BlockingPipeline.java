package io.troupe.benchmarks.net;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.HdrHistogram.Histogram;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * One connection of {@link TlsSuite}'s load: a blocking socket (plain, or TLS 1.3 with the host name
 * verified) that says HELLO, then keeps {@code inFlight} {@code echo} requests outstanding, sending
 * the next as each REPLY arrives, until told to stop. It counts the replies and, with one request in
 * flight, records each round trip in an HdrHistogram; both only inside the measured window.
 *
 * <p>Blocking sockets and a thread per connection, rather than the network suite's NIO generator,
 * because the JDK's {@link SSLSocket} is the reference TLS client: every server here is measured
 * through the same one.
 *
 * <p><b>Threading:</b> {@link #run} on the connection's own thread; the counters and
 * {@link #stop()} from any thread; the histogram is read after the thread has ended.
 */
final class BlockingPipeline implements Runnable {

    private static final long HIGHEST_NANOS = 60_000_000_000L;

    private final int port;
    private final SSLContext tls;
    private final String tenant;
    private final String token;
    private final int inFlight;
    private final byte[] payload;
    private final long measureFrom;
    private final long measureUntil;
    private final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
    private final AtomicLong replies = new AtomicLong();
    private volatile boolean stopped;
    private volatile Throwable failure;

    /**
     * @param tls          the client context, or null for plaintext
     * @param measureFrom  {@link System#nanoTime()} at which the window opens
     * @param measureUntil ... and closes
     */
    BlockingPipeline(int port, SSLContext tls, String tenant, String token, int inFlight, int payloadBytes,
            long measureFrom, long measureUntil) {
        this.port = port;
        this.tls = tls;
        this.tenant = tenant;
        this.token = token;
        this.inFlight = inFlight;
        this.payload = new byte[payloadBytes];
        this.measureFrom = measureFrom;
        this.measureUntil = measureUntil;
    }

    @Override
    public void run() {
        try (Socket socket = open()) {
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
            write(out, Frame.hello(1, tenant, token));
            out.flush();
            expect(in, FrameType.WELCOME);
            long corrId = 2;
            long[] sentAt = new long[inFlight];
            for (int i = 0; i < inFlight; i++) {
                sentAt[i] = System.nanoTime();
                write(out, Frame.request(corrId++, "echo", payload));
            }
            out.flush();
            int next = 0;
            while (!stopped) {
                expect(in, FrameType.REPLY);
                long now = System.nanoTime();
                if (now - measureFrom >= 0 && now - measureUntil < 0) {
                    replies.incrementAndGet();
                    if (inFlight == 1) {
                        latency.recordValue(Math.min(now - sentAt[next], HIGHEST_NANOS));
                    }
                }
                sentAt[next] = System.nanoTime();
                next = (next + 1) % inFlight;
                write(out, Frame.request(corrId++, "echo", payload));
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            if (!stopped) {
                failure = e;
            }
        }
    }

    private Socket open() throws IOException {
        if (tls == null) {
            return new Socket(InetAddress.getLoopbackAddress(), port);
        }
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("localhost", port);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setProtocols(new String[] {"TLSv1.3"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    private static void write(OutputStream out, Frame frame) throws IOException {
        ByteBuffer bytes = FrameEncoder.encode(frame);
        out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
    }

    /** Reads one frame and checks its type (byte 5: after the length and the version). */
    private static void expect(DataInputStream in, FrameType type) throws IOException {
        int length = in.readInt();
        byte[] body = new byte[length];
        in.readFully(body);
        if ((body[1] & 0xff) != type.code()) {
            throw new IOException("expected " + type + ", got a frame of type code " + (body[1] & 0xff) + ": "
                    + new String(body, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    void stop() {
        stopped = true;
    }

    long replies() {
        return replies.get();
    }

    Histogram latency() {
        return latency;
    }

    Throwable failure() {
        return failure;
    }
}
