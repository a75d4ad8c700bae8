package io.troupe.testsupport;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.EOFException;
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
 * A small blocking client over a real loopback socket, for tests of what listens: every read is
 * bounded ({@link #WAIT}), so a test never hangs. Two ways to talk, one per connection:
 * <ul>
 * <li><b>bytes</b>, for the reactor and for malformed input: {@link #send(byte[])},
 *     {@link #readExactly}, {@link #readToEnd}, {@link #drainToEnd}, {@link #seesEndOfStream}, and
 *     closing with a reset ({@link #reset()});</li>
 * <li><b>protocol v1 frames</b> through the protocol bundle's codec: {@link #open} (HELLO, WELCOME
 *     expected), {@link #request}, {@link #send(Frame)}, {@link #next}, {@link #poll},
 *     {@link #untilClosed}. These need {@code io.troupe.protocol} on the class path (or wired in the
 *     framework); the byte methods do not.</li>
 * </ul>
 * Do not mix byte reads and frame reads on one connection: frame reads keep bytes received past a
 * frame in a buffer of their own.
 *
 * <p><b>Threading:</b> one test thread at a time; {@link #close()} and {@link #reset()} from any thread.
 */
public final class TestClient implements AutoCloseable {

    /** How long a read (a frame, or bytes) the test expects may take to arrive. */
    public static final Duration WAIT = Duration.ofSeconds(10);

    private static final int MAX_FRAME_BYTES = 64 << 20;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private FrameDecoder decoder;
    private ByteBuffer received;
    private boolean endOfStream;

    private TestClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code port} of the loopback interface. */
    public static TestClient connect(int port) throws IOException {
        return connect(new InetSocketAddress("127.0.0.1", port), 0);
    }

    /** Connects with a small receive buffer ({@code receiveBuffer} bytes; 0 for the default): a slow reader. */
    public static TestClient connect(int port, int receiveBuffer) throws IOException {
        return connect(new InetSocketAddress("127.0.0.1", port), receiveBuffer);
    }

    public static TestClient connect(InetSocketAddress address) throws IOException {
        return connect(address, 0);
    }

    /** Connects with a small receive buffer when {@code receiveBuffer} is positive (a slow reader). */
    public static TestClient connect(InetSocketAddress address, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.setTcpNoDelay(true);
        socket.setSoTimeout((int) WAIT.toMillis());
        socket.connect(address, (int) WAIT.toMillis());
        return new TestClient(socket);
    }

    /** Connects and authenticates; fails the test unless the answer is WELCOME. */
    public static TestClient open(int port, String tenant, String token) throws IOException {
        TestClient client = connect(port);
        Frame welcome = client.hello(1, tenant, token);
        if (welcome.type() != FrameType.WELCOME) {
            client.close();
            throw new AssertionError("expected WELCOME for tenant " + tenant + ", got " + describe(welcome));
        }
        return client;
    }

    public Socket socket() {
        return socket;
    }

    // ---- bytes ------------------------------------------------------------------------------------

    public void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Sends the UTF-8 bytes of {@code text}. */
    public void send(String text) throws IOException {
        send(text.getBytes(UTF_8));
    }

    /** Exactly {@code length} bytes; fails with {@link EOFException} if the stream ends first. */
    public byte[] readExactly(int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("expected " + length + " bytes, the stream ended after " + bytes.length);
        }
        return bytes;
    }

    public String readString(int length) throws IOException {
        return new String(readExactly(length), UTF_8);
    }

    /** Everything until the server closes (EOF). */
    public byte[] readToEnd() throws IOException {
        return in.readAllBytes();
    }

    /** Counts bytes until EOF or a reset, whichever ends the stream. */
    public long drainToEnd() throws IOException {
        byte[] chunk = new byte[64 * 1024];
        long total = 0;
        try {
            int n;
            while ((n = in.read(chunk)) >= 0) {
                total += n;
            }
        } catch (SocketException reset) {
            // the server dropped the connection: what arrived before counts
        }
        return total;
    }

    /** Whether the server closed: the next read sees EOF (or a reset). */
    public boolean seesEndOfStream() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketException reset) {
            return true;
        }
    }

    /** {@code length} bytes of a repeating pattern that {@code seed} shifts, to tell streams apart. */
    public static byte[] pattern(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ((i * 31 + seed) % 251);
        }
        return bytes;
    }

    // ---- protocol v1 frames -----------------------------------------------------------------------

    /** Sends HELLO and returns the answer. */
    public Frame hello(long corrId, String tenant, String token) throws IOException {
        send(Frame.hello(corrId, tenant, token));
        return next();
    }

    /** Sends a REQUEST with UTF-8 content and returns the next frame. */
    public Frame request(long corrId, String name, String content) throws IOException {
        send(Frame.request(corrId, name, content.getBytes(UTF_8)));
        return next();
    }

    public void send(Frame frame) throws IOException {
        send(bytes(frame));
    }

    /** Sends all frames in one write, pipelined. */
    public void sendAll(List<Frame> frames) throws IOException {
        int size = frames.stream().mapToInt(FrameEncoder::encodedSize).sum();
        ByteBuffer all = ByteBuffer.allocate(size);
        for (Frame frame : frames) {
            FrameEncoder.encode(frame, all);
        }
        send(all.array());
    }

    /** The next frame; fails the test if none comes within {@link #WAIT} or the server closes first. */
    public Frame next() throws IOException {
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
    public Optional<Frame> poll(Duration wait) throws IOException {
        Frame frame = read(wait);
        if (frame == null && endOfStream) {
            throw new AssertionError("the server closed the connection");
        }
        return Optional.ofNullable(frame);
    }

    /** Reads every frame until the server closes the connection; fails if it stays open past {@code wait}. */
    public List<Frame> untilClosed(Duration wait) throws IOException {
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
    public List<Frame> untilClosed() throws IOException {
        return untilClosed(WAIT);
    }

    /** Whether frame reads have seen the server close the connection (or reset it) so far. */
    public boolean isClosedByServer() {
        return endOfStream;
    }

    public static byte[] bytes(Frame frame) {
        return FrameEncoder.encode(frame).array();
    }

    /** A frame for a failure message: an ERROR with its code and detail, else the frame itself. */
    public static String describe(Frame frame) {
        return frame.type() == FrameType.ERROR ? frame + " " + frame.name() + ": " + frame.text() : frame.toString();
    }

    // ---- closing ----------------------------------------------------------------------------------

    /** Half-closes: the server sees the end of input, and can still answer. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Closes with SO_LINGER 0, which sends a reset instead of a FIN. */
    public void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a test socket: nothing to do
        }
    }

    /** A frame, or null on a timeout (endOfStream false) or at the end of the stream (endOfStream true). */
    private Frame read(Duration wait) throws IOException {
        if (decoder == null) {
            decoder = new FrameDecoder(MAX_FRAME_BYTES);
            received = ByteBuffer.allocate(64 << 10);
        }
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
