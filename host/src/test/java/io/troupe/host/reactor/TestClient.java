package io.troupe.host.reactor;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/** A blocking loopback client whose reads give up after ten seconds, so a test never hangs. */
final class TestClient implements AutoCloseable {

    static final int READ_TIMEOUT_MILLIS = 10_000;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private TestClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    static TestClient connect(InetSocketAddress address) throws IOException {
        return connect(address, 0);
    }

    /** Connects with a small receive buffer when {@code receiveBuffer} is positive (a slow reader). */
    static TestClient connect(InetSocketAddress address, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        socket.connect(address, READ_TIMEOUT_MILLIS);
        return new TestClient(socket);
    }

    Socket socket() {
        return socket;
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.UTF_8));
    }

    byte[] readExactly(int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("expected " + length + " bytes, the stream ended after " + bytes.length);
        }
        return bytes;
    }

    String readString(int length) throws IOException {
        return new String(readExactly(length), StandardCharsets.UTF_8);
    }

    /** Everything until the server closes (EOF). */
    byte[] readToEnd() throws IOException {
        return in.readAllBytes();
    }

    /** Counts bytes until EOF or a reset, whichever ends the stream. */
    long drainToEnd() throws IOException {
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
    boolean seesEndOfStream() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketException reset) {
            return true;
        }
    }

    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Closes with SO_LINGER 0, which sends a reset instead of a FIN. */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    static byte[] pattern(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ((i * 31 + seed) % 251);
        }
        return bytes;
    }
}
