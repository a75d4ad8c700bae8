package io.troupe.host.monitor;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.host.plugin.ActorPool;
import io.troupe.host.plugin.ActorPools;
import io.troupe.host.plugin.PoolSample;

/**
 * The monitor's look at the actor pools: tells each pool which of its members are stalled, replaces
 * members that stopped for good, grows or shrinks the pool as its {@link ActorPoolSizer} decides, and
 * stops retired members once they have finished their queue.
 *
 * <p><b>Threading:</b> confined to the monitor thread (or a test's thread driving the monitor).
 */
final class ActorPoolWatch {

    private static final Logger LOG = LoggerFactory.getLogger(RuntimeMonitor.class);

    private final ActorPools pools;
    private final ActorPoolSettings settings;
    private final MonitorListener events;
    private final Map<ActorPool, ActorPoolSizer> sizers = new IdentityHashMap<>();

    ActorPoolWatch(ActorPools pools, ActorPoolSettings settings, MonitorListener events) {
        this.pools = pools;
        this.settings = settings;
        this.events = events;
    }

    /**
     * One look at every pool.
     *
     * @param stalled the ids of the actors whose current turn the stall detector reported as stalled
     */
    void check(long now, Set<Long> stalled) {
        List<ActorPool> live = pools.pools();
        if (live.isEmpty()) {
            sizers.clear();
            return;
        }
        for (ActorPool pool : live) {
            pool.observeStalls(stalled);
            int replaced = pool.replaceStopped();
            if (replaced > 0) {
                LOG.warn("Actor pool of '{}' (tenant {}): replaced {} member(s) that stopped for good", pool.handler(),
                        pool.tenant(), replaced);
            }
            PoolSample sample = pool.sample();
            ActorPoolSizer sizer = sizers.computeIfAbsent(pool, key -> new ActorPoolSizer(settings));
            ActorPoolSizer.Decision decision = sizer.decide(now, sample, pool.min(), pool.max());
            if (!decision.isNone() && (decision.delta() > 0 ? pool.grow() : pool.shrink())) {
                events.poolResized(new ActorPoolChange(pool.handler(), pool.tenant(), sample.size(),
                        sample.size() + decision.delta(), decision.reason()));
            }
            pool.reapRetired();
        }
        sizers.keySet().retainAll(Set.copyOf(live));
    }
}
