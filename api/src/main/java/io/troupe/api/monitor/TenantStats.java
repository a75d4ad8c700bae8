package io.troupe.api.monitor;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * One tenant of the message server, as its metrics stand.
 *
 * <p>Throttling (since 1.3): over one of its rate or queue limits, the tenant's connections stop being
 * read until the limit allows the next frame. {@link #throttledNanos} says for how long each limit has
 * held it back, by limit name: {@value #BYTES_PER_SECOND}, {@value #REQUESTS_PER_SECOND} and
 * {@value #QUEUED_MESSAGES}; {@link #throttledBy} names the limits throttling it now.
 *
 * <p>Errors by code and latency (since 1.4): {@link #errorsByCode} splits {@link #errors} by the ERROR
 * frame's code: each protocol code by name ({@code no.handler}, {@code handler.timeout}, ...), and the
 * codes that handlers chose themselves together under {@value #OTHER_ERRORS}, so that the names stay a
 * bounded set. {@link #latency} counts the REQUESTs its handlers answered (with a REPLY or an ERROR,
 * timeouts included) by the time from handing the request to the handler to queuing the answer for the
 * client.
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
 * @param errorsByCode         {@code errors} by code, codes with none left out, sorted by code (since 1.4)
 * @param latency              the latency of its answered REQUESTs since the tenant was added (since 1.4)
 */
public record TenantStats(String tenant, int connections, int maxConnections, long requests,
                          double requestsPerSecond, long errors, int maxRequestsPerSecond, long bytesReceived,
                          Map<String, Long> throttledNanos, Set<String> throttledBy, int maxBytesPerSecond,
                          int maxFrameBytes, int weight, int maxActors, int maxQueuedMessages, Set<String> handlers,
                          Map<String, Long> errorsByCode, RequestLatency latency) {

    /** The limit name of the inbound byte rate in {@link #throttledNanos} and {@link #throttledBy}. */
    public static final String BYTES_PER_SECOND = "bytesPerSecond";
    /** The limit name of the request rate. */
    public static final String REQUESTS_PER_SECOND = "requestsPerSecond";
    /** The limit name of the queued messages. */
    public static final String QUEUED_MESSAGES = "queuedMessages";
    /** The code under which {@link #errorsByCode} counts the errors of codes outside the protocol's (since 1.4). */
    public static final String OTHER_ERRORS = "other";

    public TenantStats {
        Objects.requireNonNull(tenant, "tenant");
        throttledNanos = Map.copyOf(throttledNanos);
        throttledBy = Set.copyOf(throttledBy);
        handlers = Set.copyOf(handlers);
        errorsByCode = Collections.unmodifiableSortedMap(new TreeMap<>(Map.copyOf(errorsByCode)));
        Objects.requireNonNull(latency, "latency");
    }

    /**
     * A tenant's figures without the errors by code and the latency of version 1.4 (none counted): the
     * constructor of version 1.3.
     */
    public TenantStats(String tenant, int connections, int maxConnections, long requests, double requestsPerSecond,
                       long errors, int maxRequestsPerSecond, long bytesReceived, Map<String, Long> throttledNanos,
                       Set<String> throttledBy, int maxBytesPerSecond, int maxFrameBytes, int weight, int maxActors,
                       int maxQueuedMessages, Set<String> handlers) {
        this(tenant, connections, maxConnections, requests, requestsPerSecond, errors, maxRequestsPerSecond,
                bytesReceived, throttledNanos, throttledBy, maxBytesPerSecond, maxFrameBytes, weight, maxActors,
                maxQueuedMessages, handlers, Map.of(), RequestLatency.none());
    }

    /**
     * A tenant's figures without the limits and throttling of version 1.3 (no bytes, never throttled,
     * weight 1, no other limit): the constructor of version 1.0.
     */
    public TenantStats(String tenant, int connections, int maxConnections, long requests, double requestsPerSecond,
                       long errors, int maxRequestsPerSecond) {
        this(tenant, connections, maxConnections, requests, requestsPerSecond, errors, maxRequestsPerSecond, 0,
                Map.of(), Set.of(), 0, 0, 1, 0, 0, Set.of(), Map.of(), RequestLatency.none());
    }

    /** The time {@code limit} (a limit name) has throttled the tenant; 0 for a name it does not list. */
    public long throttledNanos(String limit) {
        return throttledNanos.getOrDefault(limit, 0L);
    }

    /** The ERROR frames of {@code code} sent to the tenant; 0 for a code it does not list (since 1.4). */
    public long errors(String code) {
        return errorsByCode.getOrDefault(code, 0L);
    }
}
