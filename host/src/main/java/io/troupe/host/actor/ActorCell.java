package io.troupe.host.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

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
import io.troupe.api.Message;
import io.troupe.api.SupervisorStrategy;
import io.troupe.api.Timers;
import io.troupe.host.mailbox.Envelope;
import io.troupe.host.mailbox.Mailbox;

/**
 * The runtime side of one actor: its mailbox, its current instance, its place in the parent/child
 * tree, its supervision state and timers. A cell is a {@link Runnable} that the dispatcher runs for
 * one turn: system messages first, then up to {@code throughput} ordinary messages.
 *
 * <p>Lifecycle: {@code NEW} (until {@code Create} ran {@code preStart}) → {@code RUNNING} ⇄
 * {@code SUSPENDED} (failed, waiting for the parent's directive) → {@code STOPPING} (waiting for the
 * children) → {@code TERMINATED}. During a hot swap a cell is {@code DETACHED}: its instance has
 * exported its state and is gone, its mailbox keeps accepting messages, and it waits for an instance
 * of the plugin's next revision ({@code Prepare}, then {@code Commit} or {@code Abort}). A terminated cell is unregistered and drops its instance, so a
 * stale reference keeps no plugin class alive; messages that still reach it go to dead letters.
 *
 * <p><b>Threading:</b> {@link #enqueue}, {@link #sendSystem}, {@link #deliverTimer} and the
 * read-only accessors are safe from any thread and lock-free. Everything else, including the whole
 * {@link ActorContext} implementation, runs only on the cell's turn. The run-state compare-and-set
 * guarantees that at most one thread runs a turn at a time, and its volatile accesses order one turn
 * before the next.
 */
public final class ActorCell implements Runnable, ActorContext {

    private static final Logger LOG = LoggerFactory.getLogger(ActorCell.class);
    private static final VarHandle RUN_STATE;
    private static final VarHandle DRAIN_WAITERS;
    private static final VarHandle CURRENT_MESSAGE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RUN_STATE = lookup.findVarHandle(ActorCell.class, "runState", int.class);
            DRAIN_WAITERS = lookup.findVarHandle(ActorCell.class, "drainWaiters", DrainWaiter.class);
            CURRENT_MESSAGE = lookup.findVarHandle(ActorCell.class, "currentMessage", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int IDLE = 0;
    private static final int SCHEDULED = 1;

    static final int NEW = 0;
    static final int RUNNING = 1;
    static final int SUSPENDED = 2;
    static final int DETACHED = 3;
    static final int STOPPING = 4;
    static final int TERMINATED = 5;

    private enum AfterChildren { NOTHING, STOP, RESTART }

    /** A producer paused by backpressure: an immutable node of a lock-free stack. */
    private record DrainWaiter(Runnable onDrained, DrainWaiter next) { }

    private final ActorSystem system;
    private final long id;
    private final ActorCell parent;
    private final String name;
    private final String tenant;
    /** Replaced by a hot swap; read on the cell's turns and by snapshots. */
    private volatile FactorySource source;
    private final LocalActorRef self;
    private final Mailbox mailbox;
    private final ConcurrentLinkedQueue<SystemMessage> systemQueue = new ConcurrentLinkedQueue<>();

    @SuppressWarnings("unused") // accessed through RUN_STATE
    private volatile int runState;
    @SuppressWarnings("unused") // accessed through DRAIN_WAITERS
    private volatile DrainWaiter drainWaiters;
    private volatile int lifecycle;
    private volatile long processed;
    private volatile long failures;

    // Confined to the cell's turns.
    private Actor actor;
    private Map<Long, ActorCell> children;
    private AfterChildren afterChildren = AfterChildren.NOTHING;
    private SystemMessage.Restart pendingRestart;
    private volatile StopReason stopReason;
    private Envelope current;
    /** Written with opaque stores on the turn, so that the monitor can name a stalled turn's message. */
    private Object currentMessage;
    private ActorTimers timers;
    /** State exported by the previous revision's instance, kept until the swap commits. */
    private Object swapState;
    /** Whether a new revision's instance is prepared and waits for the commit. */
    private boolean prepared;
    /** Counts restarts, so that notices about the children of an earlier instance are dropped. */
    private int incarnation;
    /** The parent's incarnation when this cell was spawned; written before the cell starts. */
    private int parentIncarnation;

    // Confined to the parent's turns.
    final RestartHistory restarts = new RestartHistory();

    ActorCell(ActorSystem system, long id, ActorCell parent, String name, String tenant,
              FactorySource source, int mailboxCapacity, Actor initial) {
        this.system = system;
        this.id = id;
        this.parent = parent;
        this.name = name;
        this.tenant = tenant;
        this.source = source;
        this.mailbox = new Mailbox(mailboxCapacity);
        this.self = new LocalActorRef(this);
        if (initial != null) {
            this.actor = initial;
            this.lifecycle = RUNNING;
        }
    }

    /** Marks a cell created while its plugin is being swapped: it waits for the next revision. */
    void startDetached() {
        lifecycle = DETACHED;
    }

    // ---------------------------------------------------------------- any thread

    long id() {
        return id;
    }

    long parentId() {
        return parent == null ? 0 : parent.id;
    }

    String name() {
        return name;
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
        return processed;
    }

    long failures() {
        return failures;
    }

    /**
     * What the current turn is doing, for a monitor on another thread: the message being received,
     * read racily. Only the message's class and, for an api {@link Message}, its (final) name are
     * looked at, never its {@code toString()}, which is user code and may not be thread-safe.
     */
    ActorTurn describeTurn() {
        Object message = CURRENT_MESSAGE.getOpaque(this);
        String description;
        if (message == null) {
            description = "no message (lifecycle or system work)";
        } else if (message instanceof Message named) {
            description = "Message '" + named.name() + "'";
        } else {
            description = message.getClass().getName();
        }
        return new ActorTurn(id, name, tenant, source.origin(), description);
    }

    /**
     * Queues an ordinary message. With {@code reportOverflow}, a full mailbox turns the message into a
     * dead letter (and fails an ask with {@code mailbox.full}); without, the caller learns it from the
     * result alone.
     *
     * @return whether the message was queued
     */
    boolean enqueue(Object message, ActorRef sender, boolean reportOverflow) {
        if (lifecycle == TERMINATED) {
            undeliverable(message, sender, stopReason);
            return false;
        }
        if (!mailbox.offer(new Envelope(message, sender))) {
            if (reportOverflow) {
                overflow(message, sender);
            }
            return false;
        }
        schedule();
        return true;
    }

    void sendSystem(SystemMessage message) {
        systemQueue.offer(message);
        schedule();
    }

    /**
     * If the mailbox is above its high-water mark (half the capacity), registers {@code onDrained} to
     * run once it falls below the low-water mark (a quarter) and returns {@code true}.
     */
    boolean awaitDrain(Runnable onDrained) {
        if (lifecycle == TERMINATED || mailbox.size() < highWaterMark()) {
            return false;
        }
        DrainWaiter head;
        do {
            head = drainWaiters;
        } while (!DRAIN_WAITERS.compareAndSet(this, head, new DrainWaiter(onDrained, head)));
        // The consumer may have drained the mailbox between the check and the push, and looked for
        // waiters before there was one: look again, so that no producer waits forever.
        if (mailbox.size() <= lowWaterMark() || lifecycle == TERMINATED) {
            releaseDrainWaiters();
        }
        return true;
    }

    private int highWaterMark() {
        return Math.max(1, mailbox.capacity() / 2);
    }

    private int lowWaterMark() {
        return mailbox.capacity() / 4;
    }

    private void releaseDrainWaiters() {
        DrainWaiter waiter = (DrainWaiter) DRAIN_WAITERS.getAndSet(this, null);
        for (; waiter != null; waiter = waiter.next()) {
            try {
                waiter.onDrained().run();
            } catch (RuntimeException e) {
                LOG.warn("A backpressure callback for {}#{} failed", name, id, e);
            }
        }
    }

    /** Called by the timer thread when {@code timer} is due. */
    void deliverTimer(ActorTimer timer) {
        if (lifecycle == TERMINATED) {
            return;
        }
        if (!mailbox.offer(new Envelope(timer, null))) {
            system.deadLetters().publish(new DeadLetter(self, timer.message(), null, "mailbox full", null));
            return;
        }
        schedule();
    }

    private void schedule() {
        if (runState == IDLE && RUN_STATE.compareAndSet(this, IDLE, SCHEDULED)) {
            system.dispatcher().execute(this);
        }
    }

    private void overflow(Object message, ActorRef sender) {
        if (sender instanceof AskRef ask) {
            ask.fail(new Failure(ErrorCode.MAILBOX_FULL, "mailbox of " + name + " is full"));
        }
        system.deadLetters().publish(new DeadLetter(self, message, sender, "mailbox full", null));
    }

    private void undeliverable(Object message, ActorRef sender, StopReason reason) {
        if (message instanceof ActorTimer) {
            return;
        }
        StopReason why = reason == null ? StopReason.NORMAL : reason;
        if (sender instanceof AskRef ask) {
            ask.fail(new Failure(why.code(), name + " " + why.text()));
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
            if (drainWaiters != null && (mailbox.size() <= lowWaterMark() || lifecycle == TERMINATED)) {
                releaseDrainWaiters();
            }
            runState = IDLE;
            if (hasWork()) {
                schedule();
            }
        }
    }

    private boolean hasWork() {
        if (!systemQueue.isEmpty()) {
            return true;
        }
        int phase = lifecycle;
        return (phase == RUNNING || phase == TERMINATED) && !mailbox.isEmpty();
    }

    private void processMailbox() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(actor.getClass().getClassLoader());
        int count = 0;
        try {
            int limit = system.throughput();
            while (count < limit) {
                if (!systemQueue.isEmpty()) {
                    processSystemMessages();
                    if (lifecycle != RUNNING) {
                        break;
                    }
                }
                Envelope envelope = mailbox.poll();
                if (envelope == null) {
                    break;
                }
                count++;
                invoke(envelope);
                if (lifecycle != RUNNING) {
                    break;
                }
            }
        } finally {
            processed += count;
            thread.setContextClassLoader(previous);
        }
    }

    private void invoke(Envelope envelope) {
        Object message = envelope.message();
        if (message instanceof ActorTimer timer) {
            message = timers == null ? null : timers.accept(timer);
        } else if (message instanceof ChildNotice notice) {
            message = notice.incarnation() == incarnation ? notice.stopped() : null;
            // the child's ChildTerminated was queued before this notice: apply it first, so that
            // children() no longer lists the child while the actor handles the notice
            processSystemMessages();
        }
        if (message == null) {
            mailbox.releaseLast();
            return;
        }
        current = envelope;
        CURRENT_MESSAGE.setOpaque(this, message);
        try {
            actor.receive(this, message);
        } catch (Throwable cause) {
            receiveFailed(cause, message, envelope.sender());
        } finally {
            current = null;
            CURRENT_MESSAGE.setOpaque(this, null);
            mailbox.releaseLast();
        }
    }

    private void receiveFailed(Throwable cause, Object message, ActorRef sender) {
        if (sender instanceof AskRef ask) {
            ask.fail(new Failure(ErrorCode.HANDLER_FAILED, name + " failed: " + cause));
        }
        system.deadLetters().publish(new DeadLetter(self, message, sender, "receive failed", cause));
        fail(cause, message);
    }

    /** Suspends this actor and asks the parent what to do. */
    private void fail(Throwable cause, Object message) {
        failures++;
        LOG.warn("Actor {}#{} failed{}", name, id, message == null ? " to start" : "", cause);
        lifecycle = SUSPENDED;
        if (parent == null) {
            initiateStop(new StopReason("failed", ErrorCode.HANDLER_FAILED, cause));
        } else {
            parent.sendSystem(new SystemMessage.Failed(this, cause, message));
        }
    }

    private void drainMailbox() {
        Envelope envelope;
        while ((envelope = mailbox.poll()) != null) {
            undeliverable(envelope.message(), envelope.sender(), stopReason);
            mailbox.releaseLast();
        }
    }

    // ---------------------------------------------------------------- system messages

    private void processSystemMessages() {
        SystemMessage message;
        while ((message = systemQueue.poll()) != null) {
            if (lifecycle == TERMINATED) {
                if (message instanceof SystemMessage.Adopt adopt) {
                    adopt.child().sendSystem(new SystemMessage.Stop(StopReason.SHUTDOWN));
                }
                continue;
            }
            process(message);
        }
    }

    private void process(SystemMessage message) {
        if (message instanceof SystemMessage.Create) {
            create();
        } else if (message instanceof SystemMessage.Stop stop) {
            initiateStop(stop.reason());
        } else if (message instanceof SystemMessage.Failed failed) {
            supervise(failed);
        } else if (message instanceof SystemMessage.ChildTerminated terminated) {
            childTerminated(terminated);
        } else if (message instanceof SystemMessage.Restart restart) {
            initiateRestart(restart);
        } else if (message instanceof SystemMessage.Resume) {
            resume();
        } else if (message instanceof SystemMessage.Adopt adopt) {
            adopt(adopt.child());
        } else if (message instanceof SystemMessage.Detach detach) {
            detach(detach.barrier());
        } else if (message instanceof SystemMessage.Prepare prepare) {
            prepare(prepare.source(), prepare.barrier());
        } else if (message instanceof SystemMessage.Commit) {
            commit();
        } else if (message instanceof SystemMessage.Abort) {
            abort();
        }
    }

    // ---------------------------------------------------------------- hot swap (own turn)

    private void detach(SwapBarrier barrier) {
        try {
            if (lifecycle >= STOPPING || lifecycle == DETACHED) {
                return;
            }
            Object state = null;
            Actor old = actor;
            if (old != null) {
                Thread thread = Thread.currentThread();
                ClassLoader previous = thread.getContextClassLoader();
                thread.setContextClassLoader(old.getClass().getClassLoader());
                try {
                    state = PortableState.require(old.exportState(this), old.getClass().getClassLoader());
                } catch (Throwable t) {
                    LOG.error("Actor {}#{} could not export its state for the swap of {}; it continues without it",
                            name, id, source.origin(), t);
                } finally {
                    thread.setContextClassLoader(previous);
                }
            }
            actor = null;
            swapState = state;
            prepared = false;
            lifecycle = DETACHED;
        } finally {
            barrier.arrive();
        }
    }

    private void prepare(FactorySource next, SwapBarrier barrier) {
        if (lifecycle != DETACHED) {
            barrier.arrive();
            return;
        }
        source = next;
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try {
            ActorFactory factory = next.factory();
            thread.setContextClassLoader(factory.getClass().getClassLoader());
            Actor created = factory.create();
            if (created == null) {
                throw new IllegalStateException("factory " + next.origin() + " returned no actor");
            }
            actor = created;
            created.preStart(this);
            if (swapState != null) {
                created.importState(this, swapState);
            }
            prepared = true;
            barrier.arrive();
        } catch (Throwable t) {
            actor = null;
            prepared = false;
            barrier.fail(name + "#" + id + ": " + t);
            LOG.error("Actor {}#{} could not take over with {}", name, id, next.origin(), t);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void commit() {
        if (lifecycle == DETACHED && prepared) {
            prepared = false;
            swapState = null;
            lifecycle = RUNNING;
        }
    }

    private void abort() {
        if (lifecycle == DETACHED) {
            actor = null;
            prepared = false;
        }
    }

    private void create() {
        if (lifecycle != NEW) {
            return;
        }
        if (instantiate()) {
            lifecycle = RUNNING;
        }
    }

    /** Creates a fresh instance and runs its {@code preStart}; reports a failure to the parent. */
    private boolean instantiate() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try {
            ActorFactory factory = source.factory();
            thread.setContextClassLoader(factory.getClass().getClassLoader());
            Actor created = factory.create();
            if (created == null) {
                throw new IllegalStateException("factory " + source.origin() + " returned no actor");
            }
            actor = created;
            created.preStart(this);
            return true;
        } catch (Throwable cause) {
            fail(cause, null);
            return false;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void resume() {
        if (lifecycle != SUSPENDED) {
            return;
        }
        if (actor == null) {
            initiateRestart(new SystemMessage.Restart(null, null));
            return;
        }
        lifecycle = RUNNING;
        if (children != null) {
            children.values().forEach(child -> child.sendSystem(SystemMessage.Resume.INSTANCE));
        }
    }

    private void initiateRestart(SystemMessage.Restart restart) {
        if (lifecycle != SUSPENDED) {
            return;
        }
        cancelTimers();
        pendingRestart = restart;
        if (stopChildren(new StopReason("parent restarting", ErrorCode.ACTOR_STOPPED, null))) {
            afterChildren = AfterChildren.RESTART;
        } else {
            finishRestart();
        }
    }

    private void finishRestart() {
        SystemMessage.Restart restart = pendingRestart;
        pendingRestart = null;
        afterChildren = AfterChildren.NOTHING;
        Actor old = actor;
        actor = null;
        incarnation++;
        if (old != null) {
            try {
                old.preRestart(this, restart.cause(), restart.message());
            } catch (Throwable t) {
                LOG.warn("preRestart of {}#{} failed; restarting anyway", name, id, t);
            }
        }
        if (instantiate()) {
            lifecycle = RUNNING;
        }
    }

    private void initiateStop(StopReason reason) {
        if (lifecycle >= STOPPING) {
            return;
        }
        lifecycle = STOPPING;
        stopReason = reason;
        cancelTimers();
        if (stopChildren(reason)) {
            afterChildren = AfterChildren.STOP;
        } else {
            finishStop();
        }
    }

    /** Tells every child to stop; returns whether there were any to wait for. */
    private boolean stopChildren(StopReason reason) {
        if (children == null || children.isEmpty()) {
            return false;
        }
        for (ActorCell child : children.values()) {
            child.sendSystem(new SystemMessage.Stop(reason));
        }
        return true;
    }

    private void finishStop() {
        afterChildren = AfterChildren.NOTHING;
        Actor last = actor;
        actor = null;
        timers = null;
        if (last != null) {
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(last.getClass().getClassLoader());
            try {
                last.postStop(this);
            } catch (Throwable t) {
                LOG.warn("postStop of {}#{} failed", name, id, t);
            } finally {
                thread.setContextClassLoader(previous);
            }
        }
        lifecycle = TERMINATED;
        system.terminated(this);
        source.detach(self);
        drainMailbox();
        if (parent != null) {
            parent.sendSystem(new SystemMessage.ChildTerminated(this, stopReason));
            parent.notifyChildStopped(this, stopReason);
        }
    }

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
        schedule();
    }

    private void supervise(SystemMessage.Failed failed) {
        ActorCell child = failed.child();
        if (children == null || children.get(child.id) != child) {
            return;
        }
        SupervisorStrategy strategy = strategy();
        Directive directive = strategy.decide(failed.cause());
        if (directive == Directive.RESTART
                && !child.restarts.tryRecord(system.nanoTime(), strategy.maxRestarts(), strategy.window().toNanos())) {
            LOG.warn("Actor {}#{} exceeded {} restarts within {}; escalating", child.name, child.id,
                    strategy.maxRestarts(), strategy.window());
            directive = Directive.ESCALATE;
        }
        if (directive == Directive.ESCALATE && parent == null) {
            directive = Directive.STOP;
        }
        switch (directive) {
            case RESUME -> child.sendSystem(SystemMessage.Resume.INSTANCE);
            case RESTART -> child.sendSystem(new SystemMessage.Restart(failed.cause(), failed.message()));
            case STOP -> child.sendSystem(new SystemMessage.Stop(
                    new StopReason("failed: " + failed.cause(), ErrorCode.HANDLER_FAILED, failed.cause())));
            case ESCALATE -> fail(failed.cause(), null);
        }
        deliver(new ChildFailed(child.self, failed.cause(), directive), child.self);
    }

    private SupervisorStrategy strategy() {
        if (actor == null) {
            return SupervisorStrategy.defaultStrategy();
        }
        try {
            SupervisorStrategy strategy = actor.supervisorStrategy();
            return strategy == null ? SupervisorStrategy.defaultStrategy() : strategy;
        } catch (Throwable t) {
            LOG.warn("supervisorStrategy() of {}#{} failed; using the default", name, id, t);
            return SupervisorStrategy.defaultStrategy();
        }
    }

    private void childTerminated(SystemMessage.ChildTerminated terminated) {
        ActorCell child = terminated.child();
        if (children == null || children.remove(child.id) == null) {
            return;
        }
        if (children.isEmpty()) {
            if (afterChildren == AfterChildren.STOP) {
                finishStop();
            } else if (afterChildren == AfterChildren.RESTART) {
                finishRestart();
            }
        }
    }

    private void adopt(ActorCell child) {
        if (lifecycle >= STOPPING) {
            child.sendSystem(new SystemMessage.Stop(StopReason.SHUTDOWN));
            return;
        }
        childMap().put(child.id, child);
    }

    /** Hands a runtime notification to {@code receive}, if the actor is running. */
    private void deliver(Object notification, ActorRef sender) {
        if (lifecycle != RUNNING || actor == null) {
            return;
        }
        Envelope envelope = new Envelope(notification, sender);
        current = envelope;
        CURRENT_MESSAGE.setOpaque(this, notification);
        try {
            actor.receive(this, notification);
        } catch (Throwable cause) {
            receiveFailed(cause, notification, sender);
        } finally {
            current = null;
            CURRENT_MESSAGE.setOpaque(this, null);
        }
    }

    private void cancelTimers() {
        if (timers != null) {
            timers.cancelAll();
        }
    }

    private Map<Long, ActorCell> childMap() {
        if (children == null) {
            children = new LinkedHashMap<>();
        }
        return children;
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
        target.tell(currentMessage, envelope.sender());
    }

    @Override
    public String tenant() {
        return tenant;
    }

    @Override
    public ActorRef spawn(ActorFactory factory, ActorOptions options) {
        return spawnChild(FactorySource.of(factory, name + "/" + factory.getClass().getSimpleName()), options);
    }

    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        return spawnChild(system.resolveFactory(factoryName), options);
    }

    private ActorRef spawnChild(FactorySource childSource, ActorOptions options) {
        ActorCell child = system.newCell(this, childSource, options, tenant);
        child.parentIncarnation = incarnation;
        childMap().put(child.id, child);
        if (lifecycle >= STOPPING) {
            child.sendSystem(new SystemMessage.Stop(stopReason));
        }
        system.start(child);
        return child.self;
    }

    @Override
    public Collection<ActorRef> children() {
        if (children == null || children.isEmpty()) {
            return List.of();
        }
        List<ActorRef> refs = new ArrayList<>(children.size());
        children.values().forEach(child -> refs.add(child.self));
        return refs;
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
    public String toString() {
        return "ActorCell[" + name + "#" + id + "]";
    }
}
