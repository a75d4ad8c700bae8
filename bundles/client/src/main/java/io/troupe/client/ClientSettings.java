package io.troupe.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import java.util.stream.Collectors;

/**
 * A client's validated configuration, as built by {@link TroupeClient.Builder}; {@code tls} is null for
 * plaintext.
 *
 * <p><b>Threading:</b> immutable (the listeners it holds are the caller's); any thread.
 *
 * @param servers      the seeds, at least one, in the order they are tried
 * @param idempotent   the names of the requests that may be sent again after a lost connection
 * @param maxRedirects how many redirects in a row are followed without a WELCOME
 */
record ClientSettings(
        List<ServerAddress> servers,
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
        ClientTls tls,
        Set<String> idempotent,
        int maxRedirects) {

    ClientSettings {
        servers = List.copyOf(servers);
        idempotent = Set.copyOf(idempotent);
    }

    /** The seeds as {@code host:port,host:port...}, for messages. */
    String address() {
        return servers.stream().map(ServerAddress::toString).collect(Collectors.joining(","));
    }
}
