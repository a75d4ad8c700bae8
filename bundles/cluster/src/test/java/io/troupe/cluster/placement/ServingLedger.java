package io.troupe.cluster.placement;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Which node serves each tenant, as the test sees it: a node serves a tenant from the LOCAL answer of its claim
 * until its handover's release completes. Two nodes serving one tenant at once is a violation, recorded.
 *
 * <p><b>Threading:</b> any thread.
 */
final class ServingLedger {

    private final Map<String, String> servedBy = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();

    /** {@code node} answered LOCAL for {@code tenant}. */
    void serving(String tenant, String node) {
        String other = servedBy.putIfAbsent(tenant, node);
        if (other != null && !other.equals(node)) {
            violations.add("tenant " + tenant + " LOCAL on " + node + " while " + other + " still serves it");
        }
    }

    /** {@code node}'s release of {@code tenant} completed: it serves it no more. */
    void released(String tenant, String node) {
        servedBy.remove(tenant, node);
    }

    /** The node serving {@code tenant}, or null. */
    String servedBy(String tenant) {
        return servedBy.get(tenant);
    }

    List<String> violations() {
        return List.copyOf(violations);
    }
}
