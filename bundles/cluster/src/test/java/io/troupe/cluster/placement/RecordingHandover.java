package io.troupe.cluster.placement;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.troupe.api.cluster.HandoverReport;
import io.troupe.api.cluster.TenantHandover;

/**
 * The server's side of a handover, deterministic and in memory: records every release and redirect, and
 * completes each release once its gate opens (open unless a test closes it), telling the {@link ServingLedger}.
 *
 * <p><b>Threading:</b> any thread; a release completes on the thread that opens the gate, or on the caller's.
 */
final class RecordingHandover implements TenantHandover {

    /** One call: {@code release} or {@code redirect}, with the address of a redirect. */
    record Call(String kind, String tenant, String address, long nanos) {
    }

    /** The tenants the tests use ({@code tenant-0} to {@code tenant-99}), all known unless ignored. */
    private static final List<String> ALL_TEST_TENANTS = IntStream.range(0, 100).mapToObj(i -> "tenant-" + i).toList();

    private final String node;
    private final ServingLedger ledger;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private volatile CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);
    private volatile Set<String> ignoring = Set.of();

    RecordingHandover(String node, ServingLedger ledger) {
        this.node = node;
        this.ledger = ledger;
    }

    /** Holds the releases from now on until the returned gate is completed. */
    CompletableFuture<Void> closeGate() {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        gate = closed;
        return closed;
    }

    @Override
    public CompletionStage<HandoverReport> release(String tenant, Duration patience) {
        calls.add(new Call("release", tenant, "", System.nanoTime()));
        return gate.thenApply(ignored -> {
            ledger.released(tenant, node);
            return new HandoverReport(tenant, 1, 3, 2, Duration.ofMillis(1), true, "released");
        });
    }

    @Override
    public void redirect(String tenant, String ownerAddress) {
        calls.add(new Call("redirect", tenant, ownerAddress, System.nanoTime()));
    }

    @Override
    public Set<String> activeTenants() {
        return Set.of();
    }

    @Override
    public Set<String> knownTenants() {
        Set<String> ignored = ignoring;
        return ALL_TEST_TENANTS.stream().filter(tenant -> !ignored.contains(tenant))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The server of this node does not know {@code tenants} from now on (a joining node's files not loaded). */
    void ignore(Set<String> tenants) {
        ignoring = Set.copyOf(tenants);
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    List<Call> calls(String kind, String tenant) {
        return calls.stream().filter(call -> call.kind().equals(kind) && call.tenant().equals(tenant)).toList();
    }
}
