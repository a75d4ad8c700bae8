/**
 * The cluster in OSGi: {@link io.troupe.cluster.osgi.ClusterComponent} (Declarative Services) runs only with
 * the configuration {@code io.troupe.cluster} ({@link io.troupe.cluster.osgi.ClusterConfiguration}, checked by
 * {@link io.troupe.cluster.osgi.ClusterSettings}); it starts the member ({@link io.troupe.cluster.engine}) on
 * its own thread and registers the replicated state store, {@link io.troupe.api.cluster.TenantPlacement} and
 * {@link io.troupe.api.cluster.ClusterView} ({@link io.troupe.cluster.placement}). Not exported.
 *
 * <p><b>Threading:</b> SCR calls the component one method at a time; the start thread does the slow part.
 */
package io.troupe.cluster.osgi;
