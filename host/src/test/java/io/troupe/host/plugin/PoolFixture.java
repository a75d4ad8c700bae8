package io.troupe.host.plugin;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.troupe.api.ActorFactory;
import io.troupe.api.DeadLetter;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.dispatch.Dispatcher;
import io.troupe.host.timer.Scheduler;
import io.troupe.host.timer.TimerThread;

/**
 * An actor system for pool tests, with the dead letters recorded and a pool factory whose members
 * come straight from an {@link ActorFactory} (origin {@code handler:test}).
 *
 * <p><b>Threading:</b> built and used by the test thread; dead letters are recorded from any thread.
 */
final class PoolFixture implements AutoCloseable {

    final ActorSystem system;
    final ActorPools pools = new ActorPools();
    final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    private final TimerThread timer;
    private final Dispatcher dispatcher;

    PoolFixture(Dispatcher dispatcher) {
        this.dispatcher = dispatcher;
        this.timer = new TimerThread("pool-test-timer");
        this.system = new ActorSystem(dispatcher, timer, name -> Optional.empty(), ActorSystem.DEFAULT_THROUGHPUT);
        system.deadLetters().subscribe(deadLetters::add);
    }

    Scheduler scheduler() {
        return timer;
    }

    ActorPool pool(ActorFactory factory, int min, int max) {
        FactorySource source = FactorySource.of(factory, "handler:test");
        return new ActorPool(system, pools, (runtime, tenant, options) -> runtime.spawn(source, options, tenant),
                min, max, "test", "t1");
    }

    @Override
    public void close() throws InterruptedException {
        if (!(dispatcher instanceof TaskQueue)) { // with a task queue nothing runs unless the test runs it
            system.shutdown(Duration.ofSeconds(5));
        }
        timer.shutdown(5, TimeUnit.SECONDS);
    }
}
