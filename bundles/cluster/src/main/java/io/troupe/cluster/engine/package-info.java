/**
 * The cluster engine: this node's embedded Hazelcast member ({@link io.troupe.cluster.engine.ClusterNode}),
 * its configuration ({@link io.troupe.cluster.engine.NodeOptions}, the TCP-IP join of
 * {@link io.troupe.cluster.engine.MemberAddress}es, the cluster name
 * {@link io.troupe.cluster.engine.DerivedClusterName derived} from the shared secret) and the names of the
 * {@code troupe.*} structures the other packages share. Not exported.
 *
 * <pre>
 *  ClusterSettings ─► NodeOptions ─► ClusterNode.config() ─► Hazelcast member ◄─► the other members
 *                                                                 (TCP-IP, cluster name = name-HMAC(secret))
 * </pre>
 *
 * <p><b>Threading:</b> see each class; starting and stopping the member block their caller.
 */
package io.troupe.cluster.engine;
