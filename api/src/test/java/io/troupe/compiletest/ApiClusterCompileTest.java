package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

import io.troupe.api.cluster.ClusterMember;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.cluster.HandoverReport;
import io.troupe.api.cluster.Migration;
import io.troupe.api.cluster.Placement;
import io.troupe.api.cluster.TenantHandover;
import io.troupe.api.cluster.TenantPlacement;

/**
 * Compile-only test of the exported package {@code io.troupe.api.cluster} (1.0.0): every public signature
 * used with its declared types, from outside the package, as the server (placement, handover) and the shell
 * (the view) use them.
 *
 * <p>Its value is that it compiles (see {@link ApiCompileTest}); the single test only lets the runner count
 * the class. When the package gains a public signature, add a use of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class ApiClusterCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheClusterApi() {
        assertEquals("io.troupe.api.cluster", TenantPlacement.class.getPackageName());
    }

    static void usePlacement(TenantPlacement placement) {
        CompletionStage<Placement> claimed = placement.claim("acme");
        String node = placement.localNode();
        Placement local = Placement.local();
        Placement elsewhere = Placement.elsewhere("10.0.0.2:7878", "owned by " + node);
        Placement none = Placement.unavailable("below the quorum");
        Placement built = new Placement(Placement.Kind.ELSEWHERE, "", "moving");
        Placement.Kind kind = local.kind();
        String address = elsewhere.ownerAddress();
        String reason = none.reason();
        claimed.thenAccept(answer -> {
            switch (answer.kind()) {
                case LOCAL, ELSEWHERE, UNAVAILABLE -> {
                }
            }
        });
        assertEquals(Placement.Kind.ELSEWHERE, built.kind());
        assertEquals(kind, Placement.Kind.LOCAL);
        assertEquals(address + reason, address + reason);
    }

    static void useHandover(TenantHandover handover) {
        CompletionStage<HandoverReport> released = handover.release("acme", Duration.ofSeconds(10));
        handover.redirect("acme", "10.0.0.2:7878");
        Set<String> active = handover.activeTenants();
        released.thenAccept(report -> {
            String tenant = report.tenant();
            int sessions = report.sessions();
            long requests = report.requests();
            int actors = report.actors();
            Duration drained = report.drained();
            boolean complete = report.complete();
            String detail = report.detail();
            assertEquals(tenant + sessions + requests + actors + drained + complete + detail + active,
                    tenant + sessions + requests + actors + drained + complete + detail + active);
        });
        new HandoverReport("acme", 1, 2L, 3, Duration.ZERO, true, "drained");
    }

    static void useView(ClusterView view) {
        String name = view.clusterName();
        String local = view.localNode();
        List<String> missing = view.missingMembers();
        for (ClusterMember member : view.members()) {
            String id = member.node();
            String cluster = member.clusterAddress();
            String client = member.clientAddress();
            boolean here = member.local();
            List<String> tenants = member.tenants();
            int sessions = member.sessions();
            double rate = member.requestsPerSecond();
            assertEquals(id + cluster + client + here + tenants + sessions + rate + name + local + missing,
                    id + cluster + client + here + tenants + sessions + rate + name + local + missing);
        }
        for (Migration migration : view.migrations()) {
            String tenant = migration.tenant();
            String from = migration.from();
            String to = migration.to();
            Migration.Cause cause = migration.cause();
            Instant started = migration.started();
            Duration pause = migration.pause();
            boolean done = migration.done();
            assertEquals(tenant + from + to + cause + started + pause + done,
                    tenant + from + to + cause + started + pause + done);
        }
        new ClusterMember("n", "10.0.0.1:5701", "10.0.0.1:7878", true, List.of("acme"), 1, 2.0);
        new Migration("acme", "a", "b", Migration.Cause.CRASH, Instant.EPOCH, Duration.ZERO, false);
        assertEquals(3, Migration.Cause.values().length);
    }
}
