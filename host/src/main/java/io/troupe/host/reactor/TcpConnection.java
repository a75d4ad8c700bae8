package io.troupe.host.reactor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.net.Cancellable;
import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.api.net.ConnectionHandlerFactory;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.TlsEngines;
import io.troupe.host.supervise.FatalErrors;

/**
 * One accepted TCP connection on one IO loop (muduo's TcpConnection).
 *
 * <pre>
 *  CONNECTING ──open()──► OPEN ──close()──► CLOSING ──output drained──► CLOSED
 *                          │  └──abort(), slow consumer──► CLOSING ──(next task)──► CLOSED
 *                          └──I/O error, input overflow, handler threw, both directions shut──► CLOSED
 *  beside the state: output shut down (FIN sent once pending output is written), input shut down (EOF read)
 * </pre>
 *
 * <p>Reading: on each read event, one slice: one read and one {@link ConnectionHandler#onRead}; the
 * loop takes the slices of its ready connections in turn, by fairness group ({@link ReadLanes}), runs
 * its tasks, and selects again, where a connection with more input is ready again at once. A round
 * reads into the loop's shared read buffer while the connection holds no unconsumed bytes, and keeps
 * what the handler leaves in the connection's {@link InputBuffer}, which later rounds read into until
 * it is empty again; so an idle connection holds no read buffer.
 *
 * <p>Writing: {@link #write} counts the bytes and queues them on the lock-free {@link OutputQueue},
 * and asks the loop for one flush until that flush has run; on the loop, with nothing queued, it
 * writes to the socket directly. {@code write(ByteBuffer...)} queues a group of buffers (a large
 * frame's header, content and CRC) as one entry, so nothing comes between them. The loop flushes
 * several buffers per write, copied into its direct staging buffer ({@link StagedChannel}) on a
 * plaintext socket, and watches OP_WRITE only while output remains.
 *
 * <p>Back-pressure on output: while more than the high-water mark of output is pending, the
 * connection is not read (OP_READ is dropped at its next read slice); once the loop has written it
 * down to the low-water mark, reading resumes, and the handler hears {@link ConnectionHandler#onWritable}.
 * So a peer that does not read its replies stops being read, and cannot make the server hold more
 * than about the high-water mark plus the replies to requests already read. While the pending output of
 * all the reactor's connections is over its {@link OutputBudget} (a share of the heap), the mark is lower:
 * a connection with more than {@value OutputBudget#HELD_ABOVE_BYTES} bytes pending is not read until it is
 * down to {@value OutputBudget#RESUME_AT_BYTES}.
 *
 * <p>TLS: with {@link TlsEngines}, the socket is reached through a {@link TlsChannel}, which the
 * reading and writing above use in its place and which hands the handler plaintext only. Output waits
 * until the handshake has finished; delegated handshake tasks run on the reactor's TLS executor, and
 * the connection is not read meanwhile. Direct writes from the loop are for plaintext connections.
 *
 * <p>Admission: the acceptor's {@link Admission.Ticket} is returned when the connection closes, and
 * {@link #markAuthenticated()} tells it the connection no longer counts as unauthenticated.
 *
 * <p>Callbacks are never re-entered: {@link #close}, {@link #abort} and {@link #shutdownOutput}
 * change the state at once (so later writes are ignored) and leave the socket work to a loop task,
 * so {@link ConnectionHandler#onClosed} never runs inside another callback of the same connection.
 *
 * <p><b>Threading:</b> the {@link Connection} methods documented for any thread are lock-free and
 * hand their work to the loop; everything else is confined to the loop ({@code assertInLoop}).
 */
public final class TcpConnection implements Connection, IoHandler, TlsChannel.Events {

    private static final Logger LOG = LoggerFactory.getLogger(TcpConnection.class);
    private static final int MAX_WRITES_PER_FLUSH = 16;

    enum State { CONNECTING, OPEN, CLOSING, CLOSED }

    private final long id;
    private final EventLoop loop;
    private final SocketChannel channel;
    private final InetSocketAddress remoteAddress;
    private final InetSocketAddress localAddress;
    private final ConnectionOptions options;
    private final ConnectionHandlerFactory handlers;
    private final Admission.Ticket admission;
    /** Makes the TLS engine on open; null for plaintext. */
    private final TlsEngines tlsEngines;
    private final Executor tlsTasks;
    private volatile SSLSession tlsSession;

    // Objects of their own rather than fields with VarHandles (which would save 48 B per connection): workers read
    // the state and set flushScheduled at every reply, and as fields they would share cache lines with the
    // loop-confined fields below, which the loop writes all the time. A/B runs on the 2-core machine were too
    // noisy to show the cost either way (±25 % between runs of the same build), so the layout measured for
    // months stays until a quieter machine can tell.
    private final AtomicReference<State> state = new AtomicReference<>(State.CONNECTING);
    private final AtomicBoolean aborting = new AtomicBoolean();
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final Runnable flushTask = this::flushFromTask;
    private final OutputQueue output;
    /** The reactor's heap budget for all connections' pending output. */
    private final OutputBudget budget;
    private volatile boolean outputShutdownRequested;
    private volatile boolean aboveHighWater;
    /** Whether reading stopped for the reactor's {@link OutputBudget} rather than this connection's high-water mark. */
    private volatile boolean heldByBudget;

    // Loop-confined.
    private final InputBuffer input;
    private SelectionKey key;
    private ConnectionHandler handler;
    private boolean readingSuspended;
    /** Whether the connection waits in the loop's {@link ReadLanes}. */
    private boolean queuedForRead;
    /** The loop's fairness group ({@link ReadLanes}); "" for none. */
    private String fairnessGroup = "";
    private boolean waitingForWrite;
    private boolean inputShut;
    private boolean outputShut;
    /** The TLS layer, or null for plaintext. */
    private TlsChannel tls;
    /** What reading goes through: the socket, or the TLS layer over it. */
    private ReadableByteChannel reader;
    /** What writing goes through: the socket, or the TLS layer over it. */
    private GatheringByteChannel writer;

    TcpConnection(long id, EventLoop loop, SocketChannel channel, InetSocketAddress remoteAddress,
            InetSocketAddress localAddress, ConnectionOptions options, ConnectionHandlerFactory handlers) {
        this(id, loop, channel, remoteAddress, localAddress, options, handlers, Admission.Ticket.NONE, null, null,
                OutputBudget.unlimited());
    }

    TcpConnection(long id, EventLoop loop, SocketChannel channel, InetSocketAddress remoteAddress,
            InetSocketAddress localAddress, ConnectionOptions options, ConnectionHandlerFactory handlers,
            Admission.Ticket admission, TlsEngines tlsEngines, Executor tlsTasks, OutputBudget budget) {
        this.id = id;
        this.budget = budget;
        this.output = new OutputQueue(budget);
        this.loop = loop;
        this.channel = channel;
        this.reader = channel;
        this.writer = new StagedChannel(channel, loop);
        this.remoteAddress = remoteAddress;
        this.localAddress = localAddress;
        this.options = options;
        this.handlers = handlers;
        this.admission = admission;
        this.tlsEngines = tlsEngines;
        this.tlsTasks = tlsTasks;
        this.input = new InputBuffer(InputBuffer.DEFAULT_INITIAL_CAPACITY, options.maxInputBuffer(), loop.inputBuffers());
    }

    /** Registers with the loop, creates the handler, calls onOpen, then starts reading. */
    void open() {
        loop.assertInLoop();
        if (!state.compareAndSet(State.CONNECTING, State.OPEN)) {
            return;
        }
        try {
            key = loop.register(channel, 0, this);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot register connection #{} from {} with {}; closing it", id, remoteAddress,
                    loop.name(), e);
            closeNow(e);
            return;
        }
        if (tlsEngines != null && !startTls()) {
            return;
        }
        ConnectionHandler created;
        try {
            created = handlers.create(this);
            if (created == null) {
                throw new NullPointerException(handlers + " returned no handler");
            }
        } catch (Throwable t) {
            if (FatalErrors.isFatal(t)) {
                throw FatalErrors.fatal("creating the handler of connection #" + id + " with " + handlers, t);
            }
            LOG.error("Handler factory {} failed for connection #{} from {}; closing it", handlers, id,
                    remoteAddress, t);
            closeNow(t);
            return;
        }
        handler = created;
        try {
            handler.onOpen(this);
        } catch (Throwable t) {
            handlerFailed("onOpen", t);
            return;
        }
        updateInterest();
    }

    /** Makes the engine and starts the handshake; false (closed) when that fails. */
    private boolean startTls() {
        try {
            SSLEngine engine = tlsEngines.newEngine(remoteAddress);
            if (engine == null) {
                throw new NullPointerException(tlsEngines + " returned no SSLEngine");
            }
            tls = new TlsChannel(engine, channel, loop, tlsTasks, this);
            tls.begin();
            reader = tls;
            writer = tls;
            return true;
        } catch (Throwable t) {
            if (FatalErrors.isFatal(t)) {
                throw FatalErrors.fatal("starting TLS on connection #" + id, t);
            }
            LOG.warn("Cannot start TLS on connection #{} from {}; closing it", id, remoteAddress, t);
            closeNow(t);
            return false;
        }
    }

    EventLoop loop() {
        return loop;
    }

    // ---- Connection: any thread ------------------------------------------------------------------

    @Override
    public long id() {
        return id;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public boolean inLoop() {
        return loop.inLoop();
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        return loop.schedule(task, delay);
    }

    @Override
    public void write(ByteBuffer bytes) {
        if (!bytes.hasRemaining()) {
            return;
        }
        if (!acceptsOutput()) {
            LOG.debug("Connection #{} is closing or its output is shut down; {} bytes ignored", id,
                    bytes.remaining());
            return;
        }
        ByteBuffer own = bytes.slice(); // our position and limit; the caller's stay as they were
        if (loop.inLoop() && canWriteDirectly()) {
            writeDirectly(own);
            return;
        }
        if (afterAdding(output.add(own))) {
            scheduleFlush();
        }
    }

    @Override
    public void write(ByteBuffer... buffers) {
        int count = 0;
        long bytes = 0;
        for (ByteBuffer buffer : buffers) {
            if (buffer.hasRemaining()) {
                count++;
                bytes += buffer.remaining();
            }
        }
        if (count <= 1) {
            for (ByteBuffer buffer : buffers) {
                write(buffer); // the one with bytes, if any (the others return at once)
            }
            return;
        }
        if (!acceptsOutput()) {
            LOG.debug("Connection #{} is closing or its output is shut down; {} bytes ignored", id, bytes);
            return;
        }
        ByteBuffer[] own = new ByteBuffer[count]; // our positions and limits; the caller's stay as they were
        int i = 0;
        for (ByteBuffer buffer : buffers) {
            if (buffer.hasRemaining()) {
                own[i++] = buffer.slice();
            }
        }
        if (loop.inLoop() && canWriteDirectly()) {
            writeDirectly(own);
            return;
        }
        if (afterAdding(output.add(own, bytes))) {
            scheduleFlush();
        }
    }

    @Override
    public long pendingOutputBytes() {
        return Math.max(0, output.pending());
    }

    @Override
    public boolean isWritable() {
        return output.pending() <= options.highWaterMark();
    }

    @Override
    public void suspendReading() {
        if (loop.inLoop()) {
            setReading(false);
        } else {
            loop.execute(() -> setReading(false));
        }
    }

    @Override
    public void resumeReading() {
        if (loop.inLoop()) {
            setReading(true);
        } else {
            loop.execute(() -> setReading(true));
        }
    }

    @Override
    public void shutdownOutput() {
        if (state.get() == State.OPEN && !outputShutdownRequested) {
            outputShutdownRequested = true;
            loop.execute(this::drain);
        }
    }

    @Override
    public void close() {
        if (state.compareAndSet(State.OPEN, State.CLOSING)) {
            loop.execute(this::drain);
        }
    }

    @Override
    public void abort() {
        if (beginAbort()) {
            loop.execute(() -> closeNow(null));
        }
    }

    @Override
    public boolean isOpen() {
        return state.get() != State.CLOSED;
    }

    @Override
    public SSLSession tlsSession() {
        return tlsSession;
    }

    @Override
    public void markAuthenticated() {
        admission.authenticated();
    }

    @Override
    public String toString() {
        return "TcpConnection#" + id + "[" + remoteAddress + " on " + loop.name() + ", " + state.get() + "]";
    }

    // ---- writing ---------------------------------------------------------------------------------

    private boolean acceptsOutput() {
        State current = state.get();
        return (current == State.OPEN || current == State.CONNECTING) && !outputShutdownRequested;
    }

    private boolean canWriteDirectly() {
        return state.get() == State.OPEN && !waitingForWrite && output.isEmpty() && tls == null;
    }

    private void writeDirectly(ByteBuffer bytes) {
        try {
            writer.write(bytes);
        } catch (IOException e) {
            failLater(e);
            return;
        }
        if (bytes.hasRemaining()) {
            long pending = output.addRemainder(bytes);
            setWaitingForWrite(true);
            afterAdding(pending);
        }
    }

    /** One gathering write of a group; what the socket did not take waits, in order, ahead of anything queued. */
    private void writeDirectly(ByteBuffer[] group) {
        try {
            writer.write(group);
        } catch (IOException e) {
            failLater(e);
            return;
        }
        long pending = -1;
        for (ByteBuffer buffer : group) {
            if (buffer.hasRemaining()) {
                pending = output.addRemainder(buffer);
            }
        }
        if (pending >= 0) {
            setWaitingForWrite(true);
            afterAdding(pending);
        }
    }

    /**
     * Applies the water marks and the slow-consumer limit to a new pending count.
     *
     * @return false when the connection is being cut off as a slow consumer
     */
    private boolean afterAdding(long pending) {
        if (!aboveHighWater) {
            if (pending > options.highWaterMark()) {
                aboveHighWater = true;
            } else if (pending > OutputBudget.HELD_ABOVE_BYTES && budget.exceeded()) {
                heldByBudget = true;
                aboveHighWater = true;
            }
        }
        if (pending > options.maxPendingOutput()) {
            closeAsSlowConsumer(pending);
            return false;
        }
        return true;
    }

    private void closeAsSlowConsumer(long pending) {
        if (beginAbort()) {
            ConnectionLimitException cause = ConnectionLimitException.slowConsumer(id, remoteAddress, pending,
                    options.maxPendingOutput());
            LOG.warn("{}; closing it", cause.getMessage());
            loop.execute(() -> closeNow(cause));
        }
    }

    private void scheduleFlush() {
        if (!flushScheduled.get() && flushScheduled.compareAndSet(false, true)) {
            loop.execute(flushTask);
        }
    }

    private void flushFromTask() {
        flushScheduled.set(false); // before draining: a writer that still sees true has queued before
        drain();
    }

    /** Flushes unless OP_WRITE is armed (then the write event flushes); also finishes close/shutdown. */
    private void drain() {
        if (!waitingForWrite) {
            flush();
        }
    }

    private void flush() {
        loop.assertInLoop();
        if (state.get() == State.CLOSED) {
            output.clear(); // a write that raced with the close
            return;
        }
        if (aborting.get()) {
            return;
        }
        if (outputShut) {
            output.clear();
            return;
        }
        try {
            if (tls != null && !tls.flushNetOut()) {
                setWaitingForWrite(true);
                return;
            }
            for (int i = 0; i < MAX_WRITES_PER_FLUSH && !output.isEmpty(); i++) {
                if (output.writeTo(writer) == 0) {
                    break;
                }
            }
        } catch (IOException e) {
            closeNow(e);
            return;
        }
        setWaitingForWrite(socketOutputPending());
        if (aboveHighWater && output.pending() <= resumeMark()) {
            aboveHighWater = false;
            heldByBudget = false;
            updateInterest();
            if (!input.isEmpty() || (tls != null && tls.hasBufferedInput())) {
                loop.readyToRead(this); // input held back while output was above the high-water mark
            }
            if (state.get() == State.OPEN && !notifyWritable()) {
                return;
            }
        }
        if (state.get() != State.CLOSED && output.isEmpty() && (tls == null || !tls.hasPendingOutput())) {
            outputDrained();
        }
    }

    /**
     * Whether bytes wait for the socket to take them: queued output (for TLS, once the handshake has
     * finished, since before that nothing of it can be written) or ciphertext the TLS layer holds.
     */
    private boolean socketOutputPending() {
        if (tls == null) {
            return !output.isEmpty();
        }
        return tls.hasPendingOutput() || (tls.handshakeFinished() && !output.isEmpty());
    }

    private boolean notifyWritable() {
        try {
            handler.onWritable(this);
            return true;
        } catch (Throwable t) {
            handlerFailed("onWritable", t);
            return false;
        }
    }

    /** Everything queued is written: finish a pending close or output shutdown. */
    private void outputDrained() {
        if (state.get() == State.CLOSING) {
            closeNow(null);
            return;
        }
        if (outputShutdownRequested && !outputShut) {
            if (tls != null) {
                tls.sendCloseNotify();
            }
            try {
                channel.shutdownOutput();
            } catch (IOException e) {
                closeNow(e);
                return;
            }
            outputShut = true;
            if (inputShut) {
                closeNow(null);
            }
        }
    }

    private void setWaitingForWrite(boolean waiting) {
        if (waitingForWrite != waiting) {
            waitingForWrite = waiting;
            updateInterest();
        }
    }

    // ---- reading ---------------------------------------------------------------------------------

    /** Readable: queued for the loop's read slices ({@link ReadLanes}); writable: flushed now. */
    @Override
    public void onReady(int readyOps) {
        if ((readyOps & SelectionKey.OP_READ) != 0) {
            loop.readyToRead(this);
        }
        if ((readyOps & SelectionKey.OP_WRITE) != 0 && state.get() != State.CLOSED) {
            flush();
        }
    }

    /** Marks the connection queued in the read lanes; false if it already was. */
    boolean markQueuedForRead() {
        if (queuedForRead) {
            return false;
        }
        queuedForRead = true;
        return true;
    }

    /** The connection has left the read lanes. */
    void unmarkQueuedForRead() {
        queuedForRead = false;
    }

    /** The group whose connections share this loop's reads fairly with other groups'; "" for none. */
    String fairnessGroup() {
        return fairnessGroup;
    }

    @Override
    public void fairnessGroup(String group) {
        loop.assertInLoop();
        fairnessGroup = group == null ? "" : group;
    }

    /**
     * One read slice, as {@link ReadLanes} serves it: one read into a buffer and one
     * {@link ConnectionHandler#onRead}. A connection with more input than a slice is readable again at
     * the loop's next select, and gets its next slice in the next round.
     */
    void readSlice() {
        loop.assertInLoop();
        if (state.get() == State.CLOSED || readingSuspended || inputShut) {
            return;
        }
        if (aboveHighWater || (tls != null && tls.tasksRunning())) {
            updateInterest(); // not read until the output drains or the handshake's tasks are done
            return;
        }
        if (input.isEmpty()) {
            readIntoLoopBuffer();
        } else {
            readIntoOwnBuffer();
        }
        if (tls != null && state.get() != State.CLOSED && tls.hasBufferedInput()) {
            loop.readyToRead(this); // whole records the TLS layer holds: the next round reads them
        }
    }

    /** A slice with nothing unconsumed: read into the loop's buffer, keep only what the handler leaves. */
    private void readIntoLoopBuffer() {
        ByteBuffer shared = loop.readBuffer();
        shared.limit(Math.min(shared.capacity(), options.maxInputBuffer()));
        if (read(shared) <= 0) {
            return;
        }
        shared.flip();
        if (state.get() == State.OPEN) {
            try {
                handler.onRead(this, shared);
            } catch (Throwable t) {
                handlerFailed("onRead", t);
                return;
            }
            if (state.get() != State.CLOSED) {
                input.adopt(shared);
            }
        }
    }

    /** A slice with bytes unconsumed: read behind them in the connection's own buffer. */
    private void readIntoOwnBuffer() {
        if (!input.ensureSpace()) {
            closeOnInputOverflow();
            return;
        }
        if (read(null) > 0) {
            deliver();
        }
    }

    /**
     * Reads once into {@code target}, or into the input buffer when it is null; handles the end of
     * input and errors.
     *
     * @return the bytes read; 0 when there were none or the connection is done reading
     */
    private int read(ByteBuffer target) {
        int read;
        try {
            read = target == null ? input.readFrom(reader) : reader.read(target);
        } catch (IOException e) {
            closeNow(e);
            return 0;
        }
        if (read < 0) {
            endOfInput();
            return 0;
        }
        return read;
    }

    /** Hands the unconsumed input to the handler, or drops it while the connection is closing. */
    private void deliver() {
        ByteBuffer readable = input.flipForRead();
        if (state.get() != State.OPEN) {
            readable.position(readable.limit());
            input.afterRead();
            return;
        }
        try {
            handler.onRead(this, readable);
        } catch (Throwable t) {
            handlerFailed("onRead", t);
            return;
        }
        input.afterRead();
    }

    private void endOfInput() {
        inputShut = true;
        updateInterest();
        if (state.get() == State.OPEN) {
            try {
                handler.onInputShutdown(this);
            } catch (Throwable t) {
                handlerFailed("onInputShutdown", t);
                return;
            }
        }
        if (state.get() != State.CLOSED && outputShut) {
            closeNow(null);
        }
    }

    private void closeOnInputOverflow() {
        ConnectionLimitException cause = ConnectionLimitException.inputOverflow(id, remoteAddress,
                options.maxInputBuffer());
        LOG.warn("{}; closing it", cause.getMessage());
        closeNow(cause);
    }

    private void setReading(boolean enabled) {
        if (state.get() == State.CLOSED) {
            return;
        }
        boolean wasSuspended = readingSuspended;
        readingSuspended = !enabled;
        updateInterest();
        if (enabled && wasSuspended && !input.isEmpty()) {
            loop.execute(this::redeliver); // bytes left unconsumed while suspended: present them again
        }
    }

    /** Pending output at or below which reading resumes: lower when the reactor's budget stopped it. */
    private long resumeMark() {
        return heldByBudget ? Math.min(options.lowWaterMark(), OutputBudget.RESUME_AT_BYTES) : options.lowWaterMark();
    }

    private void redeliver() {
        if (state.get() == State.OPEN && !readingSuspended && !input.isEmpty()) {
            deliver();
        }
    }

    private void updateInterest() {
        if (key == null || !key.isValid()) {
            return;
        }
        boolean reading = !readingSuspended && !inputShut && !aboveHighWater
                && (tls == null || !tls.tasksRunning());
        int ops = (reading ? SelectionKey.OP_READ : 0) | (waitingForWrite ? SelectionKey.OP_WRITE : 0);
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    // ---- closing ---------------------------------------------------------------------------------

    /** Claims the abort (once); later writes are ignored and queued output is never written. */
    private boolean beginAbort() {
        if (!aborting.compareAndSet(false, true)) {
            return false;
        }
        state.compareAndSet(State.OPEN, State.CLOSING);
        return true;
    }

    private void failLater(IOException cause) {
        if (beginAbort()) {
            loop.execute(() -> closeNow(cause));
        }
    }

    private void handlerFailed(String callback, Throwable failure) {
        if (FatalErrors.isFatal(failure)) {
            throw FatalErrors.fatal("running " + callback + " of handler " + handler + " of connection #" + id,
                    failure);
        }
        LOG.warn("Handler {} of connection #{} from {} failed in {}; closing the connection", handler, id,
                remoteAddress, callback, failure);
        closeNow(failure);
    }

    // ---- TLS events, on the loop ------------------------------------------------------------------

    @Override
    public void tlsHandshakeFinished(SSLSession session) {
        tlsSession = session;
        LOG.debug("Connection #{} from {}: {} handshake finished, {}", id, remoteAddress, session.getProtocol(),
                session.getCipherSuite());
        loop.execute(this::drain); // output the handler queued meanwhile
    }

    @Override
    public void tlsTaskDone() {
        if (state.get() == State.CLOSED) {
            return;
        }
        try {
            tls.resume();
        } catch (IOException e) {
            closeNow(e);
            return;
        }
        updateInterest();
        if (tls.hasBufferedInput()) {
            loop.readyToRead(this);
        }
    }

    @Override
    public void tlsWantsWrite() {
        setWaitingForWrite(true);
    }

    @Override
    public void onLoopShutdown() {
        if (state.get() != State.CLOSED && !aborting.get() && !outputShut) {
            try {
                if (tls == null) {
                    output.writeTo(writer); // one last non-blocking attempt
                } else if (tls.flushNetOut()) {
                    output.writeTo(writer);
                }
            } catch (IOException e) {
                LOG.debug("Final write of connection #{} failed", id, e);
            }
        }
        closeNow(null);
    }

    /** Closes the socket, releases the buffers and calls onClosed, once. */
    private void closeNow(Throwable cause) {
        loop.assertInLoop();
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        if (key != null) {
            key.cancel();
        }
        if (tls != null) {
            if (cause == null) {
                tls.sendCloseNotify();
            }
            tls.close();
        }
        admission.released();
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("Closing the socket of connection #{} failed", id, e);
        }
        output.clear();
        input.clear();
        if (cause != null) {
            LOG.debug("Connection #{} from {} closed by {}", id, remoteAddress, cause.toString());
        }
        if (handler != null) {
            try {
                handler.onClosed(this, cause);
            } catch (Throwable t) {
                if (FatalErrors.isFatal(t)) {
                    throw FatalErrors.fatal("running onClosed of handler " + handler + " of connection #" + id, t);
                }
                LOG.warn("Handler {} of connection #{} failed in onClosed", handler, id, t);
            }
        }
    }
}
