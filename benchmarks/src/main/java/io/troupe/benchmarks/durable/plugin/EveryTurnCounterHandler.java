package io.troupe.benchmarks.durable.plugin;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.state.Durability;

/**
 * The handler of {@code bench.add.turn}, durable every turn: a {@link DurableBenchCounter} in
 * {@link Durability#everyTurn()}, whose replies wait for the store's sync. One actor per tenant, as the
 * counter sample's. Registered by the Declarative Services component that {@code BenchPluginJar} writes
 * (service property {@code troupe.handler = bench.add.turn}), not by annotations: this module is not
 * built as a bundle.
 *
 * <p><b>Threading:</b> stateless; {@link #create()} from any runtime thread, concurrently.
 */
public final class EveryTurnCounterHandler implements ActorFactory {

    @Override
    public Actor create() {
        return new DurableBenchCounter(Durability.everyTurn());
    }
}
