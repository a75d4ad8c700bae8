package io.troupe.server.itest;

import static java.nio.charset.StandardCharsets.UTF_8;

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
import java.util.concurrent.TimeUnit;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * A small blocking client over a real loopback socket, speaking protocol v1 through the protocol
 * bundle's codec, with bounded waits on every read. It can also send any bytes at all.
 *
 * <p><b>Threading:</b> one test thread at a time; {@link #close()} from any thread.
 */
final class TestClient implements AutoCloseable {

    /** How long a frame the test expects may take to arrive. */
    static final Duration WAIT = Duration.ofSeconds(10);

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final FrameDecoder decoder = new FrameDecoder(64 << 20);
    private ByteBuffer received = ByteBuffer.allocate(64 << 10);
    private boolean endOfStream;

    private TestClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Connects to the server on {@code port} of the loopback interface. */
    static TestClient connect(int port) throws IOException {
        return connect(port, 0);
    }

    /** Connects with a small receive buffer ({@code receiveBuffer} bytes; 0 for the default). */
    static TestClient connect(int port, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        return new TestClient(socket);
    }

    /** Connects and authenticates; fails the test unless the answer is WELCOME. */
    static TestClient open(int port, String tenant, String token) throws IOException {
        TestClient client = connect(port);
        Frame welcome = client.hello(1, tenant, token);
        if (welcome.type() != FrameType.WELCOME) {
            client.close();
            throw new AssertionError("expected WELCOME for tenant " + tenant + ", got " + describe(welcome));
        }
        return client;
    }

    /** Sends HELLO and returns the answer. */
    Frame hello(long corrId, String tenant, String token) throws IOException {
        send(Frame.hello(corrId, tenant, token));
        return next();
    }

    /** Sends a REQUEST with UTF-8 content and returns the next frame. */
    Frame request(long corrId, String name, String content) throws IOException {
        send(Frame.request(corrId, name, content.getBytes(UTF_8)));
        return next();
    }

    void send(Frame frame) throws IOException {
        sendRaw(bytes(frame));
    }

    /** Sends all frames in one write, pipelined. */
    void sendAll(List<Frame> frames) throws IOException {
        int size = frames.stream().mapToInt(FrameEncoder::encodedSize).sum();
        ByteBuffer all = ByteBuffer.allocate(size);
        for (Frame frame : frames) {
            FrameEncoder.encode(frame, all);
        }
        sendRaw(all.array());
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next frame; fails the test if none comes within {@link #WAIT} or the server closes first. */
    Frame next() throws IOException {
        Optional<Frame> frame = poll(WAIT);
        if (frame.isEmpty()) {
            throw new AssertionError("no frame within " + WAIT);
        }
        return frame.get();
    }

    /**
     * The next frame, or empty if none arrives within {@code wait}; fails the test if the server
     * closes the connection first.
     */
    Optional<Frame> poll(Duration wait) throws IOException {
        Frame frame = read(wait);
        if (frame == null && endOfStream) {
            throw new AssertionError("the server closed the connection");
        }
        return Optional.ofNullable(frame);
    }

    /** Reads every frame until the server closes the connection; fails if it stays open past {@code wait}. */
    List<Frame> untilClosed(Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        List<Frame> frames = new ArrayList<>();
        while (true) {
            long left = deadline - System.nanoTime();
            Frame frame = read(Duration.ofNanos(Math.max(1, left)));
            if (frame != null) {
                frames.add(frame);
            } else if (endOfStream) {
                return frames;
            } else {
                throw new AssertionError("the server did not close the connection within " + wait + "; got "
                        + frames);
            }
        }
    }

    /** {@link #untilClosed(Duration)} with {@link #WAIT}. */
    List<Frame> untilClosed() throws IOException {
        return untilClosed(WAIT);
    }

    /** Whether the server has closed the connection (or reset it) so far. */
    boolean isClosedByServer() {
        return endOfStream;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a test socket: nothing to do
        }
    }

    /** Half-closes: the server sees the end of input, and can still answer. */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    static byte[] bytes(Frame frame) {
        return FrameEncoder.encode(frame).array();
    }

    static String describe(Frame frame) {
        return frame.type() == FrameType.ERROR ? frame + " " + frame.name() + ": " + frame.text() : frame.toString();
    }

    /** A frame, or null on a timeout (endOfStream false) or at the end of the stream (endOfStream true). */
    private Frame read(Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            received.flip();
            Frame frame;
            try {
                frame = decoder.decode(received);
            } finally {
                received.compact();
            }
            if (frame != null) {
                return frame;
            }
            if (endOfStream) {
                return null;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            if (!received.hasRemaining()) {
                ByteBuffer larger = ByteBuffer.allocate(received.capacity() * 2);
                received.flip();
                larger.put(received);
                received = larger;
            }
            socket.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            int count;
            try {
                count = in.read(received.array(), received.arrayOffset() + received.position(), received.remaining());
            } catch (SocketTimeoutException e) {
                return null;
            } catch (SocketException e) {
                count = -1; // reset by the server: as good as closed
            }
            if (count < 0) {
                endOfStream = true;
            } else {
                received.position(received.position() + count);
            }
        }
    }
}
