package io.troupe.api.monitor;

/**
 * One tenant of the message server, as its metrics stand.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param tenant               the tenant id
 * @param connections          its authenticated connections now
 * @param maxConnections       the most it may hold
 * @param requests             requests received since the server started (or the tenant was added)
 * @param requestsPerSecond    the request rate over the last complete window (10 s)
 * @param errors               error replies sent to it since the server started
 * @param maxRequestsPerSecond its rate limit; 0 for unlimited
 */
public record TenantStats(String tenant, int connections, int maxConnections, long requests,
                          double requestsPerSecond, long errors, int maxRequestsPerSecond) {
}
