package io.troupe.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * TLS between a {@link Connection} and its non-blocking socket: one client-mode {@link SSLEngine}, the
 * records read and not yet unwrapped, the plaintext unwrapped and not yet taken, and the records
 * wrapped and not yet written.
 *
 * <pre>
 *   socket ──read──► netIn ──unwrap──► appIn ──{@link #read}──► the connection's input buffer
 *   socket ◄─write── netOut ◄──wrap─── the connection's frames ({@link #write})
 * </pre>
 *
 * <p>The handshake advances whenever the connection reads or writes ({@link #pump()}); the engine's
 * delegated tasks (certificate checks, key agreement) run on {@code tasks}, off the loop, and the loop
 * is told through {@code resume} when they are done. Until the handshake has completed,
 * {@link #write} takes no plaintext. Partial records wait in {@code netIn} for the rest; a record
 * holding more plaintext than the connection's buffer takes stays in {@code appIn}, and whole records
 * that did not fit into {@code appIn} stay in {@code netIn}: both count as input waiting without the
 * socket being readable ({@link #hasBufferedInput()}), since the selector reports only bytes not read
 * yet. A handshake failure is reported as an {@link SSLHandshakeException} naming the server and the
 * JDK's reason (untrusted certificate, host name mismatch, expiry, ...).
 *
 * <p><b>Threading:</b> confined to the connection's loop thread, except the delegated tasks, which
 * touch no field here and hand back through {@link SelectorLoop#execute}.
 */
final class TlsTransport {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    private final SocketChannel channel;
    private final SelectorLoop loop;
    private final Executor tasks;
    private final Runnable resume;
    private final String address;

    /** Records read from the socket, not yet unwrapped; write mode. */
    private ByteBuffer netIn;
    /** Records wrapped, not yet written; read mode (position..limit pending). */
    private ByteBuffer netOut;
    /** Plaintext unwrapped, not yet taken by {@link #read}; write mode. */
    private ByteBuffer appIn;
    private boolean tasksRunning;
    private boolean handshakeDone;
    private boolean inboundClosed;
    private boolean eof;
    /** Whether the last unwrapping stopped because {@code appIn} was full: {@code netIn} may hold whole records. */
    private boolean appInWasFull;

    /**
     * @param engine  a client-mode engine for the server
     * @param tasks   where delegated tasks run
     * @param resume  run on the loop once delegated tasks are done: it reads and flushes again
     * @param address the server's {@code host:port}, for messages
     */
    TlsTransport(SSLEngine engine, SocketChannel channel, SelectorLoop loop, Executor tasks, Runnable resume,
            String address) {
        this.engine = engine;
        this.channel = channel;
        this.loop = loop;
        this.tasks = tasks;
        this.resume = resume;
        this.address = address;
        int packet = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(packet);
        this.netOut = ByteBuffer.allocate(packet).flip();
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
    }

    /**
     * Starts the handshake; {@link #pump()} then sends the ClientHello.
     *
     * @throws SSLException when the engine cannot start (no protocol enabled, ...)
     */
    void begin() throws SSLException {
        engine.beginHandshake();
    }

    /** Whether the handshake has completed, so that plaintext can flow. */
    boolean handshakeDone() {
        return handshakeDone;
    }

    /** Whether wrapped records wait for the socket to take them (the connection asks for OP_WRITE). */
    boolean needsWritable() {
        return netOut.hasRemaining();
    }

    /** Whether plaintext waits to be taken, or records to be unwrapped, without the socket being readable. */
    boolean hasBufferedInput() {
        return appIn.position() > 0 || appInWasFull;
    }

    /**
     * Reads from the socket, unwraps what it can (advancing the handshake) and moves plaintext into
     * {@code dst} as far as it has room.
     *
     * @return the plaintext bytes moved, or -1 when the server closed (EOF or close_notify) and nothing is left
     * @throws SSLHandshakeException when the handshake fails
     */
    int read(ByteBuffer dst) throws IOException {
        if (!eof && netIn.hasRemaining() && channel.read(netIn) < 0) {
            eof = true;
        }
        pump();
        appInWasFull = false;
        while (handshakeDone && !tasksRunning && !inboundClosed && appIn.hasRemaining()) {
            if (!unwrap()) {
                break;
            }
            if (engine.getHandshakeStatus() != HandshakeStatus.NOT_HANDSHAKING) {
                pump();
            }
        }
        int moved = drainInto(dst);
        if (moved == 0 && appIn.position() == 0 && (inboundClosed || eof)) {
            // At EOF whatever is left in netIn is a partial record: it can never be read.
            return -1;
        }
        return moved;
    }

    /**
     * Wraps plaintext from {@code sources} and writes the records, as far as the socket takes them.
     * Takes nothing before the handshake has completed.
     *
     * @return the plaintext bytes taken
     */
    long write(ByteBuffer[] sources, int offset, int length) throws IOException {
        pump();
        if (!handshakeDone || tasksRunning || netOut.hasRemaining()) {
            return 0;
        }
        long taken = 0;
        while (remaining(sources, offset, length) > 0) {
            SSLEngineResult result = wrap(sources, offset, length);
            taken += result.bytesConsumed();
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW && !netOut.hasRemaining()) {
                continue;
            }
            if (!flushNet() || result.bytesConsumed() == 0) {
                break;
            }
        }
        return taken;
    }

    /**
     * Advances the handshake as far as it can go now: wraps what the engine has to send, unwraps what
     * has arrived, starts delegated tasks, writes pending records.
     */
    void pump() throws IOException {
        try {
            while (!tasksRunning && flushNet()) {
                HandshakeStatus status = engine.getHandshakeStatus();
                switch (status) {
                    case NEED_WRAP -> wrap(new ByteBuffer[] {EMPTY}, 0, 1);
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                        if (inboundClosed || !unwrap()) {
                            return;
                        }
                    }
                    case NEED_TASK -> runTasks();
                    case FINISHED, NOT_HANDSHAKING -> {
                        handshakeDone = true;
                        return;
                    }
                }
            }
        } catch (SSLHandshakeException e) {
            throw failed(e);
        } catch (SSLException e) {
            throw handshakeDone ? e : failed(e);
        }
    }

    /** Sends close_notify if the socket takes it at once; never waits. */
    void closeQuietly() {
        engine.closeOutbound();
        try {
            if (!netOut.hasRemaining()) {
                wrap(new ByteBuffer[] {EMPTY}, 0, 1);
            }
            flushNet();
        } catch (IOException | RuntimeException e) {
            // The socket closes next; an alert that cannot be sent is not worth a report.
        }
    }

    private SSLHandshakeException failed(SSLException e) {
        closeQuietly();
        SSLHandshakeException failure = new SSLHandshakeException("TLS handshake with " + address + " failed: "
                + e.getMessage());
        failure.initCause(e);
        return failure;
    }

    /**
     * Unwraps one record; false when no whole record is buffered and the socket has no more bytes now
     * (or the server closed).
     */
    private boolean unwrap() throws IOException {
        netIn.flip();
        SSLEngineResult result;
        try {
            result = engine.unwrap(netIn, appIn);
        } finally {
            netIn.compact();
        }
        switch (result.getStatus()) {
            case OK -> {
                if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                    handshakeDone = true;
                }
                return result.bytesConsumed() > 0 || result.bytesProduced() > 0;
            }
            case BUFFER_UNDERFLOW -> {
                int packet = engine.getSession().getPacketBufferSize();
                if (netIn.capacity() < packet) {
                    netIn = grow(netIn, packet);
                }
                // More may have arrived since the last read: take it now, since the selector will
                // not report bytes already taken into netIn.
                int read = eof || !netIn.hasRemaining() ? 0 : channel.read(netIn);
                if (read < 0) {
                    eof = true;
                }
                return read > 0;
            }
            case BUFFER_OVERFLOW -> {
                if (appIn.position() == 0) {
                    appIn = grow(appIn, engine.getSession().getApplicationBufferSize());
                    return true;
                }
                // read() moves the plaintext out first; the caller reads again (hasBufferedInput)
                appInWasFull = true;
                return false;
            }
            case CLOSED -> {
                inboundClosed = true;
                return false;
            }
        }
        return false;
    }

    private SSLEngineResult wrap(ByteBuffer[] sources, int offset, int length) throws IOException {
        netOut.compact();
        SSLEngineResult result;
        try {
            result = engine.wrap(sources, offset, length, netOut);
        } finally {
            netOut.flip();
        }
        switch (result.getStatus()) {
            case BUFFER_OVERFLOW -> {
                if (!netOut.hasRemaining()) {
                    netOut = grow(netOut.compact(), engine.getSession().getPacketBufferSize()).flip();
                }
            }
            case CLOSED -> {
                if (result.bytesProduced() == 0) {
                    throw new SSLException("the TLS connection to " + address + " is closed");
                }
            }
            default -> {
                if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                    handshakeDone = true;
                }
            }
        }
        return result;
    }

    /** Writes pending records; false when the socket took not all of them. */
    private boolean flushNet() throws IOException {
        while (netOut.hasRemaining()) {
            if (channel.write(netOut) == 0) {
                return false;
            }
        }
        return true;
    }

    private void runTasks() {
        List<Runnable> pending = new ArrayList<>();
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            pending.add(task);
        }
        if (pending.isEmpty()) {
            return;
        }
        tasksRunning = true;
        tasks.execute(() -> {
            for (Runnable each : pending) {
                each.run();
            }
            loop.execute(() -> {
                tasksRunning = false;
                resume.run();
            });
        });
    }

    private int drainInto(ByteBuffer dst) {
        if (appIn.position() == 0) {
            return 0;
        }
        appIn.flip();
        int moved = Math.min(appIn.remaining(), dst.remaining());
        ByteBuffer slice = appIn.duplicate();
        slice.limit(slice.position() + moved);
        dst.put(slice);
        appIn.position(appIn.position() + moved);
        appIn.compact();
        return moved;
    }

    private static ByteBuffer grow(ByteBuffer buffer, int atLeast) {
        ByteBuffer larger = ByteBuffer.allocate(Math.max(atLeast, buffer.capacity() * 2));
        buffer.flip();
        larger.put(buffer);
        return larger;
    }

    private static long remaining(ByteBuffer[] sources, int offset, int length) {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += sources[i].remaining();
        }
        return total;
    }
}
