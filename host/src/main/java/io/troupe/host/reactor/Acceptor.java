package io.troupe.host.reactor;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.net.AdmissionLimits;
import io.troupe.api.net.ConnectionHandlerFactory;
import io.troupe.api.net.ListenerOptions;
import io.troupe.api.net.Listener;

/**
 * The acceptor loop and what it does (muduo's Acceptor): binds listening sockets, accepts on them,
 * and hands every accepted socket to the next IO loop, where its {@link TcpConnection} registers and
 * gets its handler.
 *
 * <pre>
 *  listen() ─bind─► TcpListener ─register─► acceptor loop ─OP_ACCEPT─► acceptFrom(): accept … until none
 *                                                                        │ non-blocking, TCP_NODELAY, SO_KEEPALIVE
 *                                                                        ▼
 *                                                group.next().execute(connection::open)
 * </pre>
 *
 * Before a connection exists, the listener's {@link Admission} may refuse it: the socket is then
 * reset at once, so that a flood of connections cannot fill the process's file table or the backlog.
 *
 * <p>An accept that fails (EMFILE, ENFILE, ENOBUFS…) would fail again at once while the connection
 * waits in the backlog, so the listener stops watching OP_ACCEPT for a growing pause
 * ({@link AcceptBackoff}). The failures are logged once per episode: a WARN at the first one, naming
 * the error, and an INFO at the next accept that succeeds, with how long accepts failed and how often.
 * Meanwhile connections wait in the listen backlog and are served once descriptors are free again.
 *
 * <p><b>Threading:</b> {@link #listen} and {@link #shutdown} from any thread but the acceptor loop;
 * {@link #acceptFrom} on the acceptor loop.
 */
final class Acceptor {

    private static final Logger LOG = LoggerFactory.getLogger(Acceptor.class);
    private static final int BACKLOG = 1024;
    /** Per event and listener, so that one busy listener leaves room for the others. */
    private static final int MAX_ACCEPTS_PER_EVENT = 256;

    private final EventLoop loop;
    private final EventLoopGroup group;
    private final LongSupplier connectionIds;
    private final Executor tlsTasks;
    private final OutputBudget budget;

    Acceptor(EventLoop loop, EventLoopGroup group, LongSupplier connectionIds, Executor tlsTasks,
            OutputBudget budget) {
        this.loop = loop;
        this.group = group;
        this.connectionIds = connectionIds;
        this.tlsTasks = tlsTasks;
        this.budget = budget;
    }

    EventLoop loop() {
        return loop;
    }

    /** Binds {@code address} (SO_REUSEADDR) and starts accepting on the acceptor loop. */
    Listener listen(InetSocketAddress address, ConnectionHandlerFactory handlers, ListenerOptions options)
            throws IOException {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(handlers, "handlers");
        Objects.requireNonNull(options, "options");
        if (loop.isShutdown()) {
            throw shutDown(address);
        }
        ServerSocketChannel server = ServerSocketChannel.open();
        InetSocketAddress bound;
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(address, BACKLOG);
            server.configureBlocking(false);
            bound = (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            closeQuietly(server);
            throw cannotListen(address, e);
        }
        Admission admission = options.admission().equals(AdmissionLimits.UNLIMITED) ? null
                : new Admission(loop, options.admission(), bound.toString());
        TcpListener listener = new TcpListener(this, loop, server, bound, handlers, options, admission);
        loop.execute(listener::register);
        if (loop.isTerminated()) {
            listener.close();
            throw shutDown(address);
        }
        LOG.info("Listening on {} ({}{})", bound, options.secure() ? "TLS" : "plaintext",
                admission == null ? "" : ", at most " + options.admission().maxConnections() + " connections, "
                        + options.admission().maxPerAddress() + " per address, "
                        + options.admission().maxUnauthenticated() + " unauthenticated");
        return listener;
    }

    private static IllegalStateException shutDown(InetSocketAddress address) {
        return new IllegalStateException("The reactor is shut down; cannot listen on " + address);
    }

    private static IOException cannotListen(InetSocketAddress address, IOException cause) {
        String message = "Cannot listen on " + address + ": " + cause.getMessage();
        IOException failure = cause instanceof BindException ? new BindException(message) : new IOException(message);
        failure.initCause(cause);
        return failure;
    }

    /** Accepts every pending connection of {@code listener} (up to a bound) and hands each over. */
    void acceptFrom(TcpListener listener) {
        loop.assertInLoop();
        for (int i = 0; i < MAX_ACCEPTS_PER_EVENT; i++) {
            SocketChannel socket;
            try {
                socket = listener.channel().accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                acceptFailed(listener, e);
                return;
            }
            if (socket == null) {
                return;
            }
            AcceptBackoff.Episode ended = listener.backoff().onSuccess(System.nanoTime());
            if (ended != null) {
                LOG.info("Accepting on {} works again after failing for {} ms ({} failed accepts)", listener.address(),
                        TimeUnit.NANOSECONDS.toMillis(ended.nanos()), ended.failures());
            }
            handOver(listener, socket);
        }
    }

    private void acceptFailed(TcpListener listener, IOException failure) {
        AcceptBackoff backoff = listener.backoff();
        long pauseMillis = backoff.onFailure(System.nanoTime());
        if (backoff.started()) {
            LOG.warn("Accepting on {} fails: {}; new connections wait in the backlog while accepts are retried"
                    + " every {} to {} ms; logged again once an accept succeeds", listener.address(),
                    failure.toString(), AcceptBackoff.MIN_PAUSE_MILLIS, AcceptBackoff.MAX_PAUSE_MILLIS);
        }
        listener.pauseAccepting(pauseMillis);
    }

    private void handOver(TcpListener listener, SocketChannel socket) {
        InetSocketAddress remote;
        InetSocketAddress local;
        try {
            socket.configureBlocking(false);
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            socket.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            remote = (InetSocketAddress) socket.getRemoteAddress();
            local = (InetSocketAddress) socket.getLocalAddress();
        } catch (IOException e) {
            LOG.debug("Dropping a connection accepted on {} that failed during setup", listener.address(), e);
            closeQuietly(socket);
            return;
        }
        Admission.Ticket ticket = Admission.Ticket.NONE;
        if (listener.admission() != null) {
            ticket = listener.admission().admit(remote.getAddress());
            if (ticket == null) {
                reset(socket);
                return;
            }
        }
        EventLoop ioLoop = group.next();
        TcpConnection connection = new TcpConnection(connectionIds.getAsLong(), ioLoop, socket, remote, local,
                listener.options().connections(), listener.handlers(), ticket, listener.options().tls(), tlsTasks,
                budget);
        LOG.debug("Accepted connection #{} from {} on {}; it goes to {}", connection.id(), remote,
                listener.address(), ioLoop.name());
        ioLoop.execute(connection::open);
    }

    /**
     * Stops the acceptor loop, which closes every listener, and waits up to {@code timeout} for it.
     *
     * @return whether the loop's thread ended in time
     */
    boolean shutdown(Duration timeout) throws InterruptedException {
        loop.shutdown();
        return loop.awaitTermination(timeout);
    }

    /** Closes a refused socket with a reset (SO_LINGER 0), so that it leaves no TIME_WAIT behind. */
    private static void reset(SocketChannel socket) {
        try {
            socket.setOption(StandardSocketOptions.SO_LINGER, 0);
        } catch (IOException e) {
            LOG.debug("Cannot set SO_LINGER on a refused connection", e);
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(java.nio.channels.Channel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("Closing {} failed", channel, e);
        }
    }
}
