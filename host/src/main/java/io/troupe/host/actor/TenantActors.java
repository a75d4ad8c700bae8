package io.troupe.host.actor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ErrorCode;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeException;
import io.troupe.host.dispatch.RunGroup;

/**
 * The actors of one tenant as the runtime counts and limits them: how many live (against
 * {@code maxActors}), how many messages wait in their mailboxes (against {@code maxQueuedMessages}),
 * the producers paused until that backlog drains, and the tenant's lane in the run queue, whose
 * weight is the policy's.
 *
 * <p>Queued messages are counted as mailboxes count them: one in per message queued (a producer's
 * increment on a striped counter), out per turn for the messages the turn took. A tenant that is
 * stopped ({@link #retire}) refuses new actors; its counters end with its last actor, and a tenant of
 * the same id that comes back gets a fresh instance. One stopped for another node to take it over
 * ({@link #handOver}) has its actors leave their state in its {@link MovedActors}.
 *
 * <p><b>Threading:</b> every method from any thread; lock-free (but for the first read of the moved
 * actors' states, see {@link MovedActors}). The policy is a volatile field.
 */
final class TenantActors {

    private static final Logger LOG = LoggerFactory.getLogger(TenantActors.class);

    private final String tenant;
    private final RunGroup group;
    private final AtomicInteger live = new AtomicInteger();
    /** Last writes of durable actors that stopped, not yet acknowledged by the store. */
    private final AtomicInteger lastSaves = new AtomicInteger();
    private final LongAdder queuedIn = new LongAdder();
    private final LongAdder queuedOut = new LongAdder();
    private final ConcurrentLinkedQueue<Runnable> drainWaiters = new ConcurrentLinkedQueue<>();
    private final CompletableFuture<Integer> stopped = new CompletableFuture<>();
    private final MovedActors moved;
    /** Whether the tenant stops because another node takes it over: its actors leave their state. */
    private volatile boolean handingOver;
    private volatile TenantPolicy policy;
    private volatile boolean waiting;
    /** The actors alive when the tenant was stopped; -1 while it runs. */
    private volatile int stoppedWith = -1;

    /** @param group the tenant's lane in the run queue, or {@code null} when the dispatcher has none */
    TenantActors(String tenant, TenantPolicy policy, RunGroup group) {
        this.tenant = tenant;
        this.group = group;
        this.moved = new MovedActors(tenant);
        configure(policy);
    }

    String tenant() {
        return tenant;
    }

    RunGroup group() {
        return group;
    }

    TenantPolicy policy() {
        return policy;
    }

    /** Applies a new policy: the weight at once, the limits from the next check; releases waiters the new queue limit frees. */
    void configure(TenantPolicy next) {
        policy = next;
        if (group != null) {
            group.weight(next.weight());
        }
        releaseIfDrained();
    }

    int liveActors() {
        return live.get();
    }

    /** Messages waiting in the tenant's mailboxes now; an estimate while producers and turns run. */
    long queued() {
        return Math.max(0, queuedIn.sum() - queuedOut.sum());
    }

    /** Messages ever queued for the tenant's actors; it moves whenever one is queued. */
    long queuedEver() {
        return queuedIn.sum();
    }

    /** The states of actors that are not durable, arriving with the tenant or leaving with it. */
    MovedActors moved() {
        return moved;
    }

    /** Whether the tenant is stopping for another node to take it over ({@link #handOver}). */
    boolean handingOver() {
        return handingOver;
    }

    /** The tenant stops for another node: from now on its actors stopping leave their state. */
    void handOver() {
        handingOver = true;
    }

    /**
     * Counts a new actor.
     *
     * @throws TroupeException {@link ErrorCode#TENANT_LIMIT_ACTORS} at the policy's limit,
     *                         {@link ErrorCode#ACTOR_STOPPED} once the tenant was stopped
     */
    void admit(String what) {
        if (stoppedWith >= 0) {
            throw new TroupeException(ErrorCode.ACTOR_STOPPED, "cannot spawn " + what + ": tenant '" + tenant
                    + "' was stopped");
        }
        int max = policy.maxActors();
        int current;
        do {
            current = live.get();
            if (max > 0 && current >= max) {
                throw new TroupeException(ErrorCode.TENANT_LIMIT_ACTORS, "cannot spawn " + what + ": tenant '"
                        + tenant + "' has reached its limit of " + max + " actors");
            }
        } while (!live.compareAndSet(current, current + 1));
    }

    /** An actor of this tenant terminated (or was never started). */
    void left() {
        live.decrementAndGet();
        completeIfStopped();
    }

    /**
     * A durable actor of this tenant, stopping, wrote its state a last time: a {@link #retire} completes
     * only once {@code save} has (whichever way), so that whoever stopped the tenant finds its state
     * stored. Called on the actor's last turn, before it {@link #left}.
     */
    void lastSave(CompletionStage<?> save) {
        lastSaves.incrementAndGet();
        save.whenComplete((ignored, failure) -> {
            lastSaves.decrementAndGet();
            completeIfStopped();
        });
    }

    // Each side changes its own counter before reading the other's: whichever finishes last sees both at 0.
    private void completeIfStopped() {
        if (stoppedWith >= 0 && live.get() == 0 && lastSaves.get() == 0) {
            stopped.complete(stoppedWith);
        }
    }

    /** A message was queued for one of the tenant's actors. */
    void queuedIn() {
        queuedIn.increment();
    }

    /** A turn took {@code count} messages out of a mailbox of the tenant. */
    void queuedOut(int count) {
        if (count > 0) {
            queuedOut.add(count);
        }
    }

    /** Called at the end of each turn of the tenant's actors: releases paused producers once the backlog fell. */
    void turnEnded() {
        if (waiting) {
            releaseIfDrained();
        }
    }

    /**
     * If the tenant's backlog has reached its limit, registers {@code onDrained} to run once it falls
     * to three quarters of the limit and returns {@code true}.
     */
    boolean awaitDrain(Runnable onDrained) {
        int max = policy.maxQueuedMessages();
        if (max == 0 || queued() < max || stoppedWith >= 0) {
            return false;
        }
        drainWaiters.add(onDrained);
        waiting = true; // after the add: a releaser that sees the flag finds the waiter
        releaseIfDrained(); // the turns may have drained the backlog before the flag was up
        return true;
    }

    /**
     * Marks the tenant stopped: no new actors. The returned stage completes with the number of actors
     * it had once the last of them has terminated and the store has acknowledged the last state of each
     * durable one; paused producers are released.
     */
    CompletionStage<Integer> retire() {
        int count = live.get();
        stoppedWith = count;
        completeIfStopped();
        waiting = true;
        releaseIfDrained();
        return stopped;
    }

    private void releaseIfDrained() {
        if (!waiting) {
            return;
        }
        int max = policy.maxQueuedMessages();
        if (max != 0 && stoppedWith < 0 && queued() > max - max / 4) {
            return;
        }
        waiting = false;
        Runnable waiter;
        while ((waiter = drainWaiters.poll()) != null) {
            try {
                waiter.run();
            } catch (RuntimeException e) {
                LOG.error("A producer waiting for tenant '{}' to drain failed", tenant, e);
            }
        }
    }

    @Override
    public String toString() {
        return "TenantActors[" + tenant + ", " + live.get() + " actors, " + queued() + " queued]";
    }
}
