package io.troupe.api.monitor;

/**
 * One tenant of the message server, as its metrics stand.
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
 */
public record TenantStats(String tenant, int connections, int maxConnections, long requests,
                          double requestsPerSecond, long errors, int maxRequestsPerSecond) {
}
