package io.troupe.cluster.engine;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link ClusterNode} needs to build and start its Hazelcast member, taken from the checked
 * configuration (the OSGi layer's {@code ClusterSettings}) or written by a test.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param clusterName      the configured cluster name (the engine's is {@link DerivedClusterName derived})
 * @param secret           the shared secret (never logged)
 * @param members          the members to join, possibly this node among them
 * @param port             this node's cluster port, without auto-increment
 * @param bindAddress      the IP literal the port listens on; {@code 0.0.0.0} or {@code ::} for every interface
 * @param publicAddress    the address the other members reach this node at, when configured
 * @param backupCount      synchronous backups of the {@code troupe.*} maps, 0..6
 * @param classLoader      the class loader Hazelcast deserializes our classes with (the cluster bundle's)
 * @param engineProperties Hazelcast properties set after ours (tests: a smaller partition count), may override them
 */
public record NodeOptions(String clusterName, String secret, List<MemberAddress> members, int port,
        String bindAddress, Optional<MemberAddress> publicAddress, int backupCount, ClassLoader classLoader,
        Map<String, String> engineProperties) {

    public NodeOptions {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(publicAddress, "publicAddress");
        Objects.requireNonNull(classLoader, "classLoader");
        members = List.copyOf(members);
        engineProperties = Map.copyOf(engineProperties);
        if (backupCount < 0 || backupCount > 6) {
            throw new IllegalArgumentException("backupCount " + backupCount + " is outside 0..6");
        }
    }

    /** Whether the port listens on every interface. */
    public boolean bindsAny() {
        return bindAddress.equals("0.0.0.0") || bindAddress.equals("::") || bindAddress.equals("0:0:0:0:0:0:0:0");
    }

    /** The options without the secret. */
    @Override
    public String toString() {
        return "NodeOptions[clusterName=" + clusterName + ", members=" + members + ", port=" + port
                + ", bindAddress=" + bindAddress + ", publicAddress=" + publicAddress.map(Object::toString).orElse("")
                + ", backupCount=" + backupCount + ", engineProperties=" + engineProperties + "]";
    }
}
