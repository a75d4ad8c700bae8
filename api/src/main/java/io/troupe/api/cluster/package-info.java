/**
 * Clustering: the contracts between the optional cluster bundle, which decides which node serves each
 * tenant, and the message server, which serves them. With no cluster configured, none of these services
 * is registered and every tenant is served wherever its clients connect.
 *
 * <ul>
 * <li>{@link io.troupe.api.cluster.TenantPlacement}, from the cluster: whether a tenant may be served on
 * this node now, or where it is served instead.</li>
 * <li>{@link io.troupe.api.cluster.TenantHandover}, from the server: pauses a tenant that is moving away,
 * drains it and stops its actors (their state is stored), then sends its clients to the new owner.</li>
 * <li>{@link io.troupe.api.cluster.ClusterView}, from the cluster: the members, what each serves, and the
 * migrations, for the shell, the statistics and operators' tools.</li>
 * </ul>
 *
 * <p><b>Threading:</b> see each type; none of their methods blocks its caller.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package io.troupe.api.cluster;
