package io.troupe.api.monitor;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One tenant of the message server, as its metrics stand.
 *
 * <p>Throttling (since 1.3): over one of its rate or queue limits, the tenant's connections stop being
 * read until the limit allows the next frame. {@link #throttledNanos} says for how long each limit has
 * held it back, by limit name: {@value #BYTES_PER_SECOND}, {@value #REQUESTS_PER_SECOND} and
 * {@value #QUEUED_MESSAGES}; {@link #throttledBy} names the limits throttling it now.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param tenant               the tenant id
 * @param connections          its authenticated connections now
 * @param maxConnections       the most it may hold
 * @param requests             requests (REQUEST and SEND frames) received since the tenant was added
 * @param requestsPerSecond    the request rate over the last complete window (10 s)
 * @param errors               ERROR frames sent to it since the tenant was added
 * @param maxRequestsPerSecond its rate limit; 0 for unlimited
 * @param bytesReceived        bytes of frames received from it since the tenant was added (since 1.3)
 * @param throttledNanos       time each limit has held its connections back, by limit name (since 1.3)
 * @param throttledBy          the names of the limits throttling it now; empty when none (since 1.3)
 * @param maxBytesPerSecond    its inbound byte rate limit; 0 for unlimited (since 1.3)
 * @param maxFrameBytes        the largest frame it may send, the server's limit included (since 1.3)
 * @param weight               its share of the worker pool relative to other tenants (since 1.3)
 * @param maxActors            its live actor limit; 0 for unlimited (since 1.3)
 * @param maxQueuedMessages    its queued message limit; 0 for unlimited (since 1.3)
 * @param handlers             the handler names it may call; empty when it may call every one (since 1.3)
 */
public record TenantStats(String tenant, int connections, int maxConnections, long requests,
                          double requestsPerSecond, long errors, int maxRequestsPerSecond, long bytesReceived,
                          Map<String, Long> throttledNanos, Set<String> throttledBy, int maxBytesPerSecond,
                          int maxFrameBytes, int weight, int maxActors, int maxQueuedMessages, Set<String> handlers) {

    /** The limit name of the inbound byte rate in {@link #throttledNanos} and {@link #throttledBy}. */
    public static final String BYTES_PER_SECOND = "bytesPerSecond";
    /** The limit name of the request rate. */
    public static final String REQUESTS_PER_SECOND = "requestsPerSecond";
    /** The limit name of the queued messages. */
    public static final String QUEUED_MESSAGES = "queuedMessages";

    public TenantStats {
        Objects.requireNonNull(tenant, "tenant");
        throttledNanos = Map.copyOf(throttledNanos);
        throttledBy = Set.copyOf(throttledBy);
        handlers = Set.copyOf(handlers);
    }

    /**
     * A tenant's figures without the limits and throttling of version 1.3 (no bytes, never throttled,
     * weight 1, no other limit): the constructor of version 1.0.
     */
    public TenantStats(String tenant, int connections, int maxConnections, long requests, double requestsPerSecond,
                       long errors, int maxRequestsPerSecond) {
        this(tenant, connections, maxConnections, requests, requestsPerSecond, errors, maxRequestsPerSecond, 0,
                Map.of(), Set.of(), 0, 0, 1, 0, 0, Set.of());
    }

    /** The time {@code limit} (a limit name) has throttled the tenant; 0 for a name it does not list. */
    public long throttledNanos(String limit) {
        return throttledNanos.getOrDefault(limit, 0L);
    }
}
