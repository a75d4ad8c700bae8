package io.troupe.server.tenant;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import io.troupe.api.TenantPolicy;

/**
 * What one tenant is allowed, as configured ({@link TenantConfiguration}): the server enforces the
 * connection, rate and frame limits itself; weight, actors, queued messages and handler names are the
 * runtime's ({@link #policy()}). Zero means unlimited (for {@code maxFrameBytes}: the server's limit).
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param maxConnections       sessions open at once
 * @param maxRequestsPerSecond REQUEST and SEND frames per second over all the tenant's connections
 * @param maxBytesPerSecond    bytes of frames received per second over all its connections
 * @param maxFrameBytes        the largest frame it may send; 0: the server's limit
 * @param weight               its share of the worker pool, 1 to {@value TenantPolicy#MAX_WEIGHT}
 * @param maxActors            its live actors
 * @param maxQueuedMessages    messages waiting in its mailboxes before its connections pause
 * @param handlers             the handler names it may call; empty: all
 * @param maxPendingOutputBytes bytes of replies not yet taken by its clients, over all its connections,
 *                             before its connections pause
 */
public record TenantLimits(int maxConnections, int maxRequestsPerSecond, int maxBytesPerSecond, int maxFrameBytes,
                           int weight, int maxActors, int maxQueuedMessages, Set<String> handlers,
                           int maxPendingOutputBytes) {

    /** The default {@code maxPendingOutputBytes}: 64 MiB. */
    public static final int DEFAULT_MAX_PENDING_OUTPUT_BYTES = 64 << 20;

    /** The largest {@code maxRequestsPerSecond}. */
    public static final int MAX_REQUESTS_PER_SECOND = 1_000_000;
    /** The largest {@code maxBytesPerSecond}: 1 GB/s. */
    public static final int MAX_BYTES_PER_SECOND = RateLimiter.MAX_RATE;
    /** The smallest {@code maxFrameBytes} other than 0, as for the server's. */
    public static final int MIN_FRAME_BYTES = 1024;

    public TenantLimits {
        handlers = Set.copyOf(new TreeSet<>(Objects.requireNonNull(handlers, "handlers")));
    }

    /** Limits with the default {@code maxPendingOutputBytes}. */
    public TenantLimits(int maxConnections, int maxRequestsPerSecond, int maxBytesPerSecond, int maxFrameBytes,
            int weight, int maxActors, int maxQueuedMessages, Set<String> handlers) {
        this(maxConnections, maxRequestsPerSecond, maxBytesPerSecond, maxFrameBytes, weight, maxActors,
                maxQueuedMessages, handlers, DEFAULT_MAX_PENDING_OUTPUT_BYTES);
    }

    /** The runtime's part: weight, actors, queued messages, handler names. */
    public TenantPolicy policy() {
        return TenantPolicy.defaults().withWeight(weight).withMaxActors(maxActors)
                .withMaxQueuedMessages(maxQueuedMessages).withHandlers(handlers);
    }

    /** The frame limit in force under a server limit of {@code serverMaxFrameBytes}: the lower of the two. */
    public int frameLimit(int serverMaxFrameBytes) {
        return maxFrameBytes == 0 ? serverMaxFrameBytes : Math.min(maxFrameBytes, serverMaxFrameBytes);
    }

    /** The limits, for log lines. */
    public String describe() {
        return "maxConnections=" + maxConnections + ", maxRequestsPerSecond=" + orUnlimited(maxRequestsPerSecond)
                + ", maxBytesPerSecond=" + orUnlimited(maxBytesPerSecond) + ", maxFrameBytes="
                + (maxFrameBytes == 0 ? "the server's" : Integer.toString(maxFrameBytes)) + ", weight=" + weight
                + ", maxActors=" + orUnlimited(maxActors) + ", maxQueuedMessages=" + orUnlimited(maxQueuedMessages)
                + ", handlers=" + (handlers.isEmpty() ? "all" : String.join(",", new TreeSet<>(handlers)))
                + ", maxPendingOutputBytes=" + orUnlimited(maxPendingOutputBytes);
    }

    private static String orUnlimited(int limit) {
        return limit == 0 ? "unlimited" : Integer.toString(limit);
    }
}
