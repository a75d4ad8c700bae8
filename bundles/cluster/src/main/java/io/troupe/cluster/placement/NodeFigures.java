package io.troupe.cluster.placement;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.replicatedmap.ReplicatedMap;

import io.troupe.cluster.engine.ClusterNode;

/**
 * What each node tells the others about itself, in the ReplicatedMap {@value ClusterNode#NODES} (member
 * uuid -> {@code clientAddress|sessions|requestsPerSecond|tenant,tenant,...}): where its clients are sent,
 * and its figures for {@code troupe:cluster}. Every node republishes its own about once a second, and the
 * oldest member drops the entries of members that are gone. Beside them, in {@value ClusterNode#KNOWN}, the
 * tenants its server knows (has loaded the configuration of), written only when they change
 * ({@link #publishKnown}): a tenant's old owner hands it over only once the new owner knows it
 * ({@link #knows}).
 *
 * <p><b>Threading:</b> {@link #publish}, {@link #publishKnown} and {@link #remove} on the cluster thread (they
 * write to the replicated maps); the readers ({@link #figures}, {@link #clientAddress}, {@link #knows}) from
 * any thread: a replicated map is read locally. This node's client address is a volatile field, set from any thread. The suppliers
 * of sessions and requests are called on the cluster thread. {@link #remember} on any thread: it fills a
 * concurrent map the readers fall back to.
 */
public final class NodeFigures {

    /** One node's figures. */
    public record Figures(String clientAddress, int sessions, double requestsPerSecond, List<String> tenants) {

        public Figures {
            Objects.requireNonNull(clientAddress, "clientAddress");
            tenants = List.copyOf(tenants);
        }

        String encode() {
            return clientAddress + "|" + sessions + "|" + String.format(Locale.ROOT, "%.1f", requestsPerSecond)
                    + "|" + String.join(",", tenants);
        }

        static Figures decode(String text) {
            String[] parts = text.split("\\|", -1);
            if (parts.length != 4) {
                throw new IllegalArgumentException("not node figures: '" + text + "'");
            }
            List<String> tenants = parts[3].isEmpty() ? List.of() : Arrays.asList(parts[3].split(","));
            return new Figures(parts[0], Integer.parseInt(parts[1]), Double.parseDouble(parts[2]), tenants);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(NodeFigures.class);

    private final HazelcastInstance instance;
    private final ReplicatedMap<String, String> nodes;
    private volatile String clientAddress;
    private final Map<String, Figures> remembered = new ConcurrentHashMap<>();
    private final ReplicatedMap<String, String> known;
    private final Map<String, Set<String>> rememberedKnown = new ConcurrentHashMap<>();
    private final IntSupplier sessions;
    private final DoubleSupplier requestsPerSecond;
    private final Supplier<? extends Collection<String>> knownTenants;
    // the cluster thread's own: what publishKnown wrote last, and under which uuid
    private String knownWritten;
    private String knownKey;

    /**
     * @param clientAddress     where clients are sent for this node ({@code host:port})
     * @param sessions          this node's open client sessions
     * @param requestsPerSecond the requests per second its clients send
     * @param knownTenants      the tenants this node's server knows
     */
    public NodeFigures(HazelcastInstance instance, String clientAddress, IntSupplier sessions,
            DoubleSupplier requestsPerSecond, Supplier<? extends Collection<String>> knownTenants) {
        this.instance = instance;
        this.nodes = instance.getReplicatedMap(ClusterNode.NODES);
        this.known = instance.getReplicatedMap(ClusterNode.KNOWN);
        this.clientAddress = Objects.requireNonNull(clientAddress, "clientAddress");
        this.sessions = sessions;
        this.requestsPerSecond = requestsPerSecond;
        this.knownTenants = Objects.requireNonNull(knownTenants, "knownTenants");
    }

    /** This member's uuid now (Hazelcast gives it a new one when it merges after a split). */
    private String localNode() {
        return instance.getCluster().getLocalMember().getUuid().toString();
    }

    /** This node's client address. */
    public String localClientAddress() {
        return clientAddress;
    }

    /** Changes this node's client address (the server moved), published with the next figures. */
    public void localClientAddress(String address) {
        clientAddress = Objects.requireNonNull(address, "address");
    }

    /** Publishes this node's figures with the tenants it serves; the oldest member drops departed members'. */
    public void publish(Collection<String> tenants) {
        List<String> sorted = tenants.stream().sorted().toList();
        int open = figure(sessions::getAsInt, -1);
        double rate = figure(requestsPerSecond::getAsDouble, -1.0);
        nodes.put(localNode(), new Figures(clientAddress, open, rate, sorted).encode());
        Set<Member> members = instance.getCluster().getMembers();
        if (!members.isEmpty() && members.iterator().next().localMember()) {
            Set<String> live = new HashSet<>();
            members.forEach(member -> live.add(member.getUuid().toString()));
            for (String node : List.copyOf(nodes.keySet())) {
                if (!live.contains(node)) {
                    nodes.remove(node);
                }
            }
            for (String node : List.copyOf(known.keySet())) {
                if (!live.contains(node)) {
                    known.remove(node);
                }
            }
        }
    }

    /**
     * Writes the tenants this node's server knows, when they changed since the last write (or this member's
     * uuid did): a new owner's readiness reaches the old owners within one tick of the cluster thread.
     */
    public void publishKnown() {
        String text = String.join(",", new TreeSet<>(figure(knownTenants::get, List.of())));
        String key = localNode();
        if (!text.equals(knownWritten) || !key.equals(knownKey)) {
            known.put(key, text);
            knownWritten = text;
            knownKey = key;
        }
    }

    /**
     * Whether {@code node} can take {@code tenant} now: it has published where its clients are sent, and its
     * server knows the tenant.
     */
    public boolean knows(UUID node, String tenant) {
        if (clientAddress(node).isEmpty()) {
            return false;
        }
        String key = node.toString();
        Set<String> tenants;
        try {
            String text = known.get(key);
            tenants = text == null ? Set.of() : tenantSet(text);
        } catch (RuntimeException e) { // a lite member (this one, leaving) reads no replicated map
            tenants = rememberedKnown.getOrDefault(key, Set.of());
        }
        return tenants.contains(tenant);
    }

    /** Withdraws this node's figures (it is leaving: nobody should be sent here any more). */
    public void remove() {
        String node = localNode();
        nodes.remove(node);
        known.remove(node);
    }

    /**
     * Keeps a copy of every node's figures, to answer from once this member can no longer read the map: a
     * member leaving gracefully is demoted to a lite member, which holds no replicated map, while it still
     * sends its released tenants' clients to their new owners.
     */
    public void remember() {
        try {
            for (Map.Entry<String, String> entry : nodes.entrySet()) {
                decode(entry.getKey(), entry.getValue()).ifPresent(figures -> remembered.put(entry.getKey(), figures));
            }
            for (Map.Entry<String, String> entry : known.entrySet()) {
                rememberedKnown.put(entry.getKey(), tenantSet(entry.getValue()));
            }
        } catch (RuntimeException e) {
            LOG.debug("Node figures not copied: {}", e.toString());
        }
    }

    /** The figures {@code node} published last, if any. */
    public Optional<Figures> figures(UUID node) {
        String key = node.toString();
        String text;
        try {
            text = nodes.get(key);
        } catch (RuntimeException e) { // a lite member (this one, leaving) reads no replicated map
            return Optional.ofNullable(remembered.get(key));
        }
        return text == null ? Optional.empty() : decode(key, text);
    }

    private static Optional<Figures> decode(String node, String text) {
        try {
            return Optional.of(Figures.decode(text));
        } catch (IllegalArgumentException e) {
            LOG.debug("Node {}: {}", node, e.getMessage());
            return Optional.empty();
        }
    }

    /** Where clients are sent for {@code node}, or {@code ""} when it has not published it (yet). */
    public String clientAddress(UUID node) {
        return figures(node).map(Figures::clientAddress).orElse("");
    }

    private static Set<String> tenantSet(String commaSeparated) {
        return commaSeparated.isEmpty() ? Set.of() : new HashSet<>(Arrays.asList(commaSeparated.split(",")));
    }

    private static <T> T figure(Supplier<T> supplier, T unknown) {
        try {
            return supplier.get();
        } catch (RuntimeException e) {
            LOG.debug("A figure could not be read: {}", e.toString());
            return unknown;
        }
    }
}
