package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.TenantPolicy;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.timer.TimerThread;

/**
 * Tenants on the real worker pool: the share of worker time follows the weights, whatever the turns
 * cost, and each actor still sees its messages in the order each sender sent them.
 */
class FairSchedulingTest {

    private final WorkerPool workers = new WorkerPool(1, 1, "fair-worker", getClass().getClassLoader());
    private final TimerThread timer = new TimerThread("fair-timer");
    /** One message per turn: a turn is one burn, so that the shares converge within a second. */
    private final ActorSystem system = new ActorSystem(workers, timer, name -> Optional.empty(), 1);

    @AfterEach
    void stop() throws InterruptedException {
        system.shutdown(Duration.ofSeconds(5));
        timer.shutdown(5, TimeUnit.SECONDS);
        workers.shutdown(5, TimeUnit.SECONDS);
    }

    /** An actor that burns {@code micros} of CPU per message and sends itself the next one: always runnable. */
    private ActorRef burner(String tenant, long micros) {
        ActorRef actor = system.spawn(FactorySource.of(() -> (ctx, message) -> {
            long until = System.nanoTime() + micros * 1000;
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
            if (!"stop".equals(message)) {
                ctx.self().tell("again");
            }
        }, "burner"), ActorOptions.defaults(), tenant);
        actor.tell("go");
        return actor;
    }

    private Map<String, TenantLoad> loads() {
        return system.tenantLoads(group -> 0).stream().collect(Collectors.toMap(TenantLoad::tenant, load -> load));
    }

    @Test
    void twoSaturatingTenantsShareTheWorkerByWeightWhateverTheirTurnsCost() {
        system.configureTenant("heavy", TenantPolicy.defaults().withWeight(3));
        system.configureTenant("light", TenantPolicy.defaults());
        // light's turns cost 20 times heavy's: by message count it would get 20 times the time
        List<ActorRef> actors = List.of(burner("heavy", 50), burner("heavy", 50), burner("light", 1000));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (loads().values().stream().mapToLong(TenantLoad::workerNanos).sum() < 800_000_000L
                && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // a bounded poll of the condition
        }
        actors.forEach(actor -> system.stop(actor, StopReason.NORMAL));
        Map<String, TenantLoad> loads = loads();
        double ratio = (double) loads.get("heavy").workerNanos() / loads.get("light").workerNanos();
        assertTrue(ratio > 3 * 0.8 && ratio < 3 * 1.2, "weights 3:1 give 3:1 worker time, within 20%: " + ratio);
    }

    @Test
    void aTenantHoldingEveryWorkerLeavesTheReserveToTheNext() throws Exception {
        WorkerPool two = new WorkerPool(2, 4, "reserve-worker", getClass().getClassLoader());
        ActorSystem shared = new ActorSystem(two, timer, name -> Optional.empty(), ActorSystem.DEFAULT_THROUGHPUT);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch hogsRunning = new CountDownLatch(2);
        try {
            List<ActorRef> hogs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                hogs.add(shared.spawn(FactorySource.of(() -> (ctx, message) -> {
                    hogsRunning.countDown();
                    release.await(30, TimeUnit.SECONDS); // a turn that does not end: it holds its worker
                }, "hog"), ActorOptions.defaults(), "hog"));
            }
            ActorRef quiet = shared.spawn(FactorySource.of(() -> (ctx, message) -> ctx.reply(message), "quiet"),
                    ActorOptions.defaults(), "quiet");
            assertEquals(1, two.ensureReserve(), "tenants exist: one worker more than the minimum");
            assertEquals(3, two.size());
            hogs.forEach(hog -> hog.tell("hold"));
            assertTrue(hogsRunning.await(10, TimeUnit.SECONDS));
            assertEquals("hi", shared.ask(quiet, "hi", Duration.ofSeconds(10)).toCompletableFuture()
                    .get(15, TimeUnit.SECONDS), "the quiet tenant is served while the hog holds two workers");
            assertEquals(2, two.groups().stream().filter(group -> group.tenant().equals("hog")).findFirst()
                    .orElseThrow().running(), "the hog runs at most size - 1 turns at once");
        } finally {
            release.countDown();
            shared.shutdown(Duration.ofSeconds(5));
            two.shutdown(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void eachSendersOrderIsKeptWhileTenantsCompete() throws InterruptedException {
        int senders = 4;
        int perSender = 5_000;
        Map<Integer, Integer> lastSeen = new ConcurrentHashMap<>();
        List<String> disorders = new ArrayList<>();
        CountDownLatch all = new CountDownLatch(senders * perSender);
        ActorRef target = system.spawn(FactorySource.of(() -> (ctx, message) -> {
            int[] pair = (int[]) message;
            Integer previous = lastSeen.put(pair[0], pair[1]);
            if (previous != null && previous + 1 != pair[1]) {
                disorders.add(pair[0] + ": " + previous + " then " + pair[1]);
            }
            all.countDown();
        }, "ordered"), ActorOptions.defaults().withMailboxCapacity(senders * perSender), "acme");
        burner("noisy", 100);
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int sender = s;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < perSender; i++) {
                    target.tell(new int[] {sender, i});
                }
            });
            threads.add(thread);
            thread.start();
        }
        assertTrue(all.await(60, TimeUnit.SECONDS), "every message arrived");
        assertEquals(List.of(), disorders);
    }
}
