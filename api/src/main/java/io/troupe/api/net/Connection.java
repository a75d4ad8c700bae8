package io.troupe.api.net;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

import javax.net.ssl.SSLSession;

import org.osgi.annotation.versioning.ProviderType;

/**
 * One TCP connection, owned by one IO loop (muduo's TcpConnection). TCP_NODELAY is on.
 *
 * <p>States: open → (output shut down) → closed. Output queued before {@link #close()} or
 * {@link #shutdownOutput()} is flushed first.
 *
 * <p><b>Threading:</b> methods marked <i>any thread</i> may be called from anywhere and hand their
 * work to the owning loop when called elsewhere; the others only on the loop, i.e. from the
 * handler's callbacks or from tasks given to {@link #execute}/{@link #schedule}.
 */
@ProviderType
public interface Connection {

    /** A unique id within the reactor. <i>Any thread.</i> */
    long id();

    /** <i>Any thread.</i> */
    InetSocketAddress remoteAddress();

    /** <i>Any thread.</i> */
    InetSocketAddress localAddress();

    /** Whether the caller runs on this connection's loop. <i>Any thread.</i> */
    boolean inLoop();

    /** Runs {@code task} on this connection's loop (later, even when called on the loop). <i>Any thread.</i> */
    void execute(Runnable task);

    /**
     * Runs {@code task} on this connection's loop after {@code delay}, even if the connection has closed
     * by then (check {@link #isOpen()}). <i>Any thread.</i>
     */
    Cancellable schedule(Runnable task, Duration delay);

    /**
     * Queues {@code bytes} (its remaining bytes; the buffer is not copied, so its content must not be
     * changed afterwards, but its position and limit are left alone) for writing in order. Ignored
     * once the connection is closing. <i>Any thread.</i>
     */
    void write(ByteBuffer bytes);

    /**
     * Queues the remaining bytes of each of {@code buffers}, in order and together: no other write
     * comes between them (since 1.3). They are not copied where the connection can write them with
     * gathering writes (the reactor's connections do), so their content must not be changed
     * afterwards; their positions and limits are left alone. This default joins them into one buffer
     * and calls {@link #write(ByteBuffer)}. Ignored once the connection is closing. <i>Any thread.</i>
     */
    default void write(ByteBuffer... buffers) {
        int bytes = 0;
        for (ByteBuffer buffer : buffers) {
            bytes = Math.addExact(bytes, buffer.remaining());
        }
        ByteBuffer joined = ByteBuffer.allocate(bytes);
        for (ByteBuffer buffer : buffers) {
            joined.put(buffer.duplicate());
        }
        write(joined.flip());
    }

    /** Bytes queued and not yet written to the socket. <i>Any thread.</i> */
    long pendingOutputBytes();

    /** Whether pending output is at or below the high-water mark. <i>Any thread.</i> */
    boolean isWritable();

    /** Stops reading from the socket until {@link #resumeReading()} (backpressure). <i>Any thread.</i> */
    void suspendReading();

    /** Resumes reading; bytes left unconsumed are presented again at once. <i>Any thread.</i> */
    void resumeReading();

    /** Half-close: sends FIN once pending output is written; reading continues. <i>Any thread.</i> */
    void shutdownOutput();

    /** Closes after pending output is written. <i>Any thread.</i> */
    void close();

    /** Closes now, dropping pending output. <i>Any thread.</i> */
    void abort();

    /** Whether the connection is not yet closed. <i>Any thread.</i> */
    boolean isOpen();

    /**
     * Puts this connection into a fairness group of its loop, e.g. the tenant it serves (since 1.1).
     * When connections of several groups are ready to read at once, the loop reads them one slice (one
     * read buffer) at a time, taking the groups in turn, so that one group's many busy connections
     * delay another group's by at most one slice. Connections start in the group {@code ""}. Only on
     * the connection's loop. Connections that do not share a loop with others may ignore it (the
     * default).
     */
    default void fairnessGroup(String group) {
    }

    /**
     * The TLS session of this connection (since 1.2): its protocol, cipher suite and, with client
     * certificates, the peer's verified certificate chain. {@code null} on a plaintext connection.
     * On a TLS connection the handshake has completed before the first {@link ConnectionHandler#onRead},
     * so a handler reading input always finds it. <i>Any thread.</i>
     */
    default SSLSession tlsSession() {
        return null;
    }

    /**
     * Tells the listener that this connection's peer has proven who it is (since 1.2): from now on it
     * no longer counts against {@link AdmissionLimits#maxUnauthenticated()}. Idempotent. <i>Any thread.</i>
     */
    default void markAuthenticated() {
    }
}
