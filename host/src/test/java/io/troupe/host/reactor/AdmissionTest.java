package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.api.net.AdmissionLimits;
import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;
import io.troupe.api.net.ListenerOptions;

/**
 * The acceptor's admission limits over real sockets, from several loopback source addresses
 * (Linux routes all of 127.0.0.0/8 to loopback): over a limit a connection is reset at once and
 * never reaches a handler; within them it is served; a connection that authenticates or closes
 * makes room again.
 */
@Timeout(120)
class AdmissionTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private NioReactor reactor;
    private Listener listener;
    private final LinkedBlockingQueue<Connection> opened = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<Connection> authenticated = new LinkedBlockingQueue<>();
    private final List<Socket> clients = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        reactor = new NioReactor(1);
    }

    @AfterEach
    void stop() throws Exception {
        for (Socket client : clients) {
            client.close();
        }
        if (listener != null) {
            listener.close();
        }
        assertTrue(reactor.shutdown(Duration.ofSeconds(5)), "reactor threads did not end");
    }

    /** A byte 'A' from the client marks its connection authenticated, and is echoed once that is done. */
    private void listen(AdmissionLimits limits) throws IOException {
        listener = reactor.listen(ANY_PORT, connection -> new ConnectionHandler() {
            @Override
            public void onOpen(Connection open) {
                opened.add(open);
            }

            @Override
            public void onRead(Connection reading, ByteBuffer input) {
                while (input.hasRemaining()) {
                    if (input.get() == 'A') {
                        reading.markAuthenticated();
                        authenticated.add(reading);
                    }
                }
            }
        }, ListenerOptions.of(ConnectionOptions.DEFAULTS).withAdmission(limits));
    }

    private Socket connectFrom(String source) throws IOException {
        Socket socket = new Socket();
        clients.add(socket);
        socket.setSoTimeout(10_000); // before connecting: a refused socket may be reset right after
        socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
        socket.connect(listener.address(), 10_000);
        return socket;
    }

    private void assertAdmitted(Socket socket) throws InterruptedException {
        Connection connection = opened.poll(10, TimeUnit.SECONDS);
        assertTrue(connection != null, "no connection opened for " + socket.getLocalSocketAddress());
        assertEquals(socket.getLocalPort(), connection.remoteAddress().getPort());
    }

    /**
     * A connection from {@code source} is reset by the server: the client's connect or read meets the
     * reset or the end, and no handler opened.
     */
    private void assertRefused(String source) throws InterruptedException {
        boolean ended;
        try {
            Socket socket = connectFrom(source);
            ended = socket.getInputStream().read() < 0;
        } catch (IOException reset) {
            ended = true;
        }
        assertTrue(ended, "the refused connection from " + source + " stayed open");
        assertEquals(null, opened.poll(200, TimeUnit.MILLISECONDS), "a refused connection reached a handler");
    }

    private void authenticate(Socket socket) throws Exception {
        socket.getOutputStream().write('A');
        Connection done = authenticated.poll(10, TimeUnit.SECONDS);
        assertTrue(done != null && done.remoteAddress().getPort() == socket.getLocalPort(), "not authenticated");
    }

    @Test
    void oneAddressGetsAtMostItsShare() throws Exception {
        listen(new AdmissionLimits(100, 2, 100));
        assertAdmitted(connectFrom("127.0.0.1"));
        assertAdmitted(connectFrom("127.0.0.1"));
        assertRefused("127.0.0.1");
        assertAdmitted(connectFrom("127.0.0.2"));
        clients.get(0).close();
        // the closed connection's place comes back once the acceptor has counted it out
        assertTrue(admittedWithin(() -> connectFrom("127.0.0.1")), "a closed connection's place never came back");
    }

    @Test
    void unauthenticatedConnectionsCannotTakeThePlacesOfAuthenticatedOnes() throws Exception {
        listen(new AdmissionLimits(100, 100, 2));
        Socket first = connectFrom("127.0.0.1");
        assertAdmitted(first);
        assertAdmitted(connectFrom("127.0.0.2"));
        assertRefused("127.0.0.3");
        authenticate(first);
        assertTrue(admittedWithin(() -> connectFrom("127.0.0.3")), "authenticating did not make room");
        assertRefused("127.0.0.4");
    }

    @Test
    void theListenerAdmitsAtMostItsConnections() throws Exception {
        listen(new AdmissionLimits(2, 100, 100));
        assertAdmitted(connectFrom("127.0.0.1"));
        assertAdmitted(connectFrom("127.0.0.2"));
        assertRefused("127.0.0.3");
        assertRefused("127.0.0.4");
    }

    /** A connection each try, until one is admitted (the acceptor counts a release asynchronously). */
    private boolean admittedWithin(SocketSource source) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                Socket socket = source.connect();
                Connection connection = opened.poll(500, TimeUnit.MILLISECONDS);
                if (connection != null) {
                    return true;
                }
                socket.close();
            } catch (IOException refused) {
                // reset while connecting: still refused, try again
            }
        }
        return false;
    }

    @FunctionalInterface
    private interface SocketSource {
        Socket connect() throws IOException;
    }
}
