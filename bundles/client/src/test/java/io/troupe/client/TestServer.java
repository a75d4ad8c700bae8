package io.troupe.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.Redirect;

/**
 * A small protocol-v1 server on a loopback port, scriptable per test: it welcomes HELLOs carrying
 * its token (anything else gets {@code auth.failed} and a close), then hands every frame to a
 * {@link Handler} ({@link #ECHO} by default) together with the {@link Peer} to answer through.
 * Blocking sockets and a thread per connection: simple rather than fast.
 *
 * <p>Knobs: {@link #dropNextConnections(int)} accepts and closes at once, {@link #stopListening()}
 * makes further connects fail, {@link #redirectHellos(String)} answers every HELLO with ERROR
 * {@code tenant.moved} as a cluster node that does not own the tenant does, and {@link Peer#moved(String)}
 * ends a session with the redirecting BYE. Observations are queues a test polls with a timeout: {@link #hellos},
 * {@link #peers} (welcomed sessions), {@link #received} (frames after WELCOME), and
 * {@link #acceptNanos}.
 *
 * <p><b>Threading:</b> thread-safe; the handler runs on the connection's thread.
 */
public final class TestServer implements AutoCloseable {

    /** What the server does with each frame after WELCOME. */
    @FunctionalInterface
    public interface Handler {
        void onFrame(Peer peer, Frame frame) throws IOException;
    }

    /** Echoes REQUESTs as REPLYs, answers PINGs, ignores SENDs, and closes after a client BYE. */
    public static final Handler ECHO = (peer, frame) -> {
        switch (frame.type()) {
            case REQUEST -> peer.reply(frame, frame.content());
            case PING -> peer.write(Frame.pong(frame.corrId(), frame.content()));
            case BYE -> peer.close();
            default -> { }
        }
    };

    private static final int MAX_FRAME = 16 * 1024 * 1024;

    public final BlockingQueue<Frame> hellos = new LinkedBlockingQueue<>();
    public final BlockingQueue<Peer> peers = new LinkedBlockingQueue<>();
    public final BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
    public final List<Long> acceptNanos = new CopyOnWriteArrayList<>();

    private final ServerSocket server;
    private final String token;
    private final Thread acceptor;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger dropsLeft = new AtomicInteger();
    private final AtomicInteger sessions = new AtomicInteger();
    private volatile Handler handler = ECHO;
    private volatile boolean listening = true;
    /** Where HELLOs are redirected ("": owner not known), or null to welcome them. */
    private volatile String redirectTarget;

    private TestServer(String token) throws IOException {
        this(token, new ServerSocket(0, 1024, InetAddress.getLoopbackAddress()));
    }

    private TestServer(String token, ServerSocket server) {
        this.token = token;
        this.server = server;
        this.acceptor = new Thread(this::acceptLoop, "test-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A server on an ephemeral loopback port that welcomes HELLOs with {@code token}. */
    public static TestServer start(String token) throws IOException {
        return new TestServer(token);
    }

    /**
     * A server speaking TLS (the JDK's {@code SSLServerSocket}) with {@code context}'s key; with
     * {@code needClientAuth} a client without a certificate its trust managers accept fails the handshake.
     */
    public static TestServer startTls(String token, SSLContext context, boolean needClientAuth) throws IOException {
        SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 1024,
                InetAddress.getLoopbackAddress());
        server.setNeedClientAuth(needClientAuth);
        return new TestServer(token, server);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Replaces the handler for frames read from now on, on every connection. */
    public TestServer handler(Handler newHandler) {
        this.handler = newHandler;
        return this;
    }

    /** Answers every HELLO from now on with ERROR tenant.moved naming {@code target}; null welcomes them again. */
    public TestServer redirectHellos(String target) {
        this.redirectTarget = target;
        return this;
    }

    /** {@code 127.0.0.1:port}, as a redirect names this server. */
    public String address() {
        return "127.0.0.1:" + port();
    }

    /** The next {@code count} connections are accepted and closed before anything is read. */
    public void dropNextConnections(int count) {
        dropsLeft.set(count);
    }

    /**
     * Closes the listening socket: connections made from now on are refused. Waits (up to 10 s) for the
     * accept thread to end: while it is blocked in accept, the kernel keeps the socket listening after
     * {@code close()} has returned, and a connection made in that moment would still be accepted.
     */
    public void stopListening() throws IOException {
        listening = false;
        server.close();
        try {
            acceptor.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the accept thread stopped");
        }
        if (acceptor.isAlive()) {
            throw new IOException("the accept thread of the test server did not end within 10 s");
        }
    }

    /** The next welcomed session, waiting up to 10 s. */
    public Peer nextPeer() throws InterruptedException {
        return poll(peers, "a welcomed session");
    }

    /** The next frame received after WELCOME on any connection, waiting up to 10 s. */
    public Frame nextFrame() throws InterruptedException {
        return poll(received, "a frame");
    }

    static <T> T poll(BlockingQueue<T> queue, String what) throws InterruptedException {
        T item = queue.poll(10, TimeUnit.SECONDS);
        if (item == null) {
            throw new AssertionError("no " + what + " within 10 s");
        }
        return item;
    }

    @Override
    public void close() throws IOException {
        stopListening();
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return;
            }
            if (!listening) {
                // Accepted while closing (see stopListening): as if refused.
                closeQuietly(socket);
                return;
            }
            acceptNanos.add(System.nanoTime());
            if (dropsLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                closeQuietly(socket);
                continue;
            }
            sockets.add(socket);
            Thread reader = new Thread(() -> serve(socket), "test-server-connection");
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void serve(Socket socket) {
        Peer peer = null;
        try {
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            peer = new Peer(socket);
            Frame hello = readFrame(in);
            hellos.add(hello);
            if (hello.type() != io.troupe.protocol.FrameType.HELLO) {
                peer.write(Frame.error(0, ErrorCode.AUTH_REQUIRED, "the first frame must be HELLO"));
                return;
            }
            String target = redirectTarget;
            if (target != null) {
                peer.write(Redirect.error(hello.corrId(), target));
                return;
            }
            if (!token.equals(hello.text())) {
                peer.write(Frame.error(hello.corrId(), ErrorCode.AUTH_FAILED,
                        "unknown tenant or wrong token for '" + hello.name() + "'"));
                return;
            }
            peer.write(Frame.welcome(hello.corrId(), "session-" + sessions.incrementAndGet()));
            peers.add(peer);
            while (!socket.isClosed()) {
                Frame frame = readFrame(in);
                received.add(frame);
                handler.onFrame(peer, frame);
            }
        } catch (IOException e) {
            // EOF, reset, or closed by a test: the connection is over.
        } finally {
            sockets.remove(socket);
            closeQuietly(socket);
            if (peer != null) {
                peer.closed.countDown();
            }
        }
    }

    private static Frame readFrame(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < FrameDecoder.MIN_LENGTH || length > MAX_FRAME) {
            throw new IOException("bad length " + length);
        }
        byte[] frame = new byte[FrameDecoder.LENGTH_FIELD_BYTES + length];
        ByteBuffer.wrap(frame).putInt(length);
        in.readFully(frame, FrameDecoder.LENGTH_FIELD_BYTES, length);
        Frame decoded = new FrameDecoder(MAX_FRAME).decode(ByteBuffer.wrap(frame));
        if (decoded == null) {
            throw new EOFException("incomplete frame");
        }
        return decoded;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    /** One welcomed connection, as the handler and the test see it. */
    public static final class Peer {
        private final Socket socket;
        private final OutputStream out;
        final CountDownLatch closed = new CountDownLatch(1);

        Peer(Socket socket) throws IOException {
            this.socket = socket;
            this.out = new BufferedOutputStream(socket.getOutputStream());
        }

        public void write(Frame frame) throws IOException {
            ByteBuffer bytes = FrameEncoder.encode(frame);
            synchronized (out) {
                out.write(bytes.array(), 0, bytes.limit());
                out.flush();
            }
        }

        public void reply(Frame request, byte[] content) throws IOException {
            write(Frame.reply(request.corrId(), request.name(), content));
        }

        public void error(Frame request, ErrorCode code, String detail) throws IOException {
            write(Frame.error(request.corrId(), code, detail));
        }

        public void push(String name, byte[] content) throws IOException {
            write(Frame.send(name, content));
        }

        public void bye() throws IOException {
            write(Frame.bye());
        }

        /** BYE carrying {@code reason} as its UTF-8 content, as a server that removed the tenant sends it. */
        public void bye(String reason) throws IOException {
            write(new Frame(FrameType.BYE, 0L, "", reason.getBytes(StandardCharsets.UTF_8)));
        }

        /**
         * BYE tenant.moved naming {@code owner} ("" when not known), then the close, as a node whose tenant
         * moved ends its sessions (after answering every request it read).
         */
        public void moved(String owner) throws IOException {
            write(Redirect.bye(owner));
            close();
        }

        /** Closes the socket: the client sees EOF. */
        public void close() throws IOException {
            socket.close();
        }

        /** Whether the connection ended (either side closed) within {@code timeout}. */
        public boolean awaitClosed(Duration timeout) throws InterruptedException {
            return closed.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
