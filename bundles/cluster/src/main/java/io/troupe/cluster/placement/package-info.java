/**
 * Which node serves each tenant, and how a tenant moves: {@link io.troupe.cluster.placement.TenantOwnership}
 * (the {@link io.troupe.api.cluster.TenantPlacement}: partition owner, leases, claims, reconciliation,
 * crash takeover, graceful leave) with its {@code TenantReleases} (release, handoff, lease removal, redirect)
 * and {@code OwnershipEvents} (what Hazelcast tells it), {@link io.troupe.cluster.placement.NodeFigures}
 * (what each node publishes: its client address and figures), {@link io.troupe.cluster.placement.MigrationLog}
 * (the migrations) and {@link io.troupe.cluster.placement.ClusterViewService} (the
 * {@link io.troupe.api.cluster.ClusterView}).
 * Not exported.
 *
 * <pre>
 *   old owner                          Hazelcast                          new owner
 *   reconcile: owner(t) moved ──► troupe.leases  t -&gt; old ◄── claim(t): putIfAbsent → held by old: wait
 *   release(t) (server drains)
 *   handoffs.set(t, old|paused|CAUSE) ─► troupe.handoffs
 *   leases.remove(t, old) ─────────────► removed ──(entry event)──► putIfAbsent → LOCAL; handoff read,
 *   redirect(t, new's client address)                                  migration recorded (troupe.migrations)
 * </pre>
 *
 * <p><b>Threading:</b> every Hazelcast call of this package runs on the one {@code troupe-cluster} thread of
 * {@link io.troupe.cluster.placement.TenantOwnership}; readers answer from local state on any thread.
 */
package io.troupe.cluster.placement;
