package io.troupe.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.LongUnaryOperator;

/**
 * A client's validated configuration, as built by {@link TroupeClient.Builder}; {@code tls} is null for
 * plaintext.
 *
 * <p><b>Threading:</b> immutable (the listeners it holds are the caller's); any thread.
 */
record ClientSettings(
        String host,
        int port,
        InetSocketAddress localAddress,
        String tenant,
        String token,
        Duration requestTimeout,
        Duration connectTimeout,
        Duration closeTimeout,
        Duration backoffInitial,
        Duration backoffCap,
        LongUnaryOperator backoffJitter,
        boolean reconnect,
        Duration keepAlive,
        int maxFrameBytes,
        PushListener pushListener,
        ConnectionListener connectionListener,
        ClientTls tls) {

    String address() {
        return host + ":" + port;
    }
}
