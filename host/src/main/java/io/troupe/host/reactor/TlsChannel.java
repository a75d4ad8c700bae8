package io.troupe.host.reactor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSession;

/**
 * The TLS layer of one {@link TcpConnection}: an {@link SSLEngine} between the socket and the
 * connection, which reads and writes plaintext through it exactly as it would through the socket.
 *
 * <pre>
 *  socket ─read─► netIn (ciphertext) ─unwrap─► the caller's buffer, or appIn when it is too small
 *  queued plaintext ─wrap─► netOut (ciphertext) ─write─► socket
 *  handshake:  NEED_WRAP ─► wrap into netOut, write   NEED_UNWRAP ─► wait for input
 *              NEED_TASK ─► delegated tasks on {@code tasks} (never the loop) ─► Events.tlsTaskDone on the loop
 * </pre>
 *
 * <ul>
 *   <li>{@link #read} returns plaintext bytes, 0 when there are none yet (a partial record, a handshake
 *       under way, tasks running), -1 at the end of input (close_notify or the socket's EOF).</li>
 *   <li>{@link #write} wraps as much plaintext as the socket takes and returns the plaintext consumed;
 *       it takes none before the handshake has finished. Ciphertext the socket did not take stays in
 *       {@code netOut} ({@link #hasPendingOutput}), and {@link Events#tlsWantsWrite} asks for OP_WRITE.</li>
 *   <li><b>Renegotiation is refused:</b> a handshake that starts again after the first one finished, in
 *       TLS 1.2, fails the read with an {@link SSLHandshakeException}, which closes the connection. TLS 1.3
 *       has no renegotiation; its post-handshake messages (key updates) are served.</li>
 *   <li>Ciphertext buffers are taken from the loop's {@link BufferShelf} when needed and put back when
 *       empty, so an exchange reuses the same buffers and an idle TLS connection holds none.</li>
 * </ul>
 *
 * <p><b>Threading:</b> confined to the connection's IO loop, except the delegated tasks, which run on
 * {@code tasks} while the loop leaves the engine alone ({@link #tasksRunning()}: nothing is read, and
 * nothing is wrapped before the handshake has finished); their end is announced on the loop.
 */
final class TlsChannel implements ByteChannel, GatheringByteChannel {

    /** What the connection hears from its TLS layer; on the loop. */
    interface Events {

        /** The first handshake has finished: queued plaintext may now be written. */
        void tlsHandshakeFinished(SSLSession session);

        /** The delegated tasks have run: call {@link #resume()}. */
        void tlsTaskDone();

        /** Ciphertext waits for the socket: watch OP_WRITE. */
        void tlsWantsWrite();
    }

    private static final ByteBuffer NONE = ByteBuffer.allocate(0);
    private static final ByteBuffer[] NO_PLAINTEXT = {NONE};
    /** A TLS record's header: content type, version, length. */
    private static final int RECORD_HEADER_BYTES = 5;

    private final SSLEngine engine;
    private final SocketChannel socket;
    private final EventLoop loop;
    private final Executor tasks;
    private final Events events;

    /** Ciphertext read and not yet unwrapped, in read mode. */
    private ByteBuffer netIn = NONE;
    /** Ciphertext wrapped and not yet written, in read mode. */
    private ByteBuffer netOut = NONE;
    /** Plaintext unwrapped and not yet handed over, in read mode. */
    private ByteBuffer appIn = NONE;
    private boolean handshakeFinished;
    private boolean tasksRunning;
    /** close_notify received, or the socket's end of input. */
    private boolean inputEnded;
    private boolean closeNotifySent;

    TlsChannel(SSLEngine engine, SocketChannel socket, EventLoop loop, Executor tasks, Events events) {
        this.engine = engine;
        this.socket = socket;
        this.loop = loop;
        this.tasks = tasks;
        this.events = events;
    }

    /** Starts the server's side of the handshake (it waits for the ClientHello). */
    void begin() throws SSLException {
        engine.setUseClientMode(false);
        engine.beginHandshake();
    }

    boolean handshakeFinished() {
        return handshakeFinished;
    }

    /** Whether delegated tasks are running: the loop must not read meanwhile. */
    boolean tasksRunning() {
        return tasksRunning;
    }

    /** Whether ciphertext waits for the socket. */
    boolean hasPendingOutput() {
        return netOut.hasRemaining();
    }

    /**
     * Whether plaintext can be read without the socket: bytes unwrapped and not handed over, or whole
     * records left in {@code netIn} because the last read's buffer was full.
     */
    boolean hasBufferedInput() {
        return appIn.hasRemaining() || (!tasksRunning && wholeRecordBuffered());
    }

    // ---- reading ---------------------------------------------------------------------------------

    @Override
    public int read(ByteBuffer dst) throws IOException {
        loop.assertInLoop();
        int handed = handOver(dst);
        if (handed > 0 || tasksRunning) {
            return handed;
        }
        if (!inputEnded && !wholeRecordBuffered() && readSocket() < 0) {
            inputEnded = true;
        }
        int produced = unwrap(dst);
        if (produced == 0 && inputEnded && !appIn.hasRemaining()) {
            return -1;
        }
        return produced;
    }

    /** After the delegated tasks: goes on with the handshake, unwrapping what input is already here. */
    void resume() throws IOException {
        loop.assertInLoop();
        tasksRunning = false;
        if (advance(engine.getHandshakeStatus())) {
            unwrap(null);
        }
    }

    private int readSocket() throws IOException {
        int packetSize = engine.getSession().getPacketBufferSize();
        if (netIn == NONE) {
            netIn = loop.tlsBuffers().take(packetSize).flip();
        } else if (netIn.capacity() - netIn.remaining() < packetSize / 4 && netIn.capacity() < 2 * packetSize) {
            netIn = ByteBuffer.allocate(2 * packetSize).put(netIn).flip();
        }
        netIn.compact();
        try {
            return socket.read(netIn);
        } finally {
            netIn.flip();
        }
    }

    /**
     * Unwraps what {@code netIn} holds into {@code dst} (directly when it has room for a whole record,
     * else through {@code appIn}), driving the handshake meanwhile.
     *
     * @param dst where plaintext goes, or null to keep it in {@code appIn}
     * @return the plaintext bytes put into {@code dst}
     */
    private int unwrap(ByteBuffer dst) throws IOException {
        int produced = 0;
        while (netIn.hasRemaining() && !tasksRunning && !appIn.hasRemaining()) {
            int appSize = engine.getSession().getApplicationBufferSize();
            boolean direct = dst != null && dst.remaining() >= appSize;
            SSLEngineResult result;
            if (direct) {
                result = engine.unwrap(netIn, dst);
                produced += result.bytesProduced();
            } else {
                ByteBuffer staging = stagingBuffer(appSize).compact();
                try {
                    result = engine.unwrap(netIn, staging);
                } finally {
                    staging.flip();
                }
                produced += handOver(dst);
            }
            switch (result.getStatus()) {
                case BUFFER_UNDERFLOW -> {
                    releaseEmptyBuffers();
                    return produced; // a partial record: wait for the socket
                }
                case BUFFER_OVERFLOW -> growStaging(appSize);
                case CLOSED -> {
                    inputEnded = true;
                    sendCloseNotify(); // answer the peer's close_notify
                    releaseEmptyBuffers();
                    return produced;
                }
                case OK -> {
                    if (!advance(result.getHandshakeStatus())) {
                        releaseEmptyBuffers();
                        return produced;
                    }
                }
                default -> throw new IllegalStateException("unknown unwrap status " + result.getStatus());
            }
        }
        releaseEmptyBuffers();
        return produced;
    }

    /** Whether {@code netIn} starts with a whole TLS record. */
    private boolean wholeRecordBuffered() {
        if (netIn.remaining() < RECORD_HEADER_BYTES) {
            return false;
        }
        int at = netIn.position();
        int length = ((netIn.get(at + 3) & 0xff) << 8) | (netIn.get(at + 4) & 0xff);
        return netIn.remaining() >= RECORD_HEADER_BYTES + length;
    }

    private ByteBuffer stagingBuffer(int appSize) {
        if (appIn == NONE) {
            appIn = ByteBuffer.allocate(appSize).flip();
        }
        return appIn;
    }

    private void growStaging(int appSize) {
        appIn = ByteBuffer.allocate(Math.max(appSize, 2 * appIn.capacity())).put(appIn).flip();
    }

    /** Copies what {@code appIn} holds into {@code dst} (none when it is null); returns how much. */
    private int handOver(ByteBuffer dst) {
        if (dst == null || !appIn.hasRemaining()) {
            return 0;
        }
        int count = Math.min(dst.remaining(), appIn.remaining());
        int limit = appIn.limit();
        appIn.limit(appIn.position() + count);
        dst.put(appIn);
        appIn.limit(limit);
        if (!appIn.hasRemaining()) {
            appIn = NONE;
        }
        return count;
    }

    // ---- the handshake ---------------------------------------------------------------------------

    /**
     * Acts on the engine's handshake status after a wrap or unwrap.
     *
     * @return whether unwrapping may go on (false while delegated tasks run)
     */
    private boolean advance(HandshakeStatus status) throws IOException {
        HandshakeStatus current = status;
        while (true) {
            switch (current) {
                case FINISHED, NOT_HANDSHAKING -> {
                    finishHandshake();
                    return true;
                }
                case NEED_TASK -> {
                    refuseRenegotiation();
                    runTasks();
                    return false;
                }
                case NEED_WRAP -> {
                    refuseRenegotiation();
                    current = wrapHandshake();
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    refuseRenegotiation();
                    return true;
                }
                default -> throw new IllegalStateException("unknown handshake status " + current);
            }
        }
    }

    private void finishHandshake() {
        if (!handshakeFinished) {
            handshakeFinished = true;
            events.tlsHandshakeFinished(engine.getSession());
        }
    }

    /** A handshake after the first, in TLS 1.2 or earlier, is a renegotiation: refused. */
    private void refuseRenegotiation() throws SSLHandshakeException {
        if (handshakeFinished && !"TLSv1.3".equals(engine.getSession().getProtocol())) {
            throw new SSLHandshakeException("renegotiation refused (" + engine.getSession().getProtocol()
                    + "): the connection is closed");
        }
    }

    private void runTasks() throws IOException {
        List<Runnable> delegated = new ArrayList<>(2);
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            delegated.add(task);
        }
        tasksRunning = true;
        try {
            tasks.execute(() -> {
                try {
                    delegated.forEach(Runnable::run);
                } finally {
                    loop.execute(events::tlsTaskDone);
                }
            });
        } catch (RejectedExecutionException e) {
            tasksRunning = false;
            throw new IOException("the TLS handshake cannot go on: its task executor refused the work ("
                    + e.getMessage() + ")", e);
        }
    }

    /** Wraps handshake messages while the engine wants to; returns what it wants next. */
    private HandshakeStatus wrapHandshake() throws IOException {
        HandshakeStatus status = HandshakeStatus.NEED_WRAP;
        while (status == HandshakeStatus.NEED_WRAP) {
            SSLEngineResult result = wrapInto(NO_PLAINTEXT, 0, 1);
            status = result.getHandshakeStatus();
            if (status == HandshakeStatus.FINISHED) {
                finishHandshake();
                status = engine.getHandshakeStatus();
            }
            if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                break;
            }
        }
        flushNetOut();
        return status;
    }

    // ---- writing ---------------------------------------------------------------------------------

    @Override
    public int write(ByteBuffer src) throws IOException {
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    @Override
    public long write(ByteBuffer[] srcs) throws IOException {
        return write(srcs, 0, srcs.length);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        loop.assertInLoop();
        if (!flushNetOut() || !handshakeFinished) {
            return 0;
        }
        long consumed = 0;
        while (remaining(srcs, offset, length) > 0) {
            SSLEngineResult result = wrapInto(srcs, offset, length);
            consumed += result.bytesConsumed();
            if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                throw new SSLException("the TLS connection is closed for writing");
            }
            HandshakeStatus status = result.getHandshakeStatus();
            if (status != HandshakeStatus.NOT_HANDSHAKING && status != HandshakeStatus.FINISHED) {
                advance(status);
            }
            if (!flushNetOut()) {
                break;
            }
        }
        return consumed;
    }

    /** One wrap into {@code netOut}, made large enough for a whole record first. */
    private SSLEngineResult wrapInto(ByteBuffer[] srcs, int offset, int length) throws SSLException {
        int packetSize = engine.getSession().getPacketBufferSize();
        if (netOut == NONE) {
            netOut = loop.tlsBuffers().take(packetSize).flip();
        } else if (netOut.capacity() - netOut.remaining() < packetSize) {
            netOut = ByteBuffer.allocate(netOut.remaining() + packetSize).put(netOut).flip();
        }
        netOut.compact();
        try {
            return engine.wrap(srcs, offset, length, netOut);
        } finally {
            netOut.flip();
        }
    }

    /**
     * Writes the pending ciphertext; asks for OP_WRITE when the socket does not take it all.
     *
     * @return whether nothing is pending any more
     */
    boolean flushNetOut() throws IOException {
        while (netOut.hasRemaining()) {
            if (socket.write(netOut) == 0) {
                events.tlsWantsWrite();
                return false;
            }
        }
        release(netOut);
        netOut = NONE;
        return true;
    }

    /** Puts an emptied buffer back on the loop's shelf; the caller forgets it. */
    private void release(ByteBuffer buffer) {
        if (buffer != NONE) {
            loop.tlsBuffers().give(buffer);
        }
    }

    private static long remaining(ByteBuffer[] buffers, int offset, int length) {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += buffers[i].remaining();
        }
        return total;
    }

    // ---- closing ---------------------------------------------------------------------------------

    /**
     * Wraps a close_notify and tries once to write it with what else is pending, without waiting:
     * what the socket does not take is dropped with the connection. Once.
     */
    void sendCloseNotify() {
        if (closeNotifySent) {
            return;
        }
        closeNotifySent = true;
        engine.closeOutbound();
        try {
            while (!engine.isOutboundDone()) {
                if (wrapInto(NO_PLAINTEXT, 0, 1).bytesProduced() == 0) {
                    break;
                }
            }
            socket.write(netOut);
        } catch (IOException e) {
            // the peer is gone or the engine is done: nothing more to say
        }
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    /** Drops the buffers; the socket is the connection's to close. */
    @Override
    public void close() {
        netIn = NONE;
        netOut = NONE;
        appIn = NONE;
    }

    private void releaseEmptyBuffers() {
        if (!netIn.hasRemaining()) {
            release(netIn);
            netIn = NONE;
        }
        if (!appIn.hasRemaining()) {
            appIn = NONE;
        }
    }
}
