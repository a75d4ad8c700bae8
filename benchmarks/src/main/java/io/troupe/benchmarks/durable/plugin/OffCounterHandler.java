package io.troupe.benchmarks.durable.plugin;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;

/**
 * The handler of {@code bench.add.off}, durability off: a {@link BenchCounter}, which the runtime never
 * stores. One actor per tenant, as the counter sample's. Registered by the Declarative Services
 * component that {@code BenchPluginJar} writes (service property {@code troupe.handler = bench.add.off}),
 * not by annotations: this module is not built as a bundle.
 *
 * <p><b>Threading:</b> stateless; {@link #create()} from any runtime thread, concurrently.
 */
public final class OffCounterHandler implements ActorFactory {

    @Override
    public Actor create() {
        return new BenchCounter();
    }
}
