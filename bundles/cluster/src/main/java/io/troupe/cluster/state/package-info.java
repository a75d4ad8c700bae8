/**
 * Durable actor state across the cluster: a {@link io.troupe.api.state.StateStore} on a replicated
 * Hazelcast map, written through to the node's local store.
 *
 * <pre>
 *  runtime ──write──► ReplicatedStateStore ──setAsync──► IMap "troupe.state" (owner + backups)
 *                              │                          key  origin/path@tenant  (StateMapKeys)
 *                              │                          value stamp + snapshot         (StateMapValue)
 *                              └──write-through──► local StateStore (data/state.mv.db)
 *  runtime ──read───► map, else the local store          tenant "" ──► the local store only
 *  cluster start ──seedFrom(local, tenants)──► map: the newest stamp of each key wins
 * </pre>
 *
 * <p><b>Threading:</b> see each class; the store is used from any thread.
 */
package io.troupe.cluster.state;
