package io.troupe.host.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ChildFailed;
import io.troupe.api.ChildStopped;
import io.troupe.api.DeadLetter;
import io.troupe.api.Directive;
import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.MailboxFullException;
import io.troupe.api.MailboxOverflow;
import io.troupe.api.Receive;
import io.troupe.api.Terminated;
import io.troupe.api.Timers;
import io.troupe.api.state.Durable;
import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;
import io.troupe.host.dispatch.Grouped;
import io.troupe.host.dispatch.RunGroup;
import io.troupe.host.mailbox.Envelope;
import io.troupe.host.mailbox.Mailbox;
import io.troupe.host.supervise.FatalErrors;

/**
 * The runtime side of one actor: its mailbox, its current instance, its place in the parent/child
 * tree, its supervision state and timers. A cell is a {@link Runnable} that the dispatcher runs for
 * one turn: system messages first, then up to {@code throughput} ordinary messages.
 *
 * <p>Lifecycle: {@code NEW} (until {@code Create} ran {@code preStart}) → {@code RUNNING} ⇄
 * {@code SUSPENDED} (failed, waiting for the parent's directive) → {@code STOPPING} (waiting for the
 * children) → {@code TERMINATED}. During a hot swap a cell is {@code DETACHED}: its instance has
 * exported its state and is gone, its mailbox keeps accepting messages, and it waits for an instance
 * of the plugin's next revision ({@code Prepare}, then {@code Commit} or {@code Abort}). A terminated
 * cell is unregistered and drops its instance, so a stale reference keeps no plugin class alive;
 * messages that still reach it go to dead letters.
 *
 * <p>The cell runs the turn loop and implements {@link ActorContext}; it delegates the lifecycle
 * transitions to {@link CellLifecycle}, the hot-swap steps to {@link CellSwap}, the supervision
 * decision to {@link Supervision}, the child list to {@link CellChildren} and paused producers to
 * {@link MailboxPressure}. The turn-confined collaborators reach the cell's state through
 * package-private accessors that are themselves confined to the turn.
 *
 * <p>Footprint: a runtime holds many idle actors, so an idle cell carries only what every actor
 * needs. Its collaborators for rare events (hot swap, lifecycle transitions, children, paused
 * producers, timers) are created on first use; restart histories live with the parent's child
 * list; its derived name is computed when asked; its id is boxed once, shared with the registry.
 *
 * <p><b>Threading:</b> {@link #tell}, {@link #offer}, {@link #sendSystem}, {@link #deliverTimer} and the
 * read-only accessors are safe from any thread and lock-free. Everything else, including the whole
 * {@link ActorContext} implementation, runs only on the cell's turn. The run-state compare-and-set
 * guarantees that at most one thread runs a turn at a time, and its volatile accesses order one turn
 * before the next.
 */
public final class ActorCell implements Runnable, ActorContext, Grouped {

    private static final Logger LOG = LoggerFactory.getLogger(ActorCell.class);
    private static final VarHandle RUN_STATE;
    private static final VarHandle CURRENT;
    private static final VarHandle PROCESSED;
    private static final VarHandle PRESSURE;
    private static final VarHandle WATCHERS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RUN_STATE = lookup.findVarHandle(ActorCell.class, "runState", byte.class);
            CURRENT = lookup.findVarHandle(ActorCell.class, "current", Envelope.class);
            PROCESSED = lookup.findVarHandle(ActorCell.class, "processed", long.class);
            PRESSURE = lookup.findVarHandle(ActorCell.class, "pressure", MailboxPressure.class);
            WATCHERS = lookup.findVarHandle(ActorCell.class, "watchers", Watchers.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final MailboxOverflow[] POLICIES = MailboxOverflow.values();
    private static final byte BACKPRESSURE = (byte) MailboxOverflow.BACKPRESSURE.ordinal();
    private static final byte DROP_OLDEST = (byte) MailboxOverflow.DROP_OLDEST.ordinal();
    private static final byte REJECT = (byte) MailboxOverflow.REJECT.ordinal();

    private static final byte IDLE = 0;
    private static final byte SCHEDULED = 1;

    static final int NEW = 0;
    static final int RUNNING = 1;
    static final int SUSPENDED = 2;
    static final int DETACHED = 3;
    static final int STOPPING = 4;
    static final int TERMINATED = 5;

    private final ActorSystem system;
    /** Boxed once and shared with the system's registry, which is keyed by it. */
    private final Long id;
    private final ActorCell parent;
    /** The name given at spawn, or {@code null}: then the name is derived from the source's origin and the id. */
    private final String name;
    /**
     * The tenant's counters and limits, {@code null} for an actor of no tenant; also where the tenant's
     * id is read from, so that an idle cell holds one reference for both.
     */
    private final TenantActors tenancy;
    /** Replaced by a hot swap; read on the cell's turns and by snapshots. */
    private volatile FactorySource source;
    private final LocalActorRef self;
    private final Mailbox mailbox;
    /** What a {@code tell} to the full mailbox does: a {@link MailboxOverflow} ordinal (a byte, for small cells). */
    private final byte overflowPolicy;
    // Created on first use, so that an idle actor carries none of them (see the class comment).
    /** Installed with a compare-and-set by the first producer that has to wait or the first overflow; any thread. */
    @SuppressWarnings("unused") // accessed through PRESSURE
    private volatile MailboxPressure pressure;
    /** Confined to the cell's turns: created by the first swap step. */
    private CellSwap swap;
    /** Confined to the cell's turns: created by a transition, dropped once it has settled. */
    private CellLifecycle transitions;
    /** Confined to the cell's turns: created by the first child. */
    private CellChildren children;
    /** Installed with a compare-and-set by the first watcher or {@code whenTerminated}; any thread. */
    @SuppressWarnings("unused") // accessed through WATCHERS
    private volatile Watchers watchers;
    /** Confined to the cell's turns: created by the first become, stash, watch or durable instance. */
    private CellBehaviour behaviour;

    @SuppressWarnings("unused") // accessed through RUN_STATE
    private volatile byte runState;
    /** One of the lifecycle constants; a byte, like {@link #runState}, keeps idle cells small. */
    private volatile byte lifecycle;
    /** Written on the turn with release stores (no fence per turn), read racily by snapshots. */
    private long processed;
    /** Failures so far; an int keeps idle cells small (a cell failing 2<sup>31</sup> times is long stopped). */
    private volatile int failures;
    /**
     * Where messages go that reach this cell after it stopped, instead of dead letters: set when an
     * actor pool retires the cell (see {@link ActorSystem#retire}); {@code null} otherwise.
     */
    private volatile ActorRef successor;

    // Confined to the cell's turns.
    private Actor actor;
    private volatile StopReason stopReason;
    /**
     * The message {@code receive} is handling and its sender. Written with opaque stores on the turn,
     * so that the monitor can name a stalled turn's message.
     */
    @SuppressWarnings("unused") // written through CURRENT
    private Envelope current;
    private ActorTimers timers;
    /** Counts restarts, so that notices about the children of an earlier instance are dropped. */
    private int incarnation;
    /** The parent's incarnation when this cell was spawned; written before the cell starts. */
    private int parentIncarnation;


    /** @param name the name given at spawn, or {@code null} for {@code origin-id} */
    ActorCell(ActorSystem system, long id, ActorCell parent, String name, TenantActors tenancy,
              FactorySource source, int mailboxCapacity, MailboxOverflow overflow, Actor initial) {
        this.system = system;
        this.id = id;
        this.parent = parent;
        this.name = name;
        this.tenancy = tenancy;
        this.source = source;
        this.mailbox = new Mailbox(mailboxCapacity);
        this.overflowPolicy = (byte) overflow.ordinal();
        this.self = new LocalActorRef(this);
        if (initial != null) {
            this.actor = initial;
            this.lifecycle = RUNNING;
        }
    }

    /** The run queue lane of this actor's tenant; {@code null} (no tenant's) for an actor of no tenant. */
    @Override
    public RunGroup runGroup() {
        return tenancy == null ? null : tenancy.group();
    }

    /** The tenant's counters and limits; {@code null} for an actor of no tenant. */
    TenantActors tenancy() {
        return tenancy;
    }

    /** Marks a cell created while its plugin is being swapped: it waits for the next revision. */
    void startDetached() {
        startDetached(null);
    }

    /**
     * Marks a cell created from code being swapped: it waits for the swap's decision, as one of
     * {@code lateFor}'s late actors when that is not null.
     */
    void startDetached(CodeSwap lateFor) {
        lifecycle = DETACHED;
        swap = new CellSwap(this, true, lateFor);
    }

    /** The open swap this cell is to wait in as a late actor, or null; read before the cell starts. */
    CodeSwap lateSwap() {
        return swap == null ? null : swap.lateFor();
    }

    /** Like {@link #lateSwap()}, and forgets it: the cell is being handed to that swap (before it starts). */
    CodeSwap takeLateSwap() {
        return swap == null ? null : swap.takeLateFor();
    }

    // ---------------------------------------------------------------- any thread

    long id() {
        return id;
    }

    /** The id as the registry's key. */
    Long key() {
        return id;
    }

    long parentId() {
        return parent == null ? 0 : parent.id;
    }

    /** The name given at spawn, or {@code origin-id}; derived on each call, so that no idle cell holds it. */
    String name() {
        return name != null ? name : source.origin() + "-" + id;
    }

    String origin() {
        return source.origin();
    }

    ActorSystem system() {
        return system;
    }

    LocalActorRef ref() {
        return self;
    }

    boolean isTerminated() {
        return lifecycle == TERMINATED;
    }

    int mailboxDepth() {
        return mailbox.size();
    }

    long processed() {
        return (long) PROCESSED.getOpaque(this);
    }

    long failures() {
        return failures;
    }

    /** Whether a turn is inside {@code receive} now; a racy read for monitors and routers. */
    boolean isReceiving() {
        return CURRENT.getOpaque(this) != null;
    }

    /** From now on, messages that reach this cell once it has stopped go to {@code next}. */
    void forwardUndeliverableTo(ActorRef next) {
        successor = next;
    }

    /** The log entries of this actor's turns; see {@link TurnRecordContext}. */
    Map<String, String> recordEntries() {
        String actor = name() + "#" + id;
        String tenant = tenant();
        return tenant.isEmpty()
                ? Map.of(TurnRecordContext.ACTOR, actor)
                : Map.of(TurnRecordContext.ACTOR, actor, TurnRecordContext.TENANT, tenant);
    }

    /** What the current turn is doing, for a monitor on another thread; see {@link ActorTurn#describe}. */
    ActorTurn describeTurn() {
        Envelope envelope = (Envelope) CURRENT.getOpaque(this);
        Object message = envelope == null ? null : envelope.message();
        return new ActorTurn(id, name(), tenant(), source.origin(), source.pluginName(), ActorTurn.describe(message));
    }

    /**
     * Queues an ordinary message as {@link ActorRef#tell} does: a full mailbox applies the actor's
     * {@link MailboxOverflow} policy.
     *
     * @throws MailboxFullException under {@link MailboxOverflow#REJECT}, for a sender that is not an ask
     */
    void tell(Object message, ActorRef sender) {
        if (lifecycle == TERMINATED) {
            undeliverable(message, sender, stopReason);
            return;
        }
        Envelope envelope = new Envelope(message, sender);
        if (overflowPolicy == BACKPRESSURE) {
            mailbox.forceOffer(envelope); // the capacity is where waiting producers wait, not a bound
        } else if (!mailbox.offer(envelope)) {
            if (overflowPolicy == DROP_OLDEST) {
                mailbox.forceOffer(envelope); // the turn drops the oldest surplus before its next message
            } else {
                refuse(message, sender);
                return;
            }
        }
        countQueued();
        schedule();
    }

    /**
     * Queues an ordinary message if the mailbox holds fewer than its capacity, as {@link ActorRef#offer}
     * does; never applies the overflow policy.
     *
     * @return whether the message was queued
     */
    boolean offer(Object message, ActorRef sender) {
        if (lifecycle == TERMINATED) {
            ActorRef next = successor;
            if (next != null) {
                return next.offer(message, sender); // a retired pool member: the pool takes it or is full
            }
            undeliverable(message, sender, stopReason);
            return false;
        }
        if (!mailbox.offer(new Envelope(message, sender))) {
            return false;
        }
        countQueued();
        schedule();
        return true;
    }

    /** A full mailbox under {@code REJECT} or {@code DROP_NEWEST} refuses {@code message}. */
    private void refuse(Object message, ActorRef sender) {
        MailboxPressure counts = pressure();
        if (sender instanceof AskRef ask) {
            counts.rejected.incrementAndGet();
            ask.fail(new Failure(ErrorCode.MAILBOX_FULL, "mailbox of " + name() + " is full"));
            system.deadLetters().publish(new DeadLetter(self, message, sender, "mailbox full", null));
        } else if (overflowPolicy == REJECT) {
            counts.rejected.incrementAndGet();
            throw new MailboxFullException(self, mailbox.capacity());
        } else {
            counts.dropped.incrementAndGet();
            system.deadLetters().publish(new DeadLetter(self, message, sender, "mailbox full", null));
        }
    }

    /** Messages refused to their senders so far. */
    long rejected() {
        MailboxPressure counts = pressure;
        return counts == null ? 0 : counts.rejected.get();
    }

    /** Messages the full mailbox dropped into dead letters so far. */
    long dropped() {
        MailboxPressure counts = pressure;
        return counts == null ? 0 : counts.dropped.get();
    }

    int mailboxCapacity() {
        return mailbox.capacity();
    }

    MailboxOverflow overflow() {
        return POLICIES[overflowPolicy];
    }

    void sendSystem(SystemMessage message) {
        mailbox.offerSystem(message);
        schedule();
    }

    /**
     * If the mailbox is above its high-water mark (half the capacity), registers {@code onDrained} to
     * run once it falls below the low-water mark (a quarter) and returns {@code true}.
     */
    boolean awaitDrain(Runnable onDrained) {
        return pressure().await(onDrained);
    }

    /** Called by the timer thread when {@code timer} is due. */
    void deliverTimer(ActorTimer timer) {
        if (lifecycle == TERMINATED) {
            return;
        }
        // the actor's own timer: queued past the capacity, as a reply to its own ask is
        mailbox.forceOffer(new Envelope(timer, null));
        countQueued();
        schedule();
    }

    /**
     * Queues {@code work} to run on this actor's turn (see {@link TurnTask}), past the capacity; dropped
     * when the actor has stopped.
     */
    void runOnTurn(Runnable work, int forIncarnation, ActorRef sender) {
        if (lifecycle == TERMINATED) {
            return;
        }
        mailbox.forceOffer(new Envelope(new TurnTask(work, forIncarnation, sender), sender));
        countQueued();
        schedule();
    }

    /** An actor this cell watches has stopped: queues the notice behind what that actor sent before. */
    void notifyTerminated(ActorRef target) {
        if (lifecycle == TERMINATED) {
            return;
        }
        mailbox.forceOffer(new Envelope(new WatchNotice(target), target));
        countQueued();
        schedule();
    }

    /** How many actors watch this one now. */
    int watcherCount() {
        Watchers current = watchers;
        return current == null ? 0 : current.size();
    }

    /** See {@link ActorRef#whenTerminated()}. */
    CompletableFuture<Void> whenTerminated() {
        return watchers().termination();
    }

    private Watchers watchers() {
        Watchers current = watchers;
        if (current == null) {
            Watchers created = new Watchers(this);
            current = WATCHERS.compareAndSet(this, null, created) ? created : watchers;
        }
        return current;
    }

    /** Counts a message just queued against the tenant's backlog. */
    private void countQueued() {
        if (tenancy != null) {
            tenancy.queuedIn();
        }
    }

    private void schedule() {
        if (runState == IDLE && RUN_STATE.compareAndSet(this, IDLE, SCHEDULED)) {
            system.dispatcher().execute(this);
        }
    }

    private void undeliverable(Object message, ActorRef sender, StopReason reason) {
        if (message instanceof ActorTimer || message instanceof TurnTask || message instanceof WatchNotice) {
            return; // the actor's own business: nobody else waits for it
        }
        ActorRef next = successor;
        if (next != null && !(message instanceof ChildNotice)) {
            next.tell(message, sender); // a retired pool member: the pool serves it
            return;
        }
        StopReason why = reason == null ? StopReason.NORMAL : reason;
        if (sender instanceof AskRef ask) {
            ask.fail(new Failure(why.code(), name() + " " + why.text()));
        } else {
            system.deadLetters().publish(new DeadLetter(self, message, sender, "actor stopped: " + why.text(),
                    why.cause()));
        }
    }

    // ---------------------------------------------------------------- the turn

    @Override
    public void run() {
        try {
            processSystemMessages();
            int phase = lifecycle;
            if (phase == RUNNING) {
                processMailbox();
            } else if (phase == TERMINATED) {
                drainMailbox();
            }
        } finally {
            MailboxPressure waiters = pressure;
            if (waiters != null) {
                waiters.releaseIfDrained();
            }
            if (tenancy != null) {
                tenancy.turnEnded();
            }
            runState = IDLE;
            if (hasWork() && runState == IDLE && RUN_STATE.compareAndSet(this, IDLE, SCHEDULED)) {
                system.dispatcher().requeue(this); // behind the others: it has had its turn
            }
        }
    }

    private boolean hasWork() {
        if (mailbox.hasSystemMessages()) {
            return true;
        }
        int phase = lifecycle;
        return (phase == RUNNING || phase == TERMINATED)
                && (!mailbox.isEmpty() || (phase == RUNNING && behaviour != null && behaviour.hasUnstashed()));
    }

    private void processMailbox() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(actor.getClass().getClassLoader());
        int count = 0;
        int polled = 0;
        CellDurability durability = durable();
        if (durability != null) {
            durability.beginBatch();
        }
        try {
            int limit = system.throughput();
            while (count < limit) {
                if (mailbox.hasSystemMessages()) {
                    processSystemMessages();
                    if (lifecycle != RUNNING) {
                        break;
                    }
                }
                Envelope envelope = behaviour == null ? null : behaviour.pollUnstashed();
                if (envelope == null) {
                    if (overflowPolicy == DROP_OLDEST) {
                        polled += dropOldestSurplus();
                    }
                    envelope = mailbox.poll();
                    if (envelope == null) {
                        break;
                    }
                    polled++;
                }
                count++;
                invoke(envelope);
                if (lifecycle != RUNNING) {
                    break;
                }
            }
        } finally {
            PROCESSED.setRelease(this, processed + count);
            if (tenancy != null) {
                tenancy.queuedOut(polled);
            }
            if (durability != null) {
                durability.endBatch(count, lifecycle == SUSPENDED);
            }
            thread.setContextClassLoader(previous);
        }
    }

    /** Under {@code DROP_OLDEST}: drops the oldest messages beyond the capacity into dead letters. */
    private int dropOldestSurplus() {
        int surplus = mailbox.size() - mailbox.capacity();
        int dropped = 0;
        while (dropped < surplus) {
            Envelope oldest = mailbox.poll();
            if (oldest == null) {
                break;
            }
            dropped++;
            Object message = oldest.message();
            ActorRef sender = oldest.sender();
            mailbox.releaseLast();
            if (message instanceof TurnTask || message instanceof WatchNotice || message instanceof ChildNotice
                    || message instanceof ActorTimer) {
                // the runtime's own notices are never dropped: they go back behind the others
                mailbox.forceOffer(new Envelope(message, sender));
                countQueued();
                continue;
            }
            pressure().dropped.incrementAndGet();
            if (sender instanceof AskRef ask) {
                ask.fail(new Failure(ErrorCode.MAILBOX_FULL, "mailbox of " + name() + " is full; the request was"
                        + " dropped as the oldest"));
            }
            system.deadLetters().publish(new DeadLetter(self, message, sender, "mailbox full (oldest dropped)",
                    null));
        }
        return dropped;
    }

    private void invoke(Envelope envelope) {
        Object message = envelope.message();
        CellBehaviour extras = behaviour;
        if (extras != null && extras.durable != null) {
            extras.durable.touched(message);
        }
        if (message instanceof TurnTask task) {
            runTask(task, envelope);
            return;
        } else if (message instanceof WatchNotice notice) {
            message = behaviour != null && behaviour.unwatch(notice.target()) ? new Terminated(notice.target()) : null;
        } else if (message instanceof ActorTimer timer) {
            message = timers == null ? null : timers.accept(timer);
        } else if (message instanceof ChildNotice notice) {
            message = notice.incarnation() == incarnation ? notice.stopped() : null;
            // the child's ChildTerminated was queued before this notice: apply it first, so that
            // children() no longer lists the child while the actor handles the notice
            processSystemMessages();
            if (lifecycle != RUNNING) {
                // a system message just took the instance away (a hot swap detached it, a failure
                // suspended it): the notice waits for the next instance, behind what is queued
                if (message != null && lifecycle < STOPPING) {
                    mailbox.forceOffer(new Envelope(envelope.message(), envelope.sender())); // a node of its own
                    countQueued();
                }
                mailbox.releaseLast();
                return;
            }
        }
        if (message == null) {
            mailbox.releaseLast();
            return;
        }
        // a timer or a child notice is handled as its payload: the context must show the payload
        CURRENT.setOpaque(this, message == envelope.message() ? envelope : new Envelope(message, envelope.sender()));
        try {
            receiveNow(message);
        } catch (Throwable cause) {
            receiveFailed(cause, message, envelope.sender());
        } finally {
            CURRENT.setOpaque(this, null);
            mailbox.releaseLast();
        }
    }

    /** Hands {@code message} to the behaviour the actor became, or to its instance's {@code receive}. */
    private void receiveNow(Object message) throws Exception {
        Receive became = behaviour == null ? null : behaviour.current;
        if (became != null) {
            became.onMessage(this, message);
        } else {
            actor.receive(this, message);
        }
    }

    /** Runs an ask's completion on this turn, unless the actor restarted since it asked. */
    private void runTask(TurnTask task, Envelope envelope) {
        if (task.incarnation() != incarnation && task.incarnation() != TurnTask.ANY_INCARNATION) {
            mailbox.releaseLast();
            return;
        }
        CURRENT.setOpaque(this, new Envelope(task, task.sender()));
        try {
            task.work().run();
        } catch (Throwable cause) {
            // CompletableFuture keeps a callback's failure in the derived stage; this is only a guard
            LOG.warn("Actor {}#{}: a callback of its ask failed", name(), id, cause);
        } finally {
            CURRENT.setOpaque(this, null);
            mailbox.releaseLast();
        }
    }

    private void receiveFailed(Throwable cause, Object message, ActorRef sender) {
        if (FatalErrors.isFatal(cause)) {
            // not the actor's failure: the JVM's (the heap, the stack); the process ends (FatalErrors)
            throw FatalErrors.fatal("running a turn of actor " + name() + "#" + id + " (receiving a "
                    + (message == null ? "null" : message.getClass().getName()) + ")", cause);
        }
        if (sender instanceof AskRef ask) {
            ask.fail(new Failure(ErrorCode.HANDLER_FAILED, name() + " failed: " + cause));
        }
        system.deadLetters().publish(new DeadLetter(self, message, sender, "receive failed", cause));
        fail(cause, message);
    }

    /** Suspends this actor and asks the parent what to do. */
    void fail(Throwable cause, Object message) {
        fail(cause, message, false);
    }

    /**
     * Suspends this actor and asks the parent what to do; {@code told}: the failure was logged where it
     * happened (a store refusing writes tells its episode once), so it is not logged again here, at each turn.
     */
    private void fail(Throwable cause, Object message, boolean told) {
        if (FatalErrors.isFatal(cause)) {
            throw FatalErrors.fatal("starting actor " + name() + "#" + id, cause);
        }
        failures++;
        if (told || cause instanceof StoreTrouble.Told) {
            LOG.debug("Actor {}#{} failed: {}", name(), id, cause.toString());
        } else {
            LOG.warn("Actor {}#{} failed{}", name(), id, message == null ? " to start" : "", cause);
        }
        lifecycle = SUSPENDED;
        if (parent == null) {
            transitions().initiateStop(new StopReason("failed", ErrorCode.HANDLER_FAILED, cause));
        } else {
            parent.sendSystem(new SystemMessage.Failed(this, cause, message));
        }
    }

    private void drainMailbox() {
        if (behaviour != null && behaviour.held() > 0) {
            for (Envelope held : behaviour.takeAllHeld()) {
                undeliverable(held.message(), held.sender(), stopReason); // stashed, never to be unstashed
            }
        }
        Envelope envelope;
        int count = 0;
        while ((envelope = mailbox.poll()) != null) {
            count++;
            undeliverable(envelope.message(), envelope.sender(), stopReason);
            mailbox.releaseLast();
        }
        if (tenancy != null) {
            tenancy.queuedOut(count);
        }
    }

    // ---------------------------------------------------------------- system messages

    private void processSystemMessages() {
        SystemMessage message;
        while ((message = (SystemMessage) mailbox.pollSystem()) != null) {
            if (lifecycle == TERMINATED) {
                if (message instanceof SystemMessage.Adopt adopt) {
                    adopt.child().sendSystem(new SystemMessage.Stop(StopReason.SHUTDOWN));
                } else if (message instanceof SystemMessage.Detach detach) {
                    detach.barrier().arrive(); // a stopped actor has nothing to move
                } else if (message instanceof SystemMessage.Prepare prepare) {
                    prepare.barrier().arrive();
                }
                continue;
            }
            process(message);
        }
        if (transitions != null && transitions.isSettled()) {
            transitions = null;
        }
    }

    private void process(SystemMessage message) {
        if (message instanceof SystemMessage.Create) {
            transitions().create();
        } else if (message instanceof SystemMessage.Stop stop) {
            transitions().initiateStop(stop.reason());
        } else if (message instanceof SystemMessage.Failed failed) {
            supervise(failed);
        } else if (message instanceof SystemMessage.ChildTerminated terminated) {
            transitions().childTerminated(terminated);
        } else if (message instanceof SystemMessage.Restart restart) {
            transitions().initiateRestart(restart);
        } else if (message instanceof SystemMessage.Resume) {
            transitions().resume();
        } else if (message instanceof SystemMessage.Adopt adopt) {
            transitions().adopt(adopt.child());
        } else if (message instanceof SystemMessage.Detach detach) {
            swap().detach(detach.swap(), detach.barrier());
        } else if (message instanceof SystemMessage.Reattach reattach) {
            if (swap().reattach(reattach.swap())) {
                transitions().create();
            }
        } else if (message instanceof SystemMessage.StartOn start) {
            if (swap().startOn(start.source(), start.swap())) {
                transitions().create();
            }
        } else if (message instanceof SystemMessage.Prepare prepare) {
            swap().prepare(prepare.source(), prepare.barrier());
        } else if (message instanceof SystemMessage.Commit) {
            swap().commit();
        } else if (message instanceof SystemMessage.Abort) {
            swap().abort();
        }
    }

    // ---------------------------------------------------------------- accessors for collaborators (own turn)

    int lifecycle() {
        return lifecycle;
    }

    void lifecycle(int next) {
        lifecycle = (byte) next;
    }

    Actor actor() {
        return actor;
    }

    /**
     * Installs {@code next} as the instance; a new instance is {@linkplain Actor#bind bound} to this
     * actor's reference (user code: it may throw, and the caller treats that as a failure to start) and
     * receives with its own {@code receive}, whatever the previous instance had become.
     */
    void actor(Actor next) {
        actor = next;
        if (behaviour != null) {
            behaviour.current = null;
        }
        if (next != null) {
            next.bind(self);
        }
        if (next != null) { // between two instances (a restart) the bond stays, for the next one to go on from
            CellDurability bond = next instanceof Durable durableActor ? durabilityOf(durableActor) : null;
            if (bond != null || behaviour != null) {
                behaviour().durable = bond;
            }
        }
    }

    /**
     * The bond of a durable instance with the store, or null when the runtime has no store and does not
     * require one (the actor then keeps its state in memory only, as the log says once).
     *
     * @throws IllegalStateException when a store is required and missing, or the actor has no stable path
     */
    private CellDurability durabilityOf(Durable instance) {
        StateStore store = system.stateStore(this);
        if (store == null) {
            return null;
        }
        return new CellDurability(this, stateKey(), instance.durability(), store, durable());
    }

    /** Where this actor's state is stored: its tenant, origin and path of given names from the top. */
    StateKey stateKey() {
        StringBuilder path = new StringBuilder();
        for (ActorCell cell = this; cell.parent != null; cell = cell.parent) {
            if (cell.name == null) {
                throw new IllegalStateException("durable actor " + name() + "#" + id + " has no stable path: "
                        + (cell == this ? "it has" : "its ancestor " + cell.name() + " has")
                        + " no name of its own (ActorOptions.withName), and a derived name carries a runtime id");
            }
            path.insert(0, path.length() == 0 ? cell.name : cell.name + "/");
        }
        return new StateKey(tenant(), source.origin(), path.toString());
    }

    /**
     * After {@code preStart} of a fresh instance (start, restart, or a hot swap's instance for an actor
     * that never read the store): a durable actor takes its last stored state through
     * {@code importState}; from then on its turns may write it.
     */
    void restoreState() throws Exception {
        CellDurability durability = durable();
        if (durability == null) {
            return;
        }
        byte[] snapshot = durability.lastSnapshot(); // a restart: the newest state this cell handed the store
        boolean fromStore = snapshot == null;
        if (fromStore) {
            try {
                snapshot = system.stateStore(this).read(durability.key()).orElse(null);
            } catch (Exception e) {
                throw system.storeTrouble().readFailed(name() + "#" + id + " (" + durability.key() + ")", e);
            }
        }
        if (snapshot != null) {
            Object state = CellDurability.CODEC.decode(snapshot, name() + "#" + id + " (" + durability.key() + ")");
            actor.importState(this, state);
        }
        durability.restored(snapshot, fromStore);
    }

    /**
     * Whether the current instance's state derives from the store (or the actor is not durable): a hot
     * swap may then hand it to the next revision as it is.
     */
    boolean stateRestored() {
        CellDurability durability = durable();
        return durability == null || durability.isRestored();
    }

    /** A hot swap's instance imported the state of one that had read the store: its turns may write. */
    void stateCarriedOver() {
        CellDurability durability = durable();
        if (durability != null) {
            durability.carriesRestoredState();
        }
    }

    /** The state to store: the instance's export, or while a hot swap holds the cell, what it exported. */
    Object exportForStore() throws Exception {
        if (lifecycle == DETACHED && swap != null) {
            return swap.exportedState();
        }
        return actor.exportState(this);
    }

    /** The bond of the current instance with the state store; null when it is not durable. On the turn only. */
    CellDurability durable() {
        return behaviour == null ? null : behaviour.durable;
    }

    /** The durable state could not be written: the actor fails, and its restart reads the last stored state. */
    void failOnTurn(Throwable cause) {
        if (lifecycle == RUNNING) {
            fail(cause, null, true);
        }
    }

    int incarnation() {
        return incarnation;
    }

    /**
     * A normal stop: a durable actor writes its state a last time (a failure's half-changed state is not);
     * its tenant's stop waits for the store's acknowledgement.
     */
    void saveOnStop() {
        CellDurability durability = durable();
        if (durability == null && tenancy != null && tenancy.handingOver()) {
            leaveState();
            return;
        }
        if (durability == null || (stopReason != null && stopReason.cause() != null) || !durability.isRestored()) {
            return; // nothing, a failure's half-changed state, or a state the store never saw: not written
        }
        CompletableFuture<Void> save = durability.save().whenComplete((done, failure) -> {
            if (failure != null) {
                LOG.error("Actor {}#{}: its last state could not be written to the store", name(), id, failure);
            }
        });
        if (tenancy != null) {
            tenancy.lastSave(save); // stopTenant completes once the store has it (a cluster hands the tenant over)
        }
    }

    /**
     * The tenant moves to another node: an actor that is not durable but has a stable path leaves its
     * exported state for the actor of the same path there ({@link MovedActors}); on its last turn.
     */
    private void leaveState() {
        if (stopReason != null && stopReason.cause() != null) {
            return; // a failure's half-changed state is not carried
        }
        StateKey key;
        try {
            key = stateKey();
        } catch (IllegalStateException noStablePath) {
            return; // nothing on the next node could tell it is this actor
        }
        try {
            Object state = exportForStore();
            if (state != null) {
                tenancy.moved().leave(key, CellDurability.CODEC.encode(state, name() + "#" + id + " (" + key + ")"));
            }
        } catch (Throwable e) {
            LOG.warn("Actor {}#{}: its state cannot go with its tenant to the next node, where it starts afresh",
                    name(), id, e);
        }
    }

    /**
     * After the first {@code preStart} of an actor that is not durable: if its tenant arrived from another
     * node with a state left by the actor of the same path ({@link MovedActors}), the instance imports it.
     */
    void adoptMovedState() throws Exception {
        if (tenancy == null || durable() != null || tenant().isEmpty() || !hasStablePath()) {
            return;
        }
        MovedActors moved = tenancy.moved();
        StateStore store = system.stateStore();
        if (moved.exhausted() || store == null) {
            return;
        }
        StateKey key = stateKey();
        byte[] snapshot = moved.take(key, store);
        if (snapshot != null) {
            actor.importState(this, CellDurability.CODEC.decode(snapshot, name() + "#" + id + " (" + key + ")"));
        }
    }

    private boolean hasStablePath() {
        for (ActorCell cell = this; cell.parent != null; cell = cell.parent) {
            if (cell.name == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the cell has nothing to do: neither in a turn nor scheduled for one, and no message, system
     * or other, in its mailbox. A racy read from any thread ({@link TenantIdle} looks twice).
     */
    boolean isIdle() {
        return runState == IDLE && mailbox.size() == 0 && !mailbox.hasSystemMessagesPushed();
    }

    void source(FactorySource next) {
        source = next;
    }

    FactorySource source() {
        return source;
    }

    CellChildren childCells() {
        if (children == null) {
            children = new CellChildren();
        }
        return children;
    }

    /** The old instance a hot swap keeps while the cell is detached, for its {@code postStop}; else null. */
    Actor detachedInstance() {
        return swap == null ? null : swap.detachedInstance();
    }

    /** A timer was started on this actor's turn; see {@link CellSwap#timerStarted}. */
    void timerStarted(String key) {
        if (swap != null) {
            swap.timerStarted(key);
        }
    }

    /** How many children are listed now. */
    int childCount() {
        return children == null ? 0 : children.size();
    }

    /** Sends {@code message} to every listed child. */
    void tellChildren(SystemMessage message) {
        if (children != null) {
            children.tellAll(message);
        }
    }

    /**
     * Checks that no active timer's message holds a class loaded by {@code code}, the revision a hot
     * swap replaces: such a message would reach the next revision's instance as an object it cannot
     * use.
     *
     * @throws IllegalArgumentException naming the timer and the class
     */
    void requirePortableTimers(ClassLoader code) {
        if (timers != null) {
            timers.requirePortable(code);
        }
    }

    /** The lifecycle transitions, created for a system message and dropped once they have settled. */
    private CellLifecycle transitions() {
        if (transitions == null) {
            transitions = new CellLifecycle(this);
        }
        return transitions;
    }

    private CellSwap swap() {
        if (swap == null) {
            swap = new CellSwap(this, false, null);
        }
        return swap;
    }


    private MailboxPressure pressure() {
        MailboxPressure waiters = pressure;
        if (waiters == null) {
            MailboxPressure created = new MailboxPressure(mailbox, this::isTerminated, name() + "#" + id);
            waiters = PRESSURE.compareAndSet(this, null, created) ? created : pressure;
        }
        return waiters;
    }

    void stopReason(StopReason reason) {
        stopReason = reason;
    }

    /** A restart: the fresh instance gets what the failed one stashed, ahead of the mailbox. */
    void nextIncarnation() {
        incarnation++;
        if (behaviour != null) {
            behaviour.unstashAll();
        }
    }

    void cancelTimers() {
        if (timers != null) {
            timers.cancelAll();
        }
    }

    void dropTimers() {
        timers = null;
    }

    /** The last step of a stop, after {@code postStop}: unregisters the cell and tells the parent. */
    void terminate() {
        lifecycle = TERMINATED;
        swap = null; // with it any instance or state a swap kept: a stale reference pins no plugin class
        system.terminated(this);
        source.detach(self);
        // keep the origin (the derived name uses it) but not the factory: a stale reference to a
        // stopped actor must not keep its plugin's code reachable
        source = FactorySource.stopped(source.origin());
        drainMailbox();
        if (behaviour != null) {
            for (ActorRef watched : behaviour.takeWatched()) {
                if (watched instanceof LocalActorRef ref) {
                    Watchers theirs = ref.cell().watchers;
                    if (theirs != null) {
                        theirs.remove(this); // a dead watcher must not keep a long-lived target's set growing
                    }
                }
            }
            behaviour = null;
        }
        if (parent != null) {
            parent.sendSystem(new SystemMessage.ChildTerminated(this, stopReason));
            parent.notifyChildStopped(this, stopReason);
        }
        Watchers mine = watchers;
        if (mine != null) {
            mine.terminated(); // after the parent's notice: a watching parent hears ChildStopped first
        }
    }

    // ---------------------------------------------------------------- supervision (own turn)

    /**
     * Queues {@link ChildStopped} behind every message the child sent before it stopped (Pekko's
     * guarantee for Terminated), bypassing the capacity so that the notice is never lost.
     */
    private void notifyChildStopped(ActorCell child, StopReason reason) {
        boolean guardian = parent == null;
        if (guardian || lifecycle >= STOPPING) {
            return;
        }
        StopReason why = reason == null ? StopReason.NORMAL : reason;
        ChildNotice notice = new ChildNotice(new ChildStopped(child.self, why.text(), why.cause()),
                child.parentIncarnation);
        mailbox.forceOffer(new Envelope(notice, child.self));
        countQueued();
        schedule();
    }

    private void supervise(SystemMessage.Failed failed) {
        ActorCell child = failed.child();
        if (children == null || !children.isCurrent(child)) {
            return;
        }
        Directive directive = Supervision.decide(Supervision.strategyOf(actor, this), child,
                children.restartsOf(child), failed.cause(),
                system.nanoTime(), parent != null);
        switch (directive) {
            case RESUME -> child.sendSystem(SystemMessage.Resume.INSTANCE);
            case RESTART -> child.sendSystem(new SystemMessage.Restart(failed.cause(), failed.message()));
            case STOP -> child.sendSystem(new SystemMessage.Stop(
                    new StopReason("failed: " + failed.cause(), ErrorCode.HANDLER_FAILED, failed.cause())));
            case ESCALATE -> fail(failed.cause(), null);
        }
        deliver(new ChildFailed(child.self, failed.cause(), directive), child.self);
    }

    /** Hands a runtime notification to {@code receive}, if the actor is running. */
    private void deliver(Object notification, ActorRef sender) {
        if (lifecycle != RUNNING || actor == null) {
            return;
        }
        Envelope envelope = new Envelope(notification, sender);
        CURRENT.setOpaque(this, envelope);
        try {
            receiveNow(notification);
        } catch (Throwable cause) {
            receiveFailed(cause, notification, sender);
        } finally {
            CURRENT.setOpaque(this, null);
        }
    }

    // ---------------------------------------------------------------- ActorContext (own turn only)

    @Override
    public ActorRef self() {
        return self;
    }

    @Override
    public ActorRef parent() {
        return parent == null ? system.noSender() : parent.self;
    }

    @Override
    public ActorRef sender() {
        Envelope envelope = current;
        ActorRef sender = envelope == null ? null : envelope.sender();
        return sender == null ? system.noSender() : sender;
    }

    @Override
    public void reply(Object message) {
        sender().tell(message, self);
    }

    @Override
    public void forward(ActorRef target) {
        Envelope envelope = current;
        if (envelope == null) {
            throw new IllegalStateException("there is no current message to forward");
        }
        target.tell(envelope.message(), envelope.sender());
    }

    @Override
    public String tenant() {
        return tenancy == null ? "" : tenancy.tenant();
    }

    @Override
    public ActorRef spawn(ActorFactory factory, ActorOptions options) {
        return spawnChild(system.sourceOf(factory), options);
    }

    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        return spawnChild(system.resolveFactory(factoryName, tenant()), options);
    }

    private ActorRef spawnChild(FactorySource childSource, ActorOptions options) {
        ActorCell child = system.newCell(this, childSource, options, tenant());
        child.parentIncarnation = incarnation;
        childCells().add(child);
        if (swap != null) {
            swap.childSpawned(child);
        }
        if (lifecycle >= STOPPING) {
            child.sendSystem(new SystemMessage.Stop(stopReason));
        }
        system.start(child);
        return child.self;
    }

    @Override
    public Collection<ActorRef> children() {
        return children == null ? List.of() : children.refs();
    }

    @Override
    public void stop(ActorRef child) {
        if (child instanceof LocalActorRef ref && ref.cell().parent == this) {
            ref.cell().sendSystem(new SystemMessage.Stop(StopReason.NORMAL));
        }
    }

    @Override
    public void stop() {
        sendSystem(new SystemMessage.Stop(StopReason.NORMAL));
    }

    @Override
    public Timers timers() {
        if (timers == null) {
            timers = new ActorTimers(this, system.scheduler());
        }
        return timers;
    }

    @Override
    public ActorRef spawnTopLevel(ActorFactory factory, ActorOptions options) {
        return system.spawn(system.sourceOf(factory), options, tenant());
    }

    @Override
    public ActorRef spawnTopLevel(String factoryName, ActorOptions options) {
        return system.spawn(system.resolveFactory(factoryName, tenant()), options, tenant());
    }

    @Override
    public Optional<ActorRef> lookup(String path) {
        return system.lookup(tenant(), path);
    }

    @Override
    public CompletionStage<Object> ask(ActorRef target, Object message, Duration timeout) {
        TurnStage<Object> stage = new TurnStage<>(this, incarnation);
        int asker = incarnation;
        system.ask(target, message, timeout).whenComplete((reply, failure) -> runOnTurn(() -> {
            if (failure != null) {
                stage.completeExceptionally(failure);
            } else {
                stage.complete(reply);
            }
        }, asker, target));
        return stage;
    }

    @Override
    public void ask(ActorRef target, Object message, Duration timeout,
                    BiFunction<Object, Throwable, Object> adapter) {
        int asker = incarnation;
        system.ask(target, message, timeout).whenComplete((reply, failure) -> runOnTurn(() -> {
            Object adapted = adapter.apply(reply, failure);
            if (adapted != null) {
                mailbox.forceOffer(new Envelope(adapted, target)); // the actor asked for it: never refused
                countQueued();
            }
        }, asker, target));
    }

    @Override
    public void watch(ActorRef target) {
        if (target == null || target.equals(self) || !behaviour().watch(target)) {
            return;
        }
        if (target instanceof LocalActorRef ref && ref.cell().system == system) {
            if (!ref.cell().watchers().add(this)) {
                notifyTerminated(target); // it had already stopped
            }
        } else {
            // pools and other runtime objects: their termination future carries the notice
            target.whenTerminated().whenComplete((done, failure) -> notifyTerminated(target));
        }
    }

    @Override
    public void unwatch(ActorRef target) {
        if (behaviour == null || !behaviour.unwatch(target)) {
            return;
        }
        if (target instanceof LocalActorRef ref) {
            Watchers theirs = ref.cell().watchers;
            if (theirs != null) {
                theirs.remove(this);
            }
        }
    }

    @Override
    public void stash() {
        Envelope envelope = current;
        if (envelope == null || envelope.message() instanceof TurnTask) {
            throw new IllegalStateException("stash() is only valid while receive handles a message");
        }
        behaviour().stash(new Envelope(envelope.message(), envelope.sender()));
    }

    @Override
    public void unstashAll() {
        if (behaviour != null) {
            behaviour.unstashAll();
        }
    }

    @Override
    public void become(Receive next) {
        behaviour().current = java.util.Objects.requireNonNull(next, "behaviour");
    }

    @Override
    public void unbecome() {
        if (behaviour != null) {
            behaviour.current = null;
        }
    }

    @Override
    public void unhandled(Object message) {
        if (message instanceof ChildStopped || message instanceof ChildFailed || message instanceof Terminated) {
            return; // a notice the actor chose not to act on: nobody sent it, nobody misses it
        }
        Envelope envelope = current;
        ActorRef sender = envelope == null ? null : envelope.sender();
        if (sender instanceof AskRef ask) {
            ask.fail(new Failure(ErrorCode.BAD_REQUEST, name() + " does not handle "
                    + (message == null ? "null" : message.getClass().getName())));
        }
        system.deadLetters().publish(new DeadLetter(self, message, sender, "unhandled", null));
    }

    @Override
    public CompletionStage<Void> saveState() {
        CellDurability durability = durable();
        if (durability == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(name() + " is not durable"
                    + (actor instanceof Durable ? ": the runtime has no state store"
                            : ": it does not implement Durable")));
        }
        return durability.save();
    }

    private CellBehaviour behaviour() {
        if (behaviour == null) {
            behaviour = new CellBehaviour();
        }
        return behaviour;
    }

    @Override
    public String toString() {
        return "ActorCell[" + name() + "#" + id + "]";
    }
}
