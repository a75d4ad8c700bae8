package io.troupe.benchmarks.durable.plugin;

import io.troupe.api.state.Durability;
import io.troupe.api.state.Durable;

/**
 * {@link BenchCounter} made {@link Durable} in a given mode: the runtime stores its total (a
 * {@link Long}) when the mode says, and in {@link Durability#everyTurn()} holds each reply until the
 * total it reports is on disk.
 *
 * <p><b>Threading:</b> an actor, as {@link BenchCounter}; the mode is final.
 */
public final class DurableBenchCounter extends BenchCounter implements Durable {

    private final Durability durability;

    public DurableBenchCounter(Durability durability) {
        this.durability = durability;
    }

    @Override
    public Durability durability() {
        return durability;
    }
}
