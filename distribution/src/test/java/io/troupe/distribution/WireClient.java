package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * A blocking protocol v1 connection to a running Troupe over a real loopback socket, frame by frame,
 * for the tests of what the server does on the wire (frames the client library would not send, BYE
 * contents, pipelines written in one go). Every read is bounded by the timeout given.
 *
 * <p><b>Threading:</b> one test thread at a time; {@link #close()} from any thread (which is how a thread
 * in {@link #pipelineEchoesUntilClosed} is ended).
 */
final class WireClient implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final FrameDecoder decoder = new FrameDecoder(64 << 20);
    private ByteBuffer received = ByteBuffer.allocate(64 << 10);
    private boolean ended;

    private WireClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code port} on the loopback interface. */
    static WireClient connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        return new WireClient(socket);
    }

    /** Sends HELLO and returns the answer (WELCOME, or the ERROR that refuses it). */
    Frame hello(String tenant, String token, Duration timeout) throws IOException {
        send(Frame.hello(1, tenant, token));
        return next(timeout).orElseThrow(() -> new AssertionError("no answer to HELLO as " + tenant));
    }

    /** Writes every frame in one write: a pipeline. */
    void send(Frame... frames) throws IOException {
        send(List.of(frames));
    }

    void send(List<Frame> frames) throws IOException {
        ByteBuffer all = ByteBuffer.allocate(frames.stream().mapToInt(FrameEncoder::encodedSize).sum());
        for (Frame frame : frames) {
            FrameEncoder.encode(frame, all);
        }
        out.write(all.array());
        out.flush();
    }

    /** Writes {@code bytes} as they are: frames this client would not encode (a corrupt one, a pipeline). */
    void sendRaw(ByteBuffer bytes) throws IOException {
        byte[] array = new byte[bytes.remaining()];
        bytes.get(array);
        out.write(array);
        out.flush();
    }

    /** A REQUEST with UTF-8 content. */
    static Frame request(long corrId, String name, String content) {
        return Frame.request(corrId, name, content.getBytes(UTF_8));
    }

    /**
     * Sends {@code echo} requests of {@code bytes} characters in pipelines of {@code pipeline} (correlation ids
     * from 2 on), adding each pipeline to {@code sent} once written, until the socket is closed; reads nothing,
     * so the calling thread blocks in a write once the server stops reading this connection. Returns when
     * another thread {@linkplain #close() closes} the client, or the server ends.
     */
    void pipelineEchoesUntilClosed(int bytes, int pipeline, AtomicLong sent) {
        String content = "x".repeat(bytes);
        long corrId = 2;
        try {
            while (true) {
                List<Frame> frames = new ArrayList<>(pipeline);
                for (int i = 0; i < pipeline; i++) {
                    frames.add(request(corrId++, "echo", content));
                }
                send(frames); // blocks once the server has stopped reading this connection
                sent.addAndGet(pipeline);
            }
        } catch (IOException closed) {
            // the test closed the socket, or the server ended: done
        }
    }

    /** Sends {@code echo content} as {@code corrId}; the next frame, within {@code timeout}, must be its REPLY. */
    void assertEcho(long corrId, String content, Duration timeout) throws IOException {
        send(request(corrId, "echo", content));
        Frame reply = expect(timeout);
        assertEquals(FrameType.REPLY, reply.type(), () -> reply + " " + reply.text());
        assertEquals(corrId, reply.corrId());
        assertEquals(content, reply.text());
    }

    /**
     * The next frame; empty when the server has closed the connection (after the frames it sent before).
     *
     * @throws AssertionError when nothing comes within {@code timeout}
     */
    Optional<Frame> next(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            received.flip();
            Frame frame = decoder.decode(received);
            received.compact();
            if (frame != null) {
                return Optional.of(frame);
            }
            if (ended) {
                return Optional.empty();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no frame within " + timeout);
            }
            if (!received.hasRemaining()) {
                ByteBuffer larger = ByteBuffer.allocate(received.capacity() * 2);
                received.flip();
                larger.put(received);
                received = larger;
            }
            socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
            try {
                int n = in.read(received.array(), received.position(), received.remaining());
                if (n < 0) {
                    ended = true;
                } else {
                    received.position(received.position() + n);
                }
            } catch (SocketTimeoutException e) {
                // loop: the deadline decides
            } catch (SocketException reset) {
                ended = true;
            }
        }
    }

    /** The next frame, which must come within {@code timeout}. */
    Frame expect(Duration timeout) throws IOException {
        return next(timeout).orElseThrow(() -> new AssertionError("the server closed the connection"));
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a test socket: nothing to do
        }
    }
}
