package io.troupe.host.plugin;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live actor pools of every poolable handler and tenant, for the monitor that sizes them and for
 * statistics. A pool adds itself when created and removes itself when closed.
 *
 * <p><b>Threading:</b> any thread; a concurrent set.
 */
public final class ActorPools {

    private final Set<ActorPool> pools = ConcurrentHashMap.newKeySet();

    void add(ActorPool pool) {
        pools.add(pool);
    }

    void remove(ActorPool pool) {
        pools.remove(pool);
    }

    /** The live pools now. */
    public List<ActorPool> pools() {
        return List.copyOf(pools);
    }
}
