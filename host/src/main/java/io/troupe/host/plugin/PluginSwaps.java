package io.troupe.host.plugin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.actor.StopReason;
import io.troupe.host.timer.Scheduler;

/**
 * Coordinates the hot swap of plugin bundles, by Bundle-SymbolicName.
 *
 * <pre>
 *  deployer: expectUpdate(bsn) ── bundle.update(jar) ───────────────────────────── updateDone(bsn)
 *                                   │ old services go away       │ new services arrive
 *                                   ▼                             ▼
 *                        retire: detach actors          takeOver: prepare (import state)
 *                        (export state, keep             all ready? commit : abort + refuse
 *                         mailboxes, keep routing)       the new revision (deployer rolls back)
 *  updateDone, names not back: after the grace period the retired actors stop (no.handler)
 * </pre>
 *
 * <p><b>Threading:</b> called from framework threads (service events, the deployer); the blocking
 * waits for actors happen on those threads, never on runtime threads.
 */
final class PluginSwaps {

    private static final Logger LOG = LoggerFactory.getLogger(PluginSwaps.class);
    private static final Duration ACTOR_TIMEOUT = Duration.ofSeconds(10);

    private final ActorSystem system;
    private final Scheduler scheduler;
    private final Duration grace;
    private final Consumer<PluginFactory> forget;
    private final Set<String> updating = ConcurrentHashMap.newKeySet();
    private final Map<String, List<PluginFactory>> retired = new ConcurrentHashMap<>();
    private final Map<String, List<String>> failures = new ConcurrentHashMap<>();

    /**
     * @param forget removes a retired service for good from the directory (called once its actors
     *               moved to the next revision or stopped)
     */
    PluginSwaps(ActorSystem system, Scheduler scheduler, Duration grace, Consumer<PluginFactory> forget) {
        this.system = system;
        this.scheduler = scheduler;
        this.grace = grace;
        this.forget = forget;
    }

    /** The deployer is about to update the bundle {@code symbolicName}: suspend rather than stop. */
    void expectUpdate(String symbolicName) {
        updating.add(symbolicName);
        failures.remove(symbolicName);
    }

    /**
     * The deployer is done with the update (or its rollback). Services of the bundle that did not
     * come back get the grace period, then their actors stop.
     */
    void updateDone(String symbolicName) {
        updating.remove(symbolicName);
        List<PluginFactory> waiting = retired.get(symbolicName);
        if (waiting != null && !waiting.isEmpty()) {
            LOG.warn("Plugin {}: {} of its services did not come back; their actors stop in {} unless they do",
                    symbolicName, waiting.size(), grace);
            scheduler.schedule(() -> expire(symbolicName), grace.toNanos());
        }
    }

    /** Why the last take-over for {@code symbolicName} failed; empty when it did not. */
    List<String> failures(String symbolicName) {
        return failures.getOrDefault(symbolicName, List.of());
    }

    boolean isUpdating(String symbolicName) {
        return updating.contains(symbolicName);
    }

    /** The old revision's service went away during an update: detach its actors, keep routing to them. */
    void retire(PluginFactory plugin) throws InterruptedException {
        plugin.retire();
        retired.computeIfAbsent(plugin.symbolicName(), key -> new CopyOnWriteArrayList<>()).add(plugin);
        List<ActorRef> actors = plugin.actors();
        List<String> late = system.detach(actors).await(ACTOR_TIMEOUT);
        if (!late.isEmpty()) {
            LOG.error("Plugin {}: not every actor exported its state in time: {}", plugin.bundle(), late);
        }
        LOG.info("Plugin {}: {} actors suspended for the swap; their mailboxes keep filling", plugin.bundle(),
                actors.size());
    }

    /**
     * A service arrived: if it continues retired ones, its instances take over their actors. The
     * caller then routes the names to {@code next} and drops the returned services in one step, and
     * calls {@link #sweep} for actors spawned on them meanwhile.
     *
     * @return the retired services taken over (empty when none), or {@code null} if the take-over
     *         failed and the service must be refused (its actors stay detached for a rollback)
     */
    List<PluginFactory> takeOver(PluginFactory next) throws InterruptedException {
        List<PluginFactory> waiting = retired.get(next.symbolicName());
        if (waiting == null) {
            return List.of();
        }
        List<PluginFactory> taken = new ArrayList<>();
        for (PluginFactory previous : new ArrayList<>(waiting)) {
            if (!next.overlaps(previous)) {
                continue;
            }
            if (!moveActors(previous, next)) {
                return null;
            }
            waiting.remove(previous);
            taken.add(previous);
        }
        return taken;
    }

    /**
     * After the names route to {@code next}: actors that were spawned on the retired services while
     * the take-over ran move too; actors {@code next} cannot serve (a factory name it dropped) stop.
     */
    void sweep(PluginFactory next, List<PluginFactory> taken) throws InterruptedException {
        for (PluginFactory previous : taken) {
            if (!previous.actors().isEmpty() && !moveActors(previous, next)) {
                LOG.error("Plugin {}: actors spawned during the swap could not move to {}", previous.bundle(),
                        next.bundle());
            }
            if (!previous.actors().isEmpty()) {
                stop(previous);
            }
        }
    }

    /** Prepares, then commits or aborts, the move of {@code previous}'s actors to {@code next}. */
    private boolean moveActors(PluginFactory previous, PluginFactory next) throws InterruptedException {
        Map<ActorRef, FactorySource> plan = next.takeOverPlan(previous);
        if (plan.isEmpty()) {
            return true;
        }
        List<String> failed = system.prepare(plan).await(ACTOR_TIMEOUT);
        if (!failed.isEmpty()) {
            system.abort(plan.keySet());
            failures.computeIfAbsent(next.symbolicName(), key -> new CopyOnWriteArrayList<>()).addAll(failed);
            LOG.error("Plugin {} cannot take over from {}: {}", next.bundle(), previous.bundle(), failed);
            return false;
        }
        system.commit(plan.keySet());
        next.adopt(previous, plan);
        LOG.info("Plugin {} took over {} actors from {}", next.bundle(), plan.size(), previous.bundle());
        return true;
    }

    private void expire(String symbolicName) {
        if (updating.contains(symbolicName)) {
            return; // another update began; it decides
        }
        List<PluginFactory> waiting = retired.remove(symbolicName);
        if (waiting == null) {
            return;
        }
        for (PluginFactory plugin : waiting) {
            stop(plugin);
            forget.accept(plugin);
        }
    }

    private void stop(PluginFactory plugin) {
        String names = String.join(", ", plugin.handlerNames().isEmpty() ? plugin.factoryNames() : plugin.handlerNames());
        LOG.warn("Plugin {}: {} actors of '{}' have no successor; they stop", plugin.bundle(), plugin.actors().size(),
                names);
        plugin.stopAll(system, new StopReason("code went away: '" + names + "' from " + plugin.bundle()
                + " is no longer registered", ErrorCode.NO_HANDLER, null));
    }
}
