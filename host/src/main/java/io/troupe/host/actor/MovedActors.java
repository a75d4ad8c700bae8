package io.troupe.host.actor;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;

/**
 * The states of a tenant's actors that are not durable, carried from one node to the next when a cluster
 * moves the tenant ({@link io.troupe.api.TroupeRuntime#handOverTenant}): one per tenant's stay on this node.
 *
 * <pre>
 *  arriving:  first actor with a stable path starts ─► read StateKey.movedActors(tenant), delete it
 *             each such actor ─► take(its key): its entry once, for importState after preStart
 *  leaving:   each actor stopping for the handover ─► leave(its key, its encoded export)
 *             all stopped ─► write what left, and what arrived and was not taken, as one entry
 * </pre>
 *
 * The entry is a state of the durable format: a map from {@code origin + "\n" + path} to each actor's
 * encoded state, so that a node reads it with the codec it reads durable states with. It is read and
 * deleted at the first start that may take from it: after a crash the tenant's actors start afresh, as
 * actors that are not durable do, rather than from a state older than the crash.
 *
 * <p><b>Threading:</b> any thread. The first {@link #take} reads the store under this object's lock (other
 * actors of the tenant starting meanwhile wait for it: a worker blocks on the store as a durable actor's
 * start does); afterwards, a volatile read and a concurrent map.
 */
final class MovedActors {

    private static final Logger LOG = LoggerFactory.getLogger(MovedActors.class);

    private final String tenant;
    /** What arrived, not taken yet; null until read. */
    private volatile ConcurrentHashMap<String, byte[]> arrived;
    private final ConcurrentHashMap<String, byte[]> leaving = new ConcurrentHashMap<>();

    MovedActors(String tenant) {
        this.tenant = tenant;
    }

    /** The entry for the actor at {@code key}, at most once; null when none arrived for it. */
    byte[] take(StateKey key, StateStore store) {
        ConcurrentHashMap<String, byte[]> entries = arrived;
        if (entries == null) {
            entries = arrive(store);
        }
        return entries.isEmpty() ? null : entries.remove(entryName(key));
    }

    /** Whether what arrived was read and every entry of it taken (or nothing came): no {@link #take} finds one. */
    boolean exhausted() {
        ConcurrentHashMap<String, byte[]> entries = arrived;
        return entries != null && entries.isEmpty();
    }

    /** The state {@code snapshot} of the actor at {@code key}, stopping for the tenant's handover. */
    void leave(StateKey key, byte[] snapshot) {
        leaving.put(entryName(key), snapshot);
    }

    /**
     * Writes what leaves with the tenant: the states left here, and the ones that arrived and no actor
     * took (a later write of the same actor wins).
     *
     * @return completes once the store has the entry (at once when there is nothing to write)
     */
    CompletionStage<Void> depart(StateStore store) {
        try {
            Map<String, Object> entries = new HashMap<>(arrive(store));
            entries.putAll(leaving);
            if (entries.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            StateKey key = StateKey.movedActors(tenant);
            byte[] snapshot = CellDurability.CODEC.encode(entries, key.toString());
            LOG.info("Tenant '{}': the state of {} actor(s) that are not durable goes with it ({} bytes)", tenant,
                    entries.size(), snapshot.length);
            return store.write(key, snapshot);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private synchronized ConcurrentHashMap<String, byte[]> arrive(StateStore store) {
        ConcurrentHashMap<String, byte[]> entries = arrived;
        if (entries != null) {
            return entries;
        }
        ConcurrentHashMap<String, byte[]> read = new ConcurrentHashMap<>();
        StateKey key = StateKey.movedActors(tenant);
        try {
            byte[] snapshot = store.read(key).orElse(null);
            if (snapshot != null) {
                Object decoded = CellDurability.CODEC.decode(snapshot, key.toString());
                if (decoded instanceof Map<?, ?> map) {
                    map.forEach((name, state) -> {
                        if (name instanceof String entry && state instanceof byte[] bytes) {
                            read.put(entry, bytes);
                        }
                    });
                }
                LOG.info("Tenant '{}': {} actor(s) that are not durable arrive with their state", tenant,
                        read.size());
                store.delete(key).whenComplete((done, failure) -> {
                    if (failure != null) {
                        LOG.warn("Tenant '{}': the moved actors' states could not be deleted once read", tenant,
                                failure);
                    }
                });
            }
        } catch (Exception e) {
            LOG.warn("Tenant '{}': the states of its actors that are not durable could not be read ({}); they"
                    + " start afresh", tenant, key, e);
        }
        arrived = read;
        return read;
    }

    private static String entryName(StateKey key) {
        return key.origin() + "\n" + key.path();
    }
}
