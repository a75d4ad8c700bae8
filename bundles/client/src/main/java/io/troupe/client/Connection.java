package io.troupe.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameException;
import io.troupe.protocol.FrameType;

/**
 * One TCP connection to the server, from the non-blocking connect to the close: the connect and
 * handshake timeout, the HELLO / WELCOME exchange, frame decoding and the output queue.
 *
 * <pre>
 *   CONNECTING ──finishConnect──► HANDSHAKING ──WELCOME──► OPEN
 *        │                            │                     │
 *        └── refused, timeout ────────┴── ERROR, EOF, BYE ──┴──► CLOSED  (Events.onClosed, once)
 * </pre>
 *
 * <p>A connection is never reused: the {@link Connector} opens a new one for each attempt. Connect
 * results are checked as a careful connector does: {@code finishConnect} confirms the socket is
 * connected, and a socket connected to itself (TCP simultaneous open on a local ephemeral port) is
 * rejected. The connect timeout covers the TCP connect, the TLS handshake and the wait for WELCOME.
 *
 * <p>With TLS ({@link ClientTls}), a {@link TlsTransport} sits between the frames and the socket: the
 * HELLO is queued at once and leaves when the handshake has completed; frames split across TLS
 * records, or records split across reads, are put together as in plaintext.
 *
 * <p><b>Threading:</b> confined to its loop thread, including every {@link Events} callback.
 */
final class Connection implements SelectorLoop.IoHandler {

    /** What the connection reports to its owner, on the loop thread. */
    interface Events {
        /** The server accepted the HELLO. */
        void onWelcome(Connection connection, String sessionId);

        /** A frame arrived after WELCOME. */
        void onFrame(Connection connection, Frame frame);

        /**
         * The connection is closed; called exactly once, possibly from within {@link #start()}.
         *
         * @param cause an {@link IOException} for network failures and timeouts, a
         *              {@link TroupeClientException} when the server refused the HELLO, a
         *              {@link ConnectionLostException} for an orderly close or a protocol violation
         */
        void onClosed(Connection connection, Throwable cause);
    }

    private enum State { NEW, CONNECTING, HANDSHAKING, OPEN, CLOSED }

    private static final System.Logger LOG = System.getLogger(Connection.class.getName());
    private static final int INITIAL_INPUT_BYTES = 8 * 1024;
    /** The input buffer while a large frame is taken in: reads of up to this much rather than 8 KiB. */
    private static final int LARGE_INPUT_BYTES = 64 * 1024;
    private static final int MAX_GATHERED_WRITES = 64;
    /** Where TLS delegated tasks (certificate checks, key agreement) run, off the loop. */
    private static final Executor TLS_TASKS = ForkJoinPool.commonPool();

    private final SelectorLoop loop;
    private final String host;
    private final int port;
    /** The address to connect from, or null to let the system choose. */
    private final InetSocketAddress localAddress;
    private final Frame hello;
    private final long connectTimeoutNanos;
    private final Events events;
    /** TLS, or null for plaintext. */
    private final ClientTls tlsSettings;
    private final FrameDecoder decoder;
    private final ArrayDeque<OutboundFrame> output = new ArrayDeque<>();
    private final ByteBuffer[] gather = new ByteBuffer[MAX_GATHERED_WRITES];

    private State state = State.NEW;
    private SocketChannel channel;
    private SelectionKey key;
    private SelectorLoop.Timer connectTimer;
    private ByteBuffer input = ByteBuffer.allocate(INITIAL_INPUT_BYTES);
    /** The bytes of the last read: a buffer grown for large frames shrinks back after a short one. */
    private int lastRead;
    /** Set once TCP is connected, with TLS. */
    private TlsTransport tls;

    /**
     * @param localAddress         the local address and port to bind before connecting (port 0: the
     *                             system chooses), or null to let the system choose both
     * @param maxInboundFrameBytes the limit on the length field of frames read
     * @param tlsSettings          TLS, or null for plaintext
     */
    Connection(SelectorLoop loop, String host, int port, InetSocketAddress localAddress, Frame hello,
            long connectTimeoutNanos, int maxInboundFrameBytes, ClientTls tlsSettings, Events events) {
        this.loop = loop;
        this.host = host;
        this.port = port;
        this.localAddress = localAddress;
        this.hello = hello;
        this.connectTimeoutNanos = connectTimeoutNanos;
        this.events = events;
        this.tlsSettings = tlsSettings;
        this.decoder = new FrameDecoder(maxInboundFrameBytes);
    }

    /** Starts the non-blocking connect. Failures are reported through {@link Events#onClosed}. */
    void start() {
        loop.assertInLoop();
        state = State.CONNECTING;
        connectTimer = loop.schedule(connectTimeoutNanos, this::connectTimedOut);
        try {
            // Resolved here, at each attempt: a name that moved is followed on reconnect.
            InetSocketAddress address = new InetSocketAddress(host, port);
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            if (localAddress != null) {
                channel.bind(localAddress);
            }
            if (channel.connect(address)) {
                key = loop.register(channel, SelectionKey.OP_READ, this);
                connected();
            } else {
                key = loop.register(channel, SelectionKey.OP_CONNECT, this);
            }
        } catch (UnresolvedAddressException e) {
            close(new UnknownHostException("cannot resolve " + host));
        } catch (IOException e) {
            close(e);
        }
    }

    boolean isOpen() {
        return state == State.OPEN;
    }

    /** Queues an encoded frame; {@link #flush()} writes it. Only after WELCOME (or for the HELLO). */
    void enqueue(OutboundFrame frame) {
        if (state == State.CLOSED) {
            frame.fail(new ConnectionLostException("connection to " + address() + " is closed"));
            return;
        }
        output.add(frame);
    }

    /** Writes as much of the output queue as the socket takes; waits for OP_WRITE for the rest. */
    void flush() {
        if (state != State.HANDSHAKING && state != State.OPEN) {
            return;
        }
        if (tls != null) {
            flushTls();
            return;
        }
        try {
            while (!output.isEmpty()) {
                int count = fillGather();
                long written = channel.write(gather, 0, count);
                completeWritten();
                if (written == 0 || (!output.isEmpty() && output.peekFirst().bytes.hasRemaining())) {
                    interest(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
            }
            interest(SelectionKey.OP_READ);
        } catch (IOException e) {
            close(e);
        } finally {
            Arrays.fill(gather, null);
        }
    }

    /**
     * Closes the socket and reports {@code cause}; idempotent. Unwritten frames fail with
     * {@link ConnectionLostException}.
     */
    void close(Throwable cause) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        if (connectTimer != null) {
            connectTimer.cancel();
        }
        if (key != null) {
            key.cancel();
        }
        if (tls != null) {
            tls.closeQuietly();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "closing the connection to " + address(), e);
            }
        }
        ConnectionLostException unwritten = new ConnectionLostException(
                "the connection to " + address() + " closed before the frame was written", cause);
        for (OutboundFrame frame : output) {
            frame.fail(unwritten);
        }
        output.clear();
        events.onClosed(this, cause);
    }

    String address() {
        return host + ":" + port;
    }

    @Override
    public void onReady(SelectionKey readyKey) {
        try {
            int ready = readyKey.readyOps();
            if ((ready & SelectionKey.OP_CONNECT) != 0) {
                finishConnect();
            }
            if (state != State.CLOSED && (ready & SelectionKey.OP_READ) != 0) {
                read();
            }
            if (state != State.CLOSED && (ready & SelectionKey.OP_WRITE) != 0) {
                flush();
            }
        } catch (IOException e) {
            close(e);
        } catch (FrameException e) {
            close(new ConnectionLostException("the server sent an invalid frame: " + e.getMessage(), e));
        }
    }

    private void finishConnect() throws IOException {
        if (channel.finishConnect()) {
            interest(SelectionKey.OP_READ);
            connected();
        }
    }

    private void connected() throws IOException {
        if (channel.getLocalAddress().equals(channel.getRemoteAddress())) {
            throw new ConnectException("connected to itself on " + channel.getLocalAddress() + ": nothing listens there");
        }
        state = State.HANDSHAKING;
        if (tlsSettings != null) {
            tls = new TlsTransport(tlsSettings.newEngine(host, port), channel, loop, TLS_TASKS, this::tlsResumed,
                    address());
            tls.begin();
        }
        enqueue(new OutboundFrame(FrameType.HELLO, hello.corrId(), hello.name(), FrameEncoder.encode(hello),
                null, null));
        flush();
    }

    private void read() throws IOException {
        if (tls != null) {
            readTls();
            return;
        }
        int count = channel.read(input);
        if (count < 0) {
            close(new ConnectionLostException(address() + " closed the connection"));
            return;
        }
        lastRead = count;
        decodeInput();
    }

    private void decodeInput() {
        input.flip();
        try {
            Frame frame;
            while (state != State.CLOSED && (frame = decoder.next(input)) != null) {
                handle(frame);
            }
        } finally {
            input.compact();
        }
        if (state != State.CLOSED) {
            fitInputBuffer();
        }
    }

    /**
     * Reads through TLS until no plaintext is left buffered, then flushes: the handshake may have
     * produced records to send, or completed, which lets the HELLO go.
     */
    private void readTls() throws IOException {
        do {
            int count = tls.read(input);
            if (count < 0) {
                close(new ConnectionLostException(address() + " closed the connection"));
                return;
            }
            lastRead = count;
            decodeInput();
        } while (state != State.CLOSED && tls.hasBufferedInput());
        flush();
    }

    /** Delegated TLS tasks are done: the handshake goes on. */
    private void tlsResumed() {
        if (state == State.CLOSED) {
            return;
        }
        try {
            readTls();
        } catch (IOException e) {
            close(e);
        } catch (FrameException e) {
            close(new ConnectionLostException("the server sent an invalid frame: " + e.getMessage(), e));
        }
    }

    private void flushTls() {
        try {
            tls.pump();
            while (!output.isEmpty()) {
                int count = fillGather();
                long written = tls.write(gather, 0, count);
                completeWritten();
                if (written == 0 || tls.needsWritable()) {
                    break;
                }
            }
            interest(tls.needsWritable() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        } catch (IOException e) {
            close(e);
        } finally {
            Arrays.fill(gather, null);
        }
    }

    private void handle(Frame frame) {
        if (state == State.OPEN) {
            events.onFrame(this, frame);
        } else {
            handshake(frame);
        }
    }

    private void handshake(Frame frame) {
        if (frame.type() == FrameType.WELCOME && frame.corrId() == hello.corrId()) {
            connectTimer.cancel();
            state = State.OPEN;
            events.onWelcome(this, frame.text());
        } else if (frame.type() == FrameType.ERROR) {
            close(new TroupeClientException(frame.name(), frame.text()));
        } else if (frame.type() == FrameType.BYE) {
            close(new ConnectionLostException(address() + " said BYE before WELCOME"));
        } else {
            close(new ConnectionLostException(address() + " sent " + frame + " instead of WELCOME"));
        }
    }

    /**
     * Sizes the buffer for the next read. A frame over 4 KiB is taken in by the decoder as it arrives
     * ({@link FrameDecoder#next}), so nothing of it stays here: meanwhile the buffer is
     * {@value #LARGE_INPUT_BYTES} bytes, for fewer, larger reads, and it shrinks back once empty after a read
     * shorter than {@value #INITIAL_INPUT_BYTES} bytes (the large replies have stopped coming). A frame the
     * decoder waits for whole (a header that fails a check, reported once all of it is there) grows the
     * buffer to its size.
     */
    private void fitInputBuffer() {
        int buffered = input.position();
        if (decoder.midFrame()) {
            if (buffered == 0 && input.capacity() < LARGE_INPUT_BYTES) {
                input = ByteBuffer.allocate(LARGE_INPUT_BYTES);
            }
        } else if (buffered == 0 && input.capacity() > INITIAL_INPUT_BYTES && lastRead < INITIAL_INPUT_BYTES) {
            input = ByteBuffer.allocate(INITIAL_INPUT_BYTES);
        } else if (!input.hasRemaining()) {
            // The decoder has vetted the length field against the limit: this is bounded.
            long frameBytes = FrameDecoder.peekLength(input.duplicate().flip()) + FrameDecoder.LENGTH_FIELD_BYTES;
            ByteBuffer larger = ByteBuffer.allocate((int) frameBytes);
            larger.put(input.flip());
            input = larger;
        }
    }

    private int fillGather() {
        int count = 0;
        Iterator<OutboundFrame> frames = output.iterator();
        while (count < MAX_GATHERED_WRITES && frames.hasNext()) {
            gather[count++] = frames.next().bytes;
        }
        return count;
    }

    private void completeWritten() {
        OutboundFrame head;
        while ((head = output.peekFirst()) != null && !head.bytes.hasRemaining()) {
            output.pollFirst();
            head.markWritten();
            if (head.written != null) {
                head.written.complete(null);
            }
        }
    }

    private void interest(int ops) {
        if (key.isValid() && key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    private void connectTimedOut() {
        long millis = TimeUnit.NANOSECONDS.toMillis(connectTimeoutNanos);
        String what = state == State.CONNECTING ? "connecting to " + address()
                : tls != null && !tls.handshakeDone() ? "the TLS handshake with " + address()
                : "waiting for WELCOME from " + address();
        close(new SocketTimeoutException(what + " timed out after " + millis + " ms"));
    }

    @Override
    public String toString() {
        return "Connection[" + address() + " " + state + "]";
    }
}
