package io.troupe.benchmarks.durable.plugin;

import java.time.Duration;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.state.Durability;

/**
 * The handler of {@code bench.add.10ms}, durable at most every 10 ms: a {@link DurableBenchCounter} in
 * {@link Durability#atMostEvery} 10 ms, whose replies leave at once. One actor per tenant, as the
 * counter sample's. Registered by the Declarative Services component that {@code BenchPluginJar} writes
 * (service property {@code troupe.handler = bench.add.10ms}), not by annotations: this module is not
 * built as a bundle.
 *
 * <p><b>Threading:</b> stateless; {@link #create()} from any runtime thread, concurrently.
 */
public final class TenMillisCounterHandler implements ActorFactory {

    private static final Durability EVERY_10_MS = Durability.atMostEvery(Duration.ofMillis(10));

    @Override
    public Actor create() {
        return new DurableBenchCounter(EVERY_10_MS);
    }
}
