package io.troupe.benchmarks.durable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.troupe.api.ActorFactory;
import io.troupe.benchmarks.durable.plugin.EveryTurnCounterHandler;
import io.troupe.benchmarks.durable.plugin.OffCounterHandler;
import io.troupe.benchmarks.durable.plugin.TenMillisCounterHandler;

/**
 * The three durability modes the suite compares, each served by its own handler of the benchmark
 * plugin ({@link BenchPluginJar}), so that one installation serves all three.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
enum DurabilityMode {

    /** The counter is not {@code Durable}: nothing is stored. */
    OFF("off", "off", "bench.add.off", OffCounterHandler.class),
    /** {@code Durability.everyTurn()}: each reply waits until the total it reports is synced. */
    EVERY_TURN("turn", "every turn", "bench.add.turn", EveryTurnCounterHandler.class),
    /** {@code Durability.atMostEvery(10 ms)}: replies leave at once; the total is stored at most every 10 ms. */
    EVERY_10_MS("10ms", "every 10 ms", "bench.add.10ms", TenMillisCounterHandler.class);

    private final String option;
    private final String label;
    private final String handlerName;
    private final Class<? extends ActorFactory> handler;

    DurabilityMode(String option, String label, String handlerName, Class<? extends ActorFactory> handler) {
        this.option = option;
        this.label = label;
        this.handlerName = handlerName;
        this.handler = handler;
    }

    /** The report's name of the mode. */
    String label() {
        return label;
    }

    /** The message name its handler serves. */
    String handlerName() {
        return handlerName;
    }

    /** Its handler class, inside the benchmark plugin. */
    Class<? extends ActorFactory> handler() {
        return handler;
    }

    /**
     * {@code off,turn,10ms}: the modes of {@code --modes}.
     *
     * @throws IllegalArgumentException naming an unknown mode and the known ones
     */
    static List<DurabilityMode> parseList(String text) {
        List<DurabilityMode> modes = new ArrayList<>();
        for (String item : text.split(",")) {
            String wanted = item.trim().toLowerCase(Locale.ROOT);
            DurabilityMode found = null;
            for (DurabilityMode mode : values()) {
                if (mode.option.equals(wanted)) {
                    found = mode;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("--modes: unknown mode '" + item
                        + "'; the modes are off, turn, 10ms");
            }
            modes.add(found);
        }
        return modes;
    }
}
