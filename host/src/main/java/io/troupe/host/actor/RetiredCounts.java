package io.troupe.host.actor;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the stopped top-level actors of each handler processed and how often their {@code receive} failed, so
 * that a handler's totals ({@link io.troupe.api.monitor.HandlerStats}) are counters that never go back when
 * one of its actors stops (its tenant removed or moved, its actor stopped by an operator): a Prometheus
 * counter that drops reads as a reset.
 *
 * <p>Only actors whose origin is {@code handler:NAME} are kept, by {@code NAME}: handler names are registered
 * by plugins, so the map stays as small as the set of handlers the node ever served. Adding happens once per
 * stopped actor, never on a message's path.
 *
 * <p><b>Threading:</b> {@link #retire} from any thread (the thread that ends an actor); {@link #byHandler}
 * from any thread. Lock-free: a concurrent map of striped adders; a read may see an actor's processed count
 * and not yet its failures.
 */
public final class RetiredCounts {

    /** The origin prefix of the actors a handler creates. */
    public static final String HANDLER_ORIGIN = "handler:";

    private final ConcurrentHashMap<String, LongAdder[]> counts = new ConcurrentHashMap<>();

    /** Adds what an actor of {@code origin} did before it stopped; origins of other kinds are ignored. */
    void retire(String origin, long processed, long failures) {
        if (origin == null || !origin.startsWith(HANDLER_ORIGIN) || (processed == 0 && failures == 0)) {
            return;
        }
        LongAdder[] sums = counts.computeIfAbsent(origin.substring(HANDLER_ORIGIN.length()),
                name -> new LongAdder[] {new LongAdder(), new LongAdder()});
        sums[0].add(processed);
        sums[1].add(failures);
    }

    /** Per handler name, in name order: {processed, failures} of its stopped actors. */
    public Map<String, long[]> byHandler() {
        Map<String, long[]> now = new TreeMap<>();
        counts.forEach((name, sums) -> now.put(name, new long[] {sums[0].sum(), sums[1].sum()}));
        return now;
    }
}
