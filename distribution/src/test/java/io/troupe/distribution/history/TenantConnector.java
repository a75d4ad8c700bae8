package io.troupe.distribution.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.troupe.client.ClientLoop;
import io.troupe.client.ConnectionListener;
import io.troupe.client.PushListener;
import io.troupe.client.TroupeClient;

/**
 * Opens the clients of a history test: on a shared {@link ClientLoop}, given every server (a single server,
 * or the nodes of a cluster, the list rotated per client so that first HELLOs spread), reconnecting by
 * themselves with a short backoff (100 ms to 1 s: a restarted server is found again within a second), and
 * with the reads marked idempotent, so that a read lost with its connection is sent again.
 *
 * <p><b>Threading:</b> immutable; {@link #connect} blocks the calling thread (never a client's loop thread).
 */
public final class TenantConnector {

    /** The requests sent again after a lost connection: the reads. */
    private static final String[] IDEMPOTENT = {CounterChecker.GET, ChatChecker.HISTORY};
    private static final Duration RETRY = Duration.ofMillis(100);

    private final ClientLoop loop;
    private final List<String> servers;
    private final Duration requestTimeout;
    private final Duration connected;

    /**
     * @param servers        {@code host:port} of each server
     * @param requestTimeout how long a request waits for its reply (longer than the server's 30 s, so that the
     *                       server answers first)
     * @param connected      how long {@link #connect} tries before giving up (the tenant's file may still be
     *                       loading)
     */
    public TenantConnector(ClientLoop loop, List<String> servers, Duration requestTimeout, Duration connected) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("no server to connect to");
        }
        this.loop = loop;
        this.servers = List.copyOf(servers);
        this.requestTimeout = requestTimeout;
        this.connected = connected;
    }

    /**
     * A client of {@code tenant} with a session, HELLO retried every 100 ms until welcomed.
     *
     * @param index     rotates the server list: client {@code i} tries server {@code i mod n} first
     * @param listener  observes the connection (on the loop thread)
     * @param pushes    receives the pushes (on the loop thread), or null
     * @throws AssertionError when no server welcomed the tenant in time
     */
    public TroupeClient connect(String tenant, String token, int index, ConnectionListener listener,
            PushListener pushes) throws InterruptedException {
        List<String> rotated = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            rotated.add(servers.get((index + i) % servers.size()));
        }
        long deadline = System.nanoTime() + connected.toNanos();
        while (true) {
            TroupeClient.Builder builder = TroupeClient.builder().servers(rotated.toArray(String[]::new))
                    .tenant(tenant).token(token).idempotent(IDEMPOTENT).requestTimeout(requestTimeout)
                    .reconnectBackoff(RETRY, Duration.ofSeconds(1)).connectionListener(listener).loop(loop);
            if (pushes != null) {
                builder.pushListener(pushes);
            }
            TroupeClient client = builder.build();
            try {
                client.connect().get(connected.toSeconds(), TimeUnit.SECONDS);
                return client;
            } catch (ExecutionException | TimeoutException e) {
                client.close();
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("tenant '" + tenant + "' not served by " + servers + " within "
                            + connected, e.getCause() == null ? e : e.getCause());
                }
                LockSupport.parkNanos(RETRY.toNanos());
            }
        }
    }

    /** How long a request waits for its reply. */
    public Duration requestTimeout() {
        return requestTimeout;
    }
}
