package io.troupe.ops.metrics;

import io.troupe.api.cluster.ClusterView;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.state.StateStore;

/**
 * Where a scrape reads from: the services of the runtime's parts, each of which may be absent (null) at any
 * moment, since they come and go with their bundles and configuration.
 *
 * <p><b>Threading:</b> any thread; an implementation answers what is registered now, without blocking.
 */
interface MetricSources {

    /** The host's statistics, or null while its monitor is not running. */
    RuntimeStats runtime();

    /** The message server's tenants, or null while the server is not running. */
    ServerStats server();

    /** The durable state store, or null when there is none. */
    StateStore store();

    /** The cluster as this node sees it, or null when it is not a cluster member. */
    ClusterView cluster();
}
