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
import io.troupe.host.actor.CodeSwap;
import io.troupe.host.actor.DetachedActor;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.actor.StopReason;
import io.troupe.host.timer.Scheduler;

/**
 * Coordinates the hot swap of plugin bundles, one bundle (by Bundle-SymbolicName) at a time, so that
 * every actor of the plugin moves to the new revision, at any depth of the tree and whichever way it
 * was spawned, or none does.
 *
 * <pre>
 *  deployer: begin ─────────── bundle.update(jar) ─────────────── complete ─────────── end
 *            │ old revision intact:  │ old services go (kept,       │ plan every actor on the new
 *            │ every actor of its    │ routing to the detached      │ revision, prepare (importState),
 *            │ code exports its      │ actors); new services are    │ all ready? commit : abort, and
 *            │ state and detaches;   │ held back, unrouted          │ the deployer puts the old jar back
 *            │ a failure reattaches  │                              │ and completes again with it
 *            ▼ them: nothing changed ▼                              ▼
 *  end without a completed swap: after the grace period the detached actors stop (no.handler)
 * </pre>
 *
 * <p>An actor belongs to the plugin when the code it was created from was loaded by the revision's
 * class loader (see {@link io.troupe.host.actor.FactorySource#codeLoader()}); {@link SwapPlan} says
 * how each is re-created.
 *
 * <p><b>Threading:</b> {@link #begin}, {@link #complete} and {@link #end} on the deployer's thread;
 * {@link #offer}, {@link #withdraw} and the queries from framework threads (service events); the
 * expiry after the grace period on a short-lived thread of its own. The blocking waits for actors
 * happen on those threads, never on runtime threads; late actors are decided on whichever thread
 * spawns them or decides, without blocking.
 */
final class PluginSwaps {

    private static final Logger LOG = LoggerFactory.getLogger(PluginSwaps.class);
    /** How long a swap step waits for every actor to answer, unless told otherwise. */
    static final Duration ACTOR_TIMEOUT = Duration.ofSeconds(10);

    /** What a completed (or refused) swap leaves to the directory. */
    record Completion(List<String> failures, List<PluginFactory> retired, List<PluginFactory> next,
                      String from, int moved, String summary, long pauseMillis) {
        boolean done() {
            return failures.isEmpty();
        }
    }

    /** One bundle's swap in progress. */
    private static final class BundleSwap {
        final String from;
        final CodeSwap actors;
        final List<PluginFactory> retired;
        final List<PluginFactory> pending = new CopyOnWriteArrayList<>();
        final long began;
        /** Set when the deployer ended without a completed swap; the expiry acts only while it is. */
        volatile boolean ended;

        BundleSwap(String from, CodeSwap actors, List<PluginFactory> retired, long began) {
            this.from = from;
            this.actors = actors;
            this.retired = List.copyOf(retired);
            this.began = began;
        }

        List<ActorRef> refs() {
            return actors.detached().stream().map(DetachedActor::ref).toList();
        }
    }

    private final ActorSystem system;
    private final Duration actorTimeout;
    private final Scheduler scheduler;
    private final Duration grace;
    private final Consumer<PluginFactory> forget;
    private final Map<String, BundleSwap> swaps = new ConcurrentHashMap<>();

    /**
     * @param forget removes a retired service for good from the directory (called once its actors
     *               stopped because no revision took them over)
     */
    PluginSwaps(ActorSystem system, Scheduler scheduler, Duration grace, Consumer<PluginFactory> forget) {
        this(system, scheduler, grace, forget, ACTOR_TIMEOUT);
    }

    /** @param actorTimeout how long a swap step waits for every actor to answer */
    PluginSwaps(ActorSystem system, Scheduler scheduler, Duration grace, Consumer<PluginFactory> forget,
                Duration actorTimeout) {
        this.actorTimeout = actorTimeout;
        this.system = system;
        this.scheduler = scheduler;
        this.grace = grace;
        this.forget = forget;
    }

    /**
     * Step 1, while the old revision is intact: every actor of its code exports its state and stops
     * taking turns; messages keep queueing. If any cannot (its state or a timer's message holds a
     * class of the plugin, {@code exportState} throws, it does not answer), or could not be created
     * again even by the old revision (a lambda actor, a class without a no-argument constructor: a
     * rollback would fail too), every actor resumes with its old instance and nothing has changed.
     *
     * @param from    names the old revision, e.g. {@code kv 1.0.0}
     * @param code    the old revision's class loader
     * @param current the old revision's services
     * @return why the swap is refused; empty when it may go on
     */
    List<String> begin(String symbolicName, String from, ClassLoader code, List<PluginFactory> current)
            throws InterruptedException {
        BundleSwap earlier = swaps.get(symbolicName);
        if (earlier != null) {
            earlier.ended = false; // an earlier swap never completed: its actors still wait, detached
            return List.of();
        }
        long began = System.nanoTime();
        BundleSwap swap = new BundleSwap(from, new CodeSwap(code), current, began);
        current.forEach(PluginFactory::retire);
        List<ActorRef> attached = new ArrayList<>();
        current.forEach(plugin -> attached.addAll(plugin.actors()));
        List<String> failures = new ArrayList<>();
        try {
            failures.addAll(system.detachAll(swap.actors, attached).await(actorTimeout));
        } catch (InterruptedException e) {
            refuse(swap, current);
            throw e;
        }
        if (failures.isEmpty()) {
            // an actor the old revision itself could not re-create (a lambda, a class without a
            // no-argument constructor) would make a rollback impossible: refuse now
            failures.addAll(SwapPlan.of(swap.actors.detached(), current,
                    name -> Class.forName(name, false, code), from).failures());
        }
        if (!failures.isEmpty()) {
            refuse(swap, current);
            return failures;
        }
        swaps.put(symbolicName, swap);
        LOG.debug("Plugin {}: {} actors suspended for the swap; their mailboxes keep filling", from,
                swap.actors.detached().size());
        return List.of();
    }

    /** Undoes {@link #begin}: every actor that joined resumes on the old revision, and so do late ones. */
    private void refuse(BundleSwap swap, List<PluginFactory> current) {
        swap.actors.close();
        system.closeSwap(swap.actors);
        system.reattach(swap.refs(), swap.actors);
        current.forEach(PluginFactory::unretire);
        swap.actors.decideLate(late -> system.reattach(List.of(late.ref()), swap.actors));
    }

    boolean isSwapping(String symbolicName) {
        return swaps.containsKey(symbolicName);
    }

    /** A service of a bundle being swapped arrived: it is held back until {@link #complete}. */
    boolean offer(PluginFactory next) {
        BundleSwap swap = swaps.get(next.symbolicName());
        if (swap == null) {
            return false;
        }
        swap.pending.add(next);
        return true;
    }

    /**
     * A service went away. One of a swapped-out revision is kept (its names route to the detached
     * actors until the swap completes); one held back is dropped.
     *
     * @return whether the swap took care of it (the directory must neither stop its actors nor forget it)
     */
    boolean withdraw(PluginFactory plugin) {
        BundleSwap swap = swaps.get(plugin.symbolicName());
        if (swap == null) {
            return false;
        }
        return swap.pending.remove(plugin) || swap.retired.contains(plugin);
    }

    /** Whether the services held back for {@code symbolicName} serve every name of {@code names}. */
    boolean ready(String symbolicName, Set<String> names) {
        BundleSwap swap = swaps.get(symbolicName);
        if (swap == null) {
            return false;
        }
        List<String> served = new ArrayList<>();
        swap.pending.forEach(plugin -> {
            served.addAll(plugin.handlerNames());
            served.addAll(plugin.factoryNames());
        });
        return served.containsAll(names);
    }

    /**
     * Step 2, once the new revision registered its services: plans every detached actor on it,
     * prepares them (their instances import the state), and commits, or aborts and leaves them
     * detached, with their state, for another revision (the rollback).
     *
     * @param classes loads classes as the new revision sees them
     * @param to      names the new revision, e.g. {@code kv 2.0.0}
     */
    Completion complete(String symbolicName, RevisionClasses classes, String to) throws InterruptedException {
        BundleSwap swap = swaps.get(symbolicName);
        if (swap == null) {
            return new Completion(List.of("no swap of " + symbolicName + " is in progress"), List.of(), List.of(),
                    "", 0, "", 0);
        }
        List<PluginFactory> next = List.copyOf(swap.pending);
        // actors spawned while the swap began (a new tenant's handler, detached) join now
        List<String> stragglers = system.detachAll(swap.actors, List.of()).await(actorTimeout);
        List<DetachedActor> actors = swap.actors.detached();
        SwapPlan plan = SwapPlan.of(actors, next, classes, to);
        List<String> failures = new ArrayList<>(stragglers);
        failures.addAll(plan.failures());
        if (failures.isEmpty()) {
            try {
                failures.addAll(system.prepare(plan.sources()).await(actorTimeout));
            } catch (InterruptedException e) {
                system.abort(plan.sources().keySet());
                throw e;
            }
            if (!failures.isEmpty()) {
                system.abort(plan.sources().keySet());
            }
        }
        if (!failures.isEmpty()) {
            swap.pending.removeAll(next);
            next.forEach(PluginFactory::refuse);
            LOG.error("Plugin {} cannot take over the actors of {}: {}", to, swap.from, failures);
            return new Completion(failures, List.of(), next, swap.from, 0, "", 0);
        }
        plan.attachAll();
        for (PluginFactory previous : swap.retired) {
            if (!previous.handlerNames().isEmpty()) {
                String name = previous.handlerNames().get(0);
                next.stream().filter(plugin -> plugin.handlerNames().contains(name)).findFirst()
                        .ifPresent(plugin -> plugin.adoptHandlers(previous));
            }
        }
        system.commit(plan.sources().keySet());
        for (PluginFactory previous : swap.retired) {
            previous.succeed(heirOf(previous, next));
        }
        system.closeSwap(swap.actors);
        swap.actors.decideLate(late -> startLate(late, swap.actors, next, swap.from, to));
        long pause = (System.nanoTime() - swap.began) / 1_000_000;
        swaps.remove(symbolicName);
        return new Completion(List.of(), swap.retired, next, swap.from, actors.size(), plan.summary(), pause);
    }

    /** The next revision's service that serves what {@code previous} served first, or null. */
    private static PluginFactory heirOf(PluginFactory previous, List<PluginFactory> next) {
        String name = previous.handlerNames().isEmpty() ? previous.factoryNames().get(0)
                : previous.handlerNames().get(0);
        for (PluginFactory candidate : next) {
            if (candidate.handlerNames().contains(name) || candidate.factoryNames().contains(name)) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * An actor created from the old revision's code while the swap ran, which the swap did not collect
     * (a new tenant's handler, a new pool member, an actor spawned by factory name): it starts, with
     * {@code preStart}, on the next revision's service for the same name, and a tenant's handler actor
     * that another one replaced meanwhile hands its queue over to it. One with nothing to start from
     * in the next revision stops.
     */
    private void startLate(DetachedActor late, CodeSwap decided, List<PluginFactory> next, String from, String to) {
        ActorRef actor = late.ref();
        FactorySource source = late.source();
        PluginFactory heir = null;
        FactorySource start = null;
        if (source instanceof PluginFactory handler && !handler.handlerNames().isEmpty()) {
            heir = heirOf(handler, next);
            start = heir;
        } else if (source instanceof NamedFactorySource named) {
            heir = next.stream().filter(plugin -> plugin.factoryNames().contains(named.name())).findFirst()
                    .orElse(null);
            start = heir == null ? null : heir.asFactory(named.name());
        }
        if (start == null) {
            LOG.warn("Actor {}#{} was created from {} of {} during its swap, and {} has nothing to create it from;"
                    + " it stops", actor.name(), actor.id(), source.origin(), from, to);
            system.stop(actor, new StopReason("created from " + from + " while it was swapped for " + to
                    + ", which does not serve " + source.origin(), ErrorCode.NO_HANDLER, null));
            return;
        }
        start.attach(actor);
        system.startOn(actor, start, decided);
        if (start == heir && !late.tenant().isEmpty() && heir.poolBounds() == null) {
            ActorRef serving = heir.claimHandler(late.tenant(), actor);
            if (serving != actor && !(serving instanceof ActorPool)) {
                system.retire(actor, serving, new StopReason("replaced by " + serving.name() + " after the swap",
                        ErrorCode.ACTOR_STOPPED, null));
            }
        }
    }

    /**
     * The deployer is done with the bundle. If no revision took the actors over (the update and the
     * rollback both failed), they stop after the grace period, unless another update begins.
     */
    void end(String symbolicName) {
        BundleSwap swap = swaps.get(symbolicName);
        if (swap != null) {
            swap.ended = true;
            LOG.warn("Plugin {}: no revision took over its {} actors; they stop in {} unless one does", swap.from,
                    swap.actors.detached().size(), grace);
            // the expiry takes the directory's lock and releases services: not on the timer thread
            scheduler.schedule(() -> {
                Thread expiry = new Thread(() -> expire(symbolicName, swap), "troupe-swap-expiry");
                expiry.setDaemon(true);
                expiry.start();
            }, grace.toNanos());
        }
    }

    private void expire(String symbolicName, BundleSwap swap) {
        if (!swap.ended || !swaps.remove(symbolicName, swap)) {
            return; // completed meanwhile, or another update began
        }
        StopReason reason = new StopReason("code went away: " + swap.from + " was replaced and no revision took"
                + " over its actors", ErrorCode.NO_HANDLER, null);
        LOG.warn("Plugin {}: {} actors have no successor; they stop", swap.from, swap.actors.detached().size());
        for (ActorRef actor : swap.refs()) {
            system.stop(actor, reason);
        }
        system.closeSwap(swap.actors);
        swap.actors.decideLate(late -> system.stop(late.ref(), reason));
        swap.retired.forEach(plugin -> {
            plugin.stopAll(system, reason);
            forget.accept(plugin);
        });
    }
}
