package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeException;
import io.troupe.api.monitor.TenantLoad;

/** Tenants' actor counts, queued messages and stop, on the deterministic runtime. */
class TenantActorsTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<Object> received = new ArrayList<>();
    private final FactorySource recording = FactorySource.of(() -> (ctx, message) -> received.add(message), "test");

    private ActorRef spawn(String tenant) {
        return runtime.system.spawn(recording, ActorOptions.defaults(), tenant);
    }

    private TenantLoad load(String tenant) {
        return runtime.system.tenantLoads(group -> 0).stream().filter(load -> load.tenant().equals(tenant))
                .findFirst().orElseThrow();
    }

    /** An actor of {@code tenant} that spawns a child per message and records "spawned" or the refusal's code. */
    private ActorRef spawner(String tenant, List<String> outcomes) {
        return runtime.system.spawn(FactorySource.of(() -> (ctx, message) -> {
            try {
                ctx.spawn(() -> (c, m) -> { }, ActorOptions.defaults());
                outcomes.add("spawned");
            } catch (TroupeException e) {
                outcomes.add(e.code());
            }
        }, "parent"), ActorOptions.defaults(), tenant);
    }

    @Test
    void aTenantWithoutPolicyRunsUnderTheDefaults() {
        assertEquals(TenantPolicy.defaults(), runtime.system.tenantPolicy("acme"));
        for (int i = 0; i < 50; i++) {
            spawn("acme");
        }
        runtime.settle();
        assertEquals(50, load("acme").actors());
    }

    @Test
    void spawningBeyondMaxActorsFailsWithTheTenantLimitCode() {
        runtime.system.configureTenant("acme", TenantPolicy.defaults().withMaxActors(2));
        ActorRef first = spawn("acme");
        spawn("acme");
        TroupeException refused = assertThrows(TroupeException.class, () -> spawn("acme"));
        assertEquals(ErrorCode.TENANT_LIMIT_ACTORS, refused.code());
        assertTrue(refused.getMessage().contains("limit of 2 actors"), refused.getMessage());
        spawn("globex"); // another tenant is not affected
        runtime.system.stop(first, StopReason.NORMAL);
        runtime.settle();
        spawn("acme"); // room again once one stopped
        assertEquals(2, load("acme").actors());
    }

    @Test
    void childrenCountAgainstTheirTenant() {
        runtime.system.configureTenant("acme", TenantPolicy.defaults().withMaxActors(3));
        List<String> outcomes = new ArrayList<>();
        ActorRef parent = spawner("acme", outcomes);
        for (int i = 0; i < 4; i++) {
            parent.tell("spawn");
        }
        runtime.settle();
        assertEquals(List.of("spawned", "spawned", ErrorCode.TENANT_LIMIT_ACTORS, ErrorCode.TENANT_LIMIT_ACTORS),
                outcomes);
    }

    @Test
    void queuedMessagesAreCountedAndAProducerWaitsForTheBacklogToFall() {
        runtime.system.configureTenant("acme", TenantPolicy.defaults().withMaxQueuedMessages(8));
        ActorRef actor = spawn("acme");
        runtime.settle();
        AtomicInteger released = new AtomicInteger();
        for (int i = 0; i < 7; i++) {
            actor.tell(i);
        }
        assertEquals(7, load("acme").queuedMessages());
        assertFalse(runtime.system.awaitTenantDrain("acme", released::incrementAndGet), "below the limit");
        actor.tell(7);
        assertTrue(runtime.system.awaitTenantDrain("acme", released::incrementAndGet), "at the limit");
        actor.tell(8); // nothing is refused on the limit's account
        assertEquals(0, released.get());
        runtime.settle();
        assertEquals(1, released.get(), "released once the backlog fell");
        assertEquals(0, load("acme").queuedMessages());
        assertEquals(9, received.size());
        assertFalse(runtime.system.awaitTenantDrain("globex", released::incrementAndGet), "an unknown tenant");
    }

    @Test
    void raisingTheQueueLimitReleasesWaitingProducers() {
        runtime.system.configureTenant("acme", TenantPolicy.defaults().withMaxQueuedMessages(2));
        ActorRef actor = spawn("acme");
        actor.tell(1);
        actor.tell(2);
        AtomicInteger released = new AtomicInteger();
        assertTrue(runtime.system.awaitTenantDrain("acme", released::incrementAndGet));
        runtime.system.configureTenant("acme", TenantPolicy.defaults().withMaxQueuedMessages(100));
        assertEquals(1, released.get());
    }

    @Test
    void stopTenantStopsEveryActorOfItAndTheTenantComesBackFresh() throws Exception {
        runtime.system.configureTenant("acme", TenantPolicy.defaults().withMaxActors(5).withWeight(3));
        ActorRef parent = runtime.system.spawn(FactorySource.of(() -> (ctx, message) ->
                ctx.spawn(() -> (c, m) -> { }, ActorOptions.defaults()), "parent"), ActorOptions.defaults(), "acme");
        parent.tell("child");
        spawn("acme");
        ActorRef other = spawn("globex");
        runtime.settle();
        assertEquals(3, load("acme").actors());

        CompletionStage<Integer> stopped = runtime.system.stopTenant("acme");
        runtime.settle();
        assertEquals(3, stopped.toCompletableFuture().getNow(-1));
        assertTrue(parent.isStopped());
        assertFalse(other.isStopped());
        assertTrue(runtime.system.snapshot().stream().noneMatch(info -> "acme".equals(info.tenant())));
        assertEquals(TenantPolicy.defaults(), runtime.system.tenantPolicy("acme"), "the policy is forgotten");

        spawn("acme");
        assertEquals(1, load("acme").actors(), "counted afresh");
        CompletableFuture<Integer> none = runtime.system.stopTenant("nobody").toCompletableFuture();
        assertEquals(0, none.getNow(-1));
    }

    @Test
    void anActorOfAStoppedTenantCannotSpawnIntoIt() {
        List<String> outcomes = new ArrayList<>();
        ActorRef parent = spawner("acme", outcomes);
        runtime.settle();
        parent.tell("spawn"); // queued before the stop, handled after the tenant was stopped
        runtime.system.stopTenant("acme");
        runtime.settle();
        assertTrue(outcomes.isEmpty() || outcomes.equals(List.of(ErrorCode.ACTOR_STOPPED)), outcomes.toString());
    }
}
