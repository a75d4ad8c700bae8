package io.troupe.cluster.osgi;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The cluster's configuration, PID {@value #PID} ({@code etc/io.troupe.cluster.cfg} in the distribution;
 * without that file the node runs no cluster at all): every key with its type, default, bounds and
 * description. bnd writes it into {@code OSGI-INF/metatype/io.troupe.cluster.osgi.ClusterConfiguration.xml};
 * {@link ClusterSettings} checks a configuration against that document, adds the rules it cannot express
 * (addresses, the secret) and reads the accepted values through this interface.
 *
 * <p>Every key is read once, when the node joins: a change applies at the next start.
 *
 * <p><b>Threading:</b> the instances ({@link io.troupe.config.TypedConfiguration} views) are immutable.
 */
@ObjectClassDefinition(name = "Troupe cluster",
        description = "Joins this node to a Troupe cluster on embedded Hazelcast (TCP-IP join, multicast off). "
                + "A bad value is logged with its key, file and reason, and the node does not join.")
public @interface ClusterConfiguration {

    /** The ConfigAdmin PID. */
    String PID = "io.troupe.cluster";

    @AttributeDefinition(name = "Cluster name", min = "1", max = "64",
            description = "The cluster's name; the engine's cluster name is derived from it and the secret, so "
                    + "nodes join only with both equal.")
    String clusterName() default "troupe";

    @AttributeDefinition(name = "Members", required = false,
            description = "Comma-separated host[:port] of the members to join (may include this node); a member "
                    + "without a port is taken at this node's port. Empty: this node starts alone.")
    String members() default "";

    @AttributeDefinition(name = "Cluster port", min = "1", max = "65535",
            description = "This node's cluster port (no auto-increment: a port in use stops the join).")
    int port() default 5701;

    @AttributeDefinition(name = "Bind address", min = "1", max = "255",
            description = "The IP address the cluster port listens on; 0.0.0.0 (or ::) for every interface.")
    String bindAddress() default "0.0.0.0";

    @AttributeDefinition(name = "Public address", required = false, max = "300",
            description = "host[:port] the other members use to reach this node (port: this node's port). "
                    + "Empty: the engine picks one of the bound addresses.")
    String publicAddress() default "";

    @AttributeDefinition(name = "Client address", required = false, max = "300",
            description = "host:port clients are redirected to for this node. Empty: the server's bound address, "
                    + "its host replaced by publicAddress's host (or 127.0.0.1) when it listens on 0.0.0.0 or ::.")
    String clientAddress() default "";

    @AttributeDefinition(name = "Shared secret", type = AttributeType.PASSWORD, required = false,
            description = "The members' shared secret, at least 16 characters; never logged. Give it here or in "
                    + "secretFile (preferred), not both.")
    String secret() default "";

    @AttributeDefinition(name = "Shared secret file", required = false, max = "4096",
            description = "A file whose first line is the shared secret (relative: to the installation); it "
                    + "should be readable by its owner only.")
    String secretFile() default "";

    @AttributeDefinition(name = "Backup count", min = "0", max = "6",
            description = "Synchronous backups of the replicated maps (leases, handoffs, state, files, deploys).")
    int backupCount() default 1;

    @AttributeDefinition(name = "Minimum members", min = "1", max = "1000",
            description = "Below this many members the node serves no tenant (clients get server.busy) rather "
                    + "than serving as a minority.")
    int minimumMembers() default 1;

    @AttributeDefinition(name = "Handover timeout", min = "1", max = "3600",
            description = "Seconds a release may take to drain a tenant, and that a claim waits for the "
                    + "previous owner's handover before answering unavailable.")
    int handoverTimeoutSeconds() default 10;

    @AttributeDefinition(name = "Synchronise deploy/",
            description = "Replicate deploy/*.jar across the cluster.")
    boolean syncDeploy() default true;

    @AttributeDefinition(name = "Synchronise tenants",
            description = "Replicate etc/io.troupe.tenant-*.cfg across the cluster.")
    boolean syncTenants() default true;
}
