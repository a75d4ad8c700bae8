package io.troupe.host.actor;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeException;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.state.StateStore;
import io.troupe.host.dispatch.Dispatcher;
import io.troupe.host.dispatch.RunGroup;
import io.troupe.host.timer.Scheduler;

/**
 * The actor tree and the services every cell shares: the registry (id → live cell; terminated cells
 * are removed), the root guardian that supervises top-level actors, dead letters, the dispatcher, the
 * scheduler for timers and ask timeouts, and factory lookup by name.
 *
 * <pre>
 *   guardian (#0, "root")
 *     ├── handler:echo (tenant a)        top-level actors: guardian restarts them (3 in 5 s),
 *     ├── handler:wordcount (tenant a)   and stops them when the limit is exceeded
 *     │     └── wordcount.chunk ...      children: supervised by their parent actor
 *     └── ...
 * </pre>
 *
 * <p><b>Threading:</b> every public method may be called from any thread.
 */
public final class ActorSystem {

    /** Messages an actor processes per turn before yielding its worker to others. */
    public static final int DEFAULT_THROUGHPUT = 64;

    private final Dispatcher dispatcher;
    private final Scheduler scheduler;
    private final FactoryResolver factories;
    private final DeadLetterOffice deadLetters;
    private final StoreTrouble storeTrouble = new StoreTrouble();
    private final DeadLetterRef noSender;
    private final int throughput;
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentHashMap<Long, ActorCell> registry = new ConcurrentHashMap<>();
    private final RetiredCounts retired = new RetiredCounts();
    /** The tenants that have had actors or a policy, by id; a stopped tenant leaves, and comes back fresh. */
    private final ConcurrentHashMap<String, TenantActors> tenants = new ConcurrentHashMap<>();
    private final ActorCell guardian;
    /** The hot swaps in progress: a cell created from their code starts detached. Usually empty. */
    private final CopyOnWriteArrayList<CodeSwap> openSwaps = new CopyOnWriteArrayList<>();
    private final CountDownLatch guardianTerminated = new CountDownLatch(1);
    /** Where durable actors keep their state; null while there is none. */
    private volatile StateStore stateStore;
    /** How long a durable actor waits for a required store that is not registered yet. */
    static final Duration STORE_WAIT = Duration.ofSeconds(10);
    /** Notified when a store comes; guards nothing else. */
    private final Object storeArrival = new Object();
    /** Whether a durable actor refuses to start without a store (the server) or keeps its state in memory. */
    private volatile boolean stateStoreRequired;
    private final java.util.concurrent.atomic.AtomicBoolean warnedNoStore =
            new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * The source of the last factory object spawned from: a program that spawns many actors from one
     * factory (a method reference, a non-capturing lambda) shares one source among them instead of one
     * each. Weak, so that it keeps no factory (nor the plugin or the actor it captures) alive once its
     * actors are gone. A race only costs a new source.
     */
    private volatile WeakReference<FactorySource> lastDirectSource = new WeakReference<>(null);

    /** Completes when the guardian has terminated, that is when every actor has stopped. */
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    public ActorSystem(Dispatcher dispatcher, Scheduler scheduler, FactoryResolver factories, int throughput) {
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.factories = Objects.requireNonNull(factories, "factories");
        if (throughput < 1) {
            throw new IllegalArgumentException("throughput must be at least 1, was " + throughput);
        }
        this.throughput = throughput;
        this.deadLetters = new DeadLetterOffice(scheduler::nanoTime);
        this.noSender = new DeadLetterRef(deadLetters);
        this.guardian = new ActorCell(this, 0, null, "root", null, FactorySource.of(Guardian::new, "runtime"),
                Integer.MAX_VALUE, io.troupe.api.MailboxOverflow.BACKPRESSURE, new Guardian());
    }

    /**
     * Spawns a top-level actor (child of the guardian).
     *
     * @param tenant the tenant it serves, empty for system actors
     */
    public ActorRef spawn(FactorySource source, ActorOptions options, String tenant) {
        ActorCell cell = newCell(guardian, source, options, tenant);
        guardian.sendSystem(new SystemMessage.Adopt(cell));
        start(cell);
        return cell.ref();
    }

    /** Spawns a top-level actor from a factory object. */
    public ActorRef spawn(ActorFactory factory, ActorOptions options) {
        return spawn(sourceOf(factory), options, "");
    }

    /** The source for an actor spawned from {@code factory} directly; see {@link #lastDirectSource}. */
    FactorySource sourceOf(ActorFactory factory) {
        FactorySource last = lastDirectSource.get();
        if (last != null && last.factory() == factory) {
            return last;
        }
        FactorySource source = FactorySource.of(factory, ReadableName.of(factory.getClass()));
        lastDirectSource = new WeakReference<>(source);
        return source;
    }

    /** Spawns a top-level actor from a factory registered by name. */
    public ActorRef spawn(String factoryName, ActorOptions options) {
        return spawn(resolveFactory(factoryName), options, "");
    }

    /**
     * Spawns a top-level actor that waits, detached, for the next revision of a plugin being swapped:
     * messages queue until {@link #prepare} and {@link #commit}.
     */
    public ActorRef spawnDetached(FactorySource source, ActorOptions options, String tenant) {
        ActorCell cell = newCell(guardian, source, options, tenant);
        guardian.sendSystem(new SystemMessage.Adopt(cell));
        if (cell.lateSwap() != null) {
            start(cell); // an open swap owns its code: it waits among that swap's late actors
        } else {
            cell.startDetached();
        }
        return cell.ref();
    }

    /**
     * Hot swap, step 1: every live actor whose code belongs to {@code swap}'s revision (see
     * {@link FactorySource#codeLoader()}), and every actor in {@code also}, exports its state on its
     * own turn and stops taking turns; its mailbox keeps accepting messages. Each passes the swap on
     * to its children, so that actors spawned in the meantime, at any depth, join too. Actors already
     * part of the swap are skipped, so this may run again to catch actors spawned while the swap ran.
     *
     * @return the barrier to {@linkplain SwapBarrier#await await} the actors on; its failures name
     *         the actors whose state cannot cross the swap
     */
    public SwapBarrier detachAll(CodeSwap swap, Collection<ActorRef> also) {
        swap.include(also);
        if (!openSwaps.contains(swap)) {
            openSwaps.add(swap); // before the scan: a cell the scan misses is created after this
        }
        Map<Long, ActorCell> cells = new LinkedHashMap<>();
        for (ActorCell cell : registry.values()) {
            if (cell != guardian && !swap.hasJoined(cell.id()) && swap.takesPart(cell.id(), cell.source())) {
                cells.put(cell.key(), cell);
            }
        }
        SwapBarrier barrier = new SwapBarrier(cells.size());
        SystemMessage.Detach detach = new SystemMessage.Detach(swap, barrier);
        cells.values().forEach(cell -> cell.sendSystem(detach));
        return barrier;
    }

    /**
     * The swap is decided: cells created from its code from now on start normally. Call it before
     * {@link CodeSwap#decideLate}, so that every cell created meanwhile is a late actor.
     */
    public void closeSwap(CodeSwap swap) {
        openSwaps.remove(swap);
    }

    /** Hot swap {@code swap} decided: a late actor (see {@link CodeSwap#decideLate}) starts on {@code source}. */
    public void startOn(ActorRef actor, FactorySource source, CodeSwap swap) {
        cellOf(actor).sendSystem(new SystemMessage.StartOn(source, swap));
    }

    /**
     * Hot swap refused before the old revision went away: the detached actors resume with their old
     * instances, and those spawned during the swap start from their sources.
     */
    public void reattach(Collection<ActorRef> actors, CodeSwap swap) {
        SystemMessage.Reattach reattach = new SystemMessage.Reattach(swap);
        actors.forEach(actor -> cellOf(actor).sendSystem(reattach));
    }

    /**
     * Hot swap, step 2: each detached actor creates an instance from its new source and hands it the
     * exported state ({@code importState}; an actor that never started gets {@code preStart}
     * instead), then waits for {@link #commit} or {@link #abort}.
     *
     * @return the barrier whose failures say which actors could not take over
     */
    public SwapBarrier prepare(Map<ActorRef, FactorySource> sources) {
        SwapBarrier barrier = new SwapBarrier(sources.size());
        sources.forEach((actor, source) -> cellOf(actor).sendSystem(new SystemMessage.Prepare(source, barrier)));
        return barrier;
    }

    /** Hot swap, step 3: the prepared instances take over and process the queued messages in order. */
    public void commit(Collection<ActorRef> actors) {
        actors.forEach(actor -> cellOf(actor).sendSystem(SystemMessage.Commit.INSTANCE));
    }

    /**
     * Hot swap, step 3 on failure: the prepared instances are dropped; the actors stay detached, with
     * their exported state, for another revision.
     */
    public void abort(Collection<ActorRef> actors) {
        actors.forEach(actor -> cellOf(actor).sendSystem(SystemMessage.Abort.INSTANCE));
    }

    private static ActorCell cellOf(ActorRef actor) {
        if (actor instanceof LocalActorRef ref) {
            return ref.cell();
        }
        throw new IllegalArgumentException("not an actor of this runtime: " + actor);
    }

    /** Stops a local actor (children first); other references are ignored. */
    public void stop(ActorRef actor, StopReason reason) {
        if (actor instanceof LocalActorRef ref) {
            ref.cell().sendSystem(new SystemMessage.Stop(reason));
        }
    }

    /**
     * Stops {@code actor} for good, as an actor pool retires a member: messages that reach it from now
     * on, and those still queued when it stops, go to {@code successor} instead of dead letters.
     * Other references are ignored.
     */
    public void retire(ActorRef actor, ActorRef successor, StopReason reason) {
        if (actor instanceof LocalActorRef ref) {
            ref.cell().forwardUndeliverableTo(Objects.requireNonNull(successor, "successor"));
            ref.cell().sendSystem(new SystemMessage.Stop(reason));
        }
    }

    /** Messages counted in {@code actor}'s mailbox now; 0 for references of other runtimes. */
    public int mailboxDepth(ActorRef actor) {
        return actor instanceof LocalActorRef ref ? ref.cell().mailboxDepth() : 0;
    }

    /** Whether {@code actor} is inside {@code receive} now (a racy read); false for other references. */
    public boolean isReceiving(ActorRef actor) {
        return actor instanceof LocalActorRef ref && ref.cell().isReceiving();
    }

    /** A fresh id from the sequence actor ids come from, for runtime objects that act as actors (pools). */
    public long reserveId() {
        return ids.incrementAndGet();
    }

    /** See {@link io.troupe.api.TroupeRuntime#awaitDrain}; references of other runtimes never wait. */
    public boolean awaitDrain(ActorRef target, Runnable onDrained) {
        return target instanceof LocalActorRef ref && ref.cell().awaitDrain(onDrained);
    }

    /**
     * Sends {@code message} to {@code target} with a one-shot reply address; see {@link ActorRef#ask}.
     */
    public CompletionStage<Object> ask(ActorRef target, Object message, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("ask timeout must be positive"));
        }
        AskRef ask = new AskRef(ids.incrementAndGet(), target.name());
        ask.expireAfter(scheduler.schedule(() -> ask.expire(timeout), timeout.toNanos()));
        target.tell(message, ask);
        return ask.future();
    }

    /**
     * Asks {@code target} with no timeout ({@link ActorRef#ask(Object)}): no timer is scheduled, so the
     * ask costs a reply address and a future only.
     */
    public CompletionStage<Object> askUnbounded(ActorRef target, Object message) {
        AskRef ask = new AskRef(ids.incrementAndGet(), target.name());
        target.tell(message, ask);
        return ask.future();
    }

    // ---------------------------------------------------------------- tenants

    /** Applies {@code policy} to {@code tenant}; see {@link io.troupe.api.TroupeRuntime#configureTenant}. */
    public void configureTenant(String tenant, TenantPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        tenantActors(requireTenant(tenant)).configure(policy);
    }

    /** The policy {@code tenant} runs under now. */
    public TenantPolicy tenantPolicy(String tenant) {
        TenantActors actors = tenants.get(requireTenant(tenant));
        return actors == null ? TenantPolicy.defaults() : actors.policy();
    }

    /**
     * Stops every actor of {@code tenant}, top-level ones with their trees, and forgets the tenant:
     * its next actor starts a fresh count under the default policy.
     *
     * @return completes with the number of actors stopped once all have terminated
     */
    public CompletionStage<Integer> stopTenant(String tenant) {
        return stopTenant(tenant, false);
    }

    /**
     * Stops {@code tenant} as {@link #stopTenant(String)} does for another node that takes it over: its
     * actors that are not durable leave their state ({@link MovedActors}), written to the store before the
     * returned stage completes; see {@link io.troupe.api.TroupeRuntime#handOverTenant}.
     */
    public CompletionStage<Integer> handOverTenant(String tenant) {
        return stopTenant(tenant, true);
    }

    private CompletionStage<Integer> stopTenant(String tenant, boolean handOver) {
        TenantActors actors = tenants.remove(requireTenant(tenant));
        if (actors == null) {
            return CompletableFuture.completedFuture(0); // no actor read what arrived for it: it stays stored
        }
        if (handOver) {
            actors.handOver(); // before the stops: each actor that stops leaves its state
        }
        CompletionStage<Integer> done = actors.retire();
        StopReason reason = new StopReason(handOver ? "stopped: tenant '" + tenant + "' moved to another node"
                : "stopped: tenant '" + tenant + "' was removed", ErrorCode.ACTOR_STOPPED, null);
        for (ActorCell cell : registry.values()) {
            if (cell.tenancy() == actors && cell.parentId() == 0) {
                cell.sendSystem(new SystemMessage.Stop(reason));
            }
        }
        StateStore store = stateStore;
        if (!handOver || store == null) {
            return done;
        }
        // on a worker: the last durable save may complete on the store's own thread (a cluster member's),
        // where depart's read of what arrived must not block
        return done.thenComposeAsync(stopped -> actors.moved().depart(store).handle((written, failure) -> {
            if (failure != null) {
                org.slf4j.LoggerFactory.getLogger(ActorSystem.class).error("Tenant '{}': the state of its actors"
                        + " that are not durable could not be stored; they start afresh on its next node", tenant,
                        failure);
            }
            return stopped;
        }), dispatcher::execute);
    }

    /** See {@link io.troupe.api.TroupeRuntime#awaitTenantIdle}. */
    public CompletionStage<Boolean> awaitTenantIdle(String tenant, Duration patience) {
        Objects.requireNonNull(patience, "patience");
        TenantActors actors = tenants.get(requireTenant(tenant));
        if (actors == null) {
            return CompletableFuture.completedFuture(true);
        }
        return new TenantIdle(scheduler, registry.values(), actors, patience.toNanos()).start();
    }

    /** See {@link io.troupe.api.TroupeRuntime#awaitTenantDrain}. */
    public boolean awaitTenantDrain(String tenant, Runnable onDrained) {
        TenantActors actors = tenants.get(requireTenant(tenant));
        return actors != null && actors.awaitDrain(onDrained);
    }

    /**
     * Every tenant with actors or a policy, by id.
     *
     * @param shareOf the share of the worker pool a tenant's lane took over the last sampling window
     */
    public List<TenantLoad> tenantLoads(ToDoubleFunction<RunGroup> shareOf) {
        List<TenantLoad> loads = new ArrayList<>();
        for (TenantActors actors : tenants.values()) {
            RunGroup group = actors.group();
            TenantPolicy policy = actors.policy();
            loads.add(new TenantLoad(actors.tenant(), policy.weight(), actors.liveActors(), policy.maxActors(),
                    actors.queued(), policy.maxQueuedMessages(), group == null ? 0 : group.turns(),
                    group == null ? 0 : group.workerNanos(), group == null ? 0 : shareOf.applyAsDouble(group)));
        }
        loads.sort(Comparator.comparing(TenantLoad::tenant));
        return loads;
    }

    private TenantActors tenantActors(String tenant) {
        TenantActors existing = tenants.get(tenant);
        if (existing != null) {
            return existing;
        }
        return tenants.computeIfAbsent(tenant,
                id -> new TenantActors(id, TenantPolicy.defaults(), dispatcher.group(id)));
    }

    private static String requireTenant(String tenant) {
        if (tenant == null || tenant.isEmpty()) {
            throw new IllegalArgumentException("a tenant id must not be empty");
        }
        return tenant;
    }

    /** The live actor with this id. */
    public Optional<ActorRef> lookup(long id) {
        ActorCell cell = registry.get(id);
        return cell == null ? Optional.empty() : Optional.of(cell.ref());
    }

    /**
     * The live actor of {@code tenant} at {@code path} (names separated by {@code /}, from a top-level
     * actor down); where siblings share a name, the oldest. See
     * {@link io.troupe.api.TroupeRuntime#lookup(String, String)}. Costs a scan of the live actors per
     * path segment: callers keep what they found rather than look it up per message.
     */
    public Optional<ActorRef> lookup(String tenant, String path) {
        Objects.requireNonNull(tenant, "tenant");
        if (path == null || path.isEmpty() || path.startsWith("/") || path.endsWith("/") || path.contains("//")) {
            throw new IllegalArgumentException("an actor path is names separated by '/', e.g. orders/audit; was '"
                    + path + "'");
        }
        long parentId = 0;
        ActorCell found = null;
        for (String segment : path.split("/")) {
            found = null;
            for (ActorCell cell : registry.values()) {
                if (cell != guardian && cell.parentId() == parentId && !cell.isTerminated()
                        && cell.tenant().equals(tenant) && cell.name().equals(segment)
                        && (found == null || cell.id() < found.id())) {
                    found = cell;
                }
            }
            if (found == null) {
                return Optional.empty();
            }
            parentId = found.id();
        }
        return Optional.of(found.ref());
    }

    /** Completes once every actor, the guardian last, has stopped ({@link #shutdown}). */
    public CompletionStage<Void> whenTerminated() {
        return terminated.thenApply(done -> null);
    }

    /**
     * Durable actors keep their state in {@code store} from now on ({@code null}: no store). With
     * {@code required}, a durable actor refuses to start while there is no store, rather than start
     * without its stored state (and overwrite it later); without, it runs on its in-memory state.
     */
    public void useStateStore(StateStore store, boolean required) {
        synchronized (storeArrival) {
            this.stateStoreRequired = required;
            this.stateStore = store;
            storeArrival.notifyAll();
        }
    }

    /** The store now, if any. */
    public StateStore stateStore() {
        return stateStore;
    }

    /**
     * The store for a durable actor about to start.
     *
     * @return null when there is none and none is required (logged once)
     * @throws IllegalStateException when there is none and one is required
     */
    StateStore stateStore(ActorCell cell) {
        StateStore store = stateStore;
        if (store == null) {
            if (stateStoreRequired) {
                store = awaitStore();
                if (store != null) {
                    return store;
                }
                throw new IllegalStateException("durable actor " + cell.name() + " cannot start: there is no state"
                        + " store after " + STORE_WAIT.toSeconds() + " s (is the io.troupe.store bundle started?)");
            }
            if (warnedNoStore.compareAndSet(false, true)) {
                org.slf4j.LoggerFactory.getLogger(ActorSystem.class).warn("Durable actor {} runs without a state"
                        + " store: its state lives in memory only (give the runtime a StateStore to keep it)",
                        cell.name());
            }
        }
        return store;
    }

    /**
     * Waits, on the worker about to start a durable actor, for a required store that is not there yet:
     * while an installation starts, the store's component may register a moment after the first request
     * arrives. Bounded by {@link #STORE_WAIT}; the rare path that blocks, once per actor at most.
     */
    private StateStore awaitStore() {
        long deadline = System.nanoTime() + STORE_WAIT.toNanos();
        synchronized (storeArrival) {
            try {
                while (stateStore == null && stateStoreRequired) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    TimeUnit.NANOSECONDS.timedWait(storeArrival, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return stateStore;
        }
    }

    /** A snapshot of the live actors, parents before children (ids grow with creation). */
    public List<ActorInfo> snapshot() {
        List<ActorInfo> infos = new ArrayList<>(registry.size());
        for (ActorCell cell : registry.values()) {
            infos.add(new ActorInfo(cell.id(), cell.parentId(), cell.name(), tenantOf(cell), cell.origin(),
                    cell.mailboxDepth(), cell.processed(), cell.failures(), cell.mailboxCapacity(), cell.overflow(),
                    cell.rejected(), cell.dropped()));
        }
        infos.sort(Comparator.comparingLong(ActorInfo::id));
        return infos;
    }

    /**
     * What {@code task}, a task this system handed to its dispatcher, is doing: the actor whose turn
     * it is and the message it receives. {@code null} for tasks that are not actor turns of this
     * system.
     *
     * <p><b>Threading:</b> any thread, typically a monitor looking at a worker's heartbeat; the
     * answer is a racy but safe read of the running turn.
     */
    public ActorTurn describe(Runnable task) {
        return task instanceof ActorCell cell && cell.system() == this ? cell.describeTurn() : null;
    }

    /** Live actors. */
    public int size() {
        return registry.size();
    }

    /** This system's episodes of a state store failing its actors. */
    StoreTrouble storeTrouble() {
        return storeTrouble;
    }

    public DeadLetterOffice deadLetters() {
        return deadLetters;
    }

    /**
     * Stops every actor, children first, and waits up to {@code timeout} for the whole tree to end.
     *
     * @return whether everything stopped in time
     */
    public boolean shutdown(Duration timeout) throws InterruptedException {
        guardian.sendSystem(new SystemMessage.Stop(StopReason.SHUTDOWN));
        return guardianTerminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    // ---------------------------------------------------------------- for cells

    ActorCell newCell(ActorCell parent, FactorySource requested, ActorOptions options, String tenant) {
        FactorySource source = requested.current();
        TenantActors tenancy = null;
        if (!tenant.isEmpty()) {
            // a child counts against its parent's tenant, even one stopped meanwhile (which refuses it)
            TenantActors parentTenancy = parent == null ? null : parent.tenancy();
            tenancy = parentTenancy != null && parentTenancy.tenant().equals(tenant) ? parentTenancy
                    : tenantActors(tenant);
            tenancy.admit(options.name() != null ? "'" + options.name() + "'" : "an actor of " + source.origin());
        }
        long id = ids.incrementAndGet();
        ActorCell cell = new ActorCell(this, id, parent, options.name(), tenancy, source, options.mailboxCapacity(),
                options.mailboxOverflow(), null);
        registry.put(cell.key(), cell);
        source.attach(cell.ref());
        if (!openSwaps.isEmpty()) {
            for (CodeSwap swap : openSwaps) {
                if (swap.owns(source)) {
                    cell.startDetached(swap); // its code is being swapped out: it waits for the decision
                    return cell;
                }
            }
        }
        // a swap that closed after the first look has named the next revision's source before it closed
        FactorySource now = source.current();
        if (now != source) {
            source.detach(cell.ref());
            cell.source(now);
            now.attach(cell.ref());
        }
        return cell;
    }

    void start(ActorCell cell) {
        CodeSwap late = cell.takeLateSwap();
        if (late == null) {
            cell.sendSystem(SystemMessage.Create.INSTANCE);
        } else {
            late.addLate(new DetachedActor(cell.ref(), cell.source(), cell.tenant(), null, false, true));
        }
    }

    void terminated(ActorCell cell) {
        if (cell == guardian) {
            guardianTerminated.countDown();
            terminated.complete(null);
        } else if (registry.remove(cell.id(), cell)) {
            retired.retire(cell.origin(), cell.processed(), cell.failures());
            if (cell.tenancy() != null) {
                cell.tenancy().left();
            }
        }
    }

    /** What the stopped actors of each handler did: their counts live on in the handler's totals. */
    public RetiredCounts retired() {
        return retired;
    }

    FactorySource resolveFactory(String factoryName) {
        return resolveFactory(factoryName, "");
    }

    /** The factory registered under {@code factoryName} as {@code tenant}'s actors see it. */
    FactorySource resolveFactory(String factoryName, String tenant) {
        return factories.resolve(factoryName, tenant).orElseThrow(() -> new TroupeException(ErrorCode.NO_FACTORY,
                "no bundle registers an actor factory named '" + factoryName + "'"));
    }

    Dispatcher dispatcher() {
        return dispatcher;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    int throughput() {
        return throughput;
    }

    long nanoTime() {
        return scheduler.nanoTime();
    }

    ActorRef noSender() {
        return noSender;
    }

    private static String tenantOf(ActorCell cell) {
        return cell.tenant();
    }

    /** The root's behaviour: it only supervises; messages to it are ignored. */
    private static final class Guardian implements Actor {
        @Override
        public void receive(ActorContext ctx, Object message) {
        }
    }
}
