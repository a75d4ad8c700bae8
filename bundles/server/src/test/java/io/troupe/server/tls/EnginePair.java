package io.troupe.server.tls;

import java.nio.ByteBuffer;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * A client engine and a server engine handshaking through memory buffers, delegated tasks run inline:
 * the smallest real TLS conversation, with no socket.
 *
 * <p><b>Threading:</b> one thread.
 */
final class EnginePair {

    private static final int MAX_STEPS = 1000;

    private final SSLEngine client;
    private final SSLEngine server;
    private final ByteBuffer toServer;
    private final ByteBuffer toClient;

    EnginePair(SSLEngine client, SSLEngine server) {
        this.client = client;
        this.server = server;
        int size = Math.max(client.getSession().getPacketBufferSize(), server.getSession().getPacketBufferSize());
        this.toServer = ByteBuffer.allocate(size * 4);
        this.toClient = ByteBuffer.allocate(size * 4);
    }

    /**
     * Runs the handshake to its end.
     *
     * @return the certificate the server presented
     * @throws SSLException the failure either side raised
     */
    X509Certificate handshake() throws SSLException {
        client.beginHandshake();
        server.beginHandshake();
        ByteBuffer app = ByteBuffer.allocate(client.getSession().getApplicationBufferSize() * 2);
        for (int step = 0; step < MAX_STEPS; step++) {
            boolean clientDone = done(client);
            boolean serverDone = done(server);
            if (clientDone && serverDone) {
                Certificate[] chain = client.getSession().getPeerCertificates();
                return (X509Certificate) chain[0];
            }
            step(client, toServer, toClient, app);
            step(server, toClient, toServer, app);
        }
        throw new SSLException("no end of the handshake after " + MAX_STEPS + " steps");
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus status = engine.getHandshakeStatus();
        return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }

    private static void step(SSLEngine engine, ByteBuffer out, ByteBuffer in, ByteBuffer app) throws SSLException {
        HandshakeStatus status = engine.getHandshakeStatus();
        switch (status) {
            case NEED_TASK -> {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            }
            case NEED_WRAP -> engine.wrap(ByteBuffer.allocate(0), out);
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                in.flip();
                SSLEngineResult result = engine.unwrap(in, app);
                in.compact();
                app.clear();
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new SSLException("closed during the handshake");
                }
            }
            default -> { }
        }
    }
}
