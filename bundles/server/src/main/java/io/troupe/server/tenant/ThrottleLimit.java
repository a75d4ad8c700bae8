package io.troupe.server.tenant;

/**
 * A limit that throttles a tenant: while one of its sessions holds a frame back on its account, that
 * session reads nothing more from its socket. The {@link #key()} names the limit in statistics
 * ({@link io.troupe.api.monitor.TenantStats#throttledNanos()}), the {@link #configKey()} in the
 * tenant's file.
 *
 * <p><b>Threading:</b> immutable.
 */
public enum ThrottleLimit {

    /** Inbound bytes per second over all the tenant's connections. */
    BYTES_PER_SECOND("bytesPerSecond", "maxBytesPerSecond"),
    /** REQUEST and SEND frames per second over all its connections. */
    REQUESTS_PER_SECOND("requestsPerSecond", "maxRequestsPerSecond"),
    /** Messages waiting in all its mailboxes, as the runtime counts them. */
    QUEUED_MESSAGES("queuedMessages", "maxQueuedMessages"),
    /** Bytes of replies written and not yet taken by its clients, over all its connections ({@link PendingOutput}). */
    PENDING_OUTPUT("pendingOutput", "maxPendingOutputBytes");

    private final String key;
    private final String configKey;

    ThrottleLimit(String key, String configKey) {
        this.key = key;
        this.configKey = configKey;
    }

    /**
     * The name in statistics: {@code bytesPerSecond}, {@code requestsPerSecond}, {@code queuedMessages},
     * {@code pendingOutput}.
     */
    public String key() {
        return key;
    }

    /** The key of the tenant's file that sets it. */
    public String configKey() {
        return configKey;
    }

    /** The limit's value in {@code limits}, 0 for none. */
    public int valueIn(TenantLimits limits) {
        return switch (this) {
            case BYTES_PER_SECOND -> limits.maxBytesPerSecond();
            case REQUESTS_PER_SECOND -> limits.maxRequestsPerSecond();
            case QUEUED_MESSAGES -> limits.maxQueuedMessages();
            case PENDING_OUTPUT -> limits.maxPendingOutputBytes();
        };
    }
}
