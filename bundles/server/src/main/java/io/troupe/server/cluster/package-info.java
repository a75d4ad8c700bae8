/**
 * The server's side of a cluster: where each HELLO's tenant is served ({@link TenantPlacements}, asking the
 * cluster's {@link io.troupe.api.cluster.TenantPlacement}), and how a tenant leaves this node
 * ({@link TenantMoves}, the {@link io.troupe.api.cluster.TenantHandover} the cluster calls): its sessions
 * paused and drained, its actors stopped with their state stored, its clients redirected. Without a
 * cluster, every tenant is served here and none of this waits for anything.
 */
package io.troupe.server.cluster;
