package io.troupe.host.plugin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.BlockingSend;
import io.troupe.host.actor.StopReason;

/**
 * One tenant's pool of actors for a poolable handler, and the {@link ActorRef} that senders use for
 * it: each message goes to one member.
 *
 * <h2>Routing</h2>
 * A sender reads the member array (one volatile read, republished on every change) and picks the
 * member with the least load, where load is the member's mailbox depth plus one while it is inside
 * {@code receive}; members the monitor reported as stalled are skipped unless every member is
 * stalled. The scan stops at the first idle member. No lock, no allocation: a routed {@code tell}
 * costs what a {@code tell} costs, plus a few volatile reads per member. Members run in parallel, so
 * a pool does not keep the order of one sender's messages. The one exception to "no lock": when every
 * member has stopped for good (supervision gave up on all of them), the sender replaces them under
 * the change monitor, as the plugin directory respawns a stopped handler actor; that monitor is only
 * ever held for a few non-blocking spawns.
 *
 * <h2>Growing and shrinking</h2>
 * The monitor calls {@link #grow} and {@link #shrink}. A shrink takes the member out of routing
 * first; the member stays alive and processes everything already queued, and {@link #reapRetired}
 * stops it once its mailbox is empty and it is outside {@code receive}. A sender that read the
 * array before the shrink may still reach the member: while it runs, it serves the message; once it
 * has stopped, the runtime hands the message back to the pool ({@link ActorSystem#retire}), never to
 * dead letters.
 *
 * <h2>Failures and removal</h2>
 * Members are top-level actors: a failing member is restarted by the guardian like any handler
 * actor; one stopped for good is replaced by {@link #replaceStopped}. {@link #close} (the plugin went
 * away) keeps the members in the array: messages then reach stopped members and fail like requests
 * to any removed handler ({@code no.handler}).
 *
 * <p><b>Threading:</b> the {@link ActorRef} methods from any thread, lock-free. {@link #grow},
 * {@link #shrink}, {@link #replaceStopped}, {@link #moveTo} and {@link #close} from any thread,
 * serialised by a monitor that the send path never takes. {@link #observeStalls}, {@link #sample} and
 * {@link #reapRetired} from the monitor thread.
 */
public final class ActorPool implements ActorRef {

    private static final PoolMember[] NONE = new PoolMember[0];
    private static final StopReason RETIRED = new StopReason("retired from its pool", ErrorCode.ACTOR_STOPPED, null);

    private final ActorSystem system;
    private final long id;
    private final String name;
    private final String handler;
    private final String tenant;
    private final ActorPools registry;
    private final Object changes = new Object();
    private final ConcurrentLinkedQueue<PoolMember> retiring = new ConcurrentLinkedQueue<>();
    private volatile PoolMember[] members = NONE;
    private volatile PoolBounds bounds;
    private volatile MemberSource source;
    private volatile boolean closed;
    /** Completes once the pool is closed and every member it had then has stopped. */
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    /** Numbers member names; guarded by {@code changes}. */
    private int spawned;

    /**
     * Creates the pool with {@code min} members and registers it in {@code registry} for the monitor.
     *
     * @param source  where members come from
     * @param handler the handler name it serves
     */
    public ActorPool(ActorSystem system, ActorPools registry, MemberSource source, int min, int max, String handler,
                     String tenant) {
        this(system, registry, source, new PoolBounds(min, max), handler, tenant);
    }

    ActorPool(ActorSystem system, ActorPools registry, MemberSource source, PoolBounds bounds, String handler,
              String tenant) {
        this.system = system;
        this.registry = registry;
        this.source = source;
        this.bounds = bounds;
        this.handler = handler;
        this.tenant = tenant;
        this.id = system.reserveId();
        this.name = "handler:" + handler + "@" + tenant;
        synchronized (changes) {
            PoolMember[] initial = new PoolMember[bounds.min()];
            for (int i = 0; i < initial.length; i++) {
                try {
                    initial[i] = spawnMember();
                } catch (TroupeException e) {
                    // the tenant's actor limit: no pool at all rather than a smaller one nobody sizes
                    for (int j = 0; j < i; j++) {
                        system.stop(initial[j].ref(), StopReason.NORMAL);
                    }
                    throw e;
                }
            }
            members = initial;
        }
        registry.add(this);
    }

    // ---------------------------------------------------------------- ActorRef, any thread

    @Override
    public long id() {
        return id;
    }

    @Override
    public long parentId() {
        return 0;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void tell(Object message, ActorRef sender) {
        route().tell(message, sender);
    }

    @Override
    public boolean offer(Object message, ActorRef sender) {
        return route().offer(message, sender);
    }

    /**
     * Offers the message to the least loaded member until one accepts it, backing off between tries,
     * so that a member retiring meanwhile cannot make the message count as refused.
     */
    @Override
    public boolean send(Object message, ActorRef sender, Duration timeout) throws InterruptedException {
        // a closed pool fails the message like a request to any removed handler
        return BlockingSend.send(this, timeout, () -> closed, () -> route().tell(message, sender),
                () -> route().offer(message, sender));
    }

    @Override
    public CompletionStage<Object> ask(Object message, Duration timeout) {
        return system.ask(this, message, timeout);
    }

    @Override
    public CompletionStage<Object> ask(Object message) {
        return system.askUnbounded(this, message);
    }

    /** Whether the pool is closed: its plugin went away. */
    @Override
    public boolean isStopped() {
        return closed;
    }

    /** Completes once the pool is closed (its plugin went away) and every member has stopped. */
    @Override
    public CompletionStage<Void> whenTerminated() {
        return terminated.thenApply(done -> null);
    }

    /** The member the next message should go to; see the class comment. */
    public ActorRef route() {
        PoolMember[] current = members;
        PoolMember best = null;
        int bestLoad = Integer.MAX_VALUE;
        boolean bestStalled = true;
        for (PoolMember member : current) {
            ActorRef ref = member.ref();
            if (ref.isStopped() && !closed) {
                continue; // stopped for good after failures: replaced below or by the monitor
            }
            boolean stalled = member.isStalled();
            int load = system.mailboxDepth(ref) + (system.isReceiving(ref) ? 1 : 0);
            if (best == null || (bestStalled && !stalled) || (stalled == bestStalled && load < bestLoad)) {
                best = member;
                bestLoad = load;
                bestStalled = stalled;
                if (!stalled && load == 0) {
                    break;
                }
            }
        }
        if (best == null) {
            replaceStopped(); // every member stopped for good: the slow path, under the change monitor
            return members[0].ref();
        }
        return best.ref();
    }

    // ---------------------------------------------------------------- changes

    /**
     * Adds one member, unless the pool is at its maximum or closed.
     *
     * @return whether a member was added
     */
    public boolean grow() {
        synchronized (changes) {
            PoolMember[] current = members;
            if (closed || current.length >= bounds.max()) {
                return false;
            }
            PoolMember[] next = Arrays.copyOf(current, current.length + 1);
            try {
                next[current.length] = spawnMember();
            } catch (TroupeException e) {
                return false; // the tenant is at its actor limit: the pool stays as it is
            }
            members = next;
            return true;
        }
    }

    /**
     * Takes one member out of routing, unless the pool is at its minimum or closed: the newest among
     * those with the least load that are not stalled. It finishes its queue, then
     * {@link #reapRetired} stops it.
     *
     * @return whether a member was taken out
     */
    public boolean shrink() {
        synchronized (changes) {
            PoolMember[] current = members;
            if (closed || current.length <= bounds.min()) {
                return false;
            }
            int victim = -1;
            int victimLoad = Integer.MAX_VALUE;
            for (int i = current.length - 1; i >= 0; i--) {
                ActorRef ref = current[i].ref();
                int load = system.mailboxDepth(ref) + (system.isReceiving(ref) ? 1 : 0);
                if (!current[i].isStalled() && load < victimLoad) {
                    victim = i;
                    victimLoad = load;
                }
            }
            if (victim < 0) {
                return false;
            }
            retiring.add(current[victim]);
            members = without(current, victim);
            return true;
        }
    }

    /**
     * Stops the retired members that have finished their queue (mailbox empty, outside
     * {@code receive}); anything that reaches them afterwards comes back to this pool.
     *
     * @return how many were stopped
     */
    public int reapRetired() {
        int stopped = 0;
        for (PoolMember member : retiring) {
            ActorRef ref = member.ref();
            if (ref.isStopped()) {
                retiring.remove(member);
            } else if (!system.isReceiving(ref) && system.mailboxDepth(ref) == 0) {
                retiring.remove(member);
                system.retire(ref, this, RETIRED);
                stopped++;
            }
        }
        return stopped;
    }

    /**
     * Replaces the members that stopped for good (supervision gave up on them), unless the pool is
     * closed.
     *
     * @return how many were replaced
     */
    public int replaceStopped() {
        synchronized (changes) {
            if (closed) {
                return 0;
            }
            PoolMember[] next = members.clone();
            int replaced = 0;
            for (int i = 0; i < next.length; i++) {
                if (next[i].ref().isStopped()) {
                    try {
                        next[i] = spawnMember();
                    } catch (TroupeException e) {
                        break; // the tenant is at its actor limit (or stopped): try again on the next check
                    }
                    replaced++;
                }
            }
            if (replaced > 0) {
                members = next;
            }
            return replaced;
        }
    }

    /**
     * The plugin was swapped: new members come from {@code next}, within its bounds when it declares
     * any (the current members were taken over by the swap).
     */
    void moveTo(MemberSource next, PoolBounds nextBounds) {
        synchronized (changes) {
            source = next;
            if (nextBounds != null) {
                bounds = nextBounds;
            }
        }
    }

    /** Whether new members come from {@code candidate}. */
    boolean isFedBy(MemberSource candidate) {
        return source == candidate;
    }

    /** The plugin went away: no more members; the caller stops the existing ones. */
    public void close() {
        synchronized (changes) {
            closed = true;
        }
        registry.remove(this);
        CompletableFuture<?>[] members = Arrays.stream(this.members)
                .map(member -> member.ref().whenTerminated().toCompletableFuture())
                .toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(members).whenComplete((done, failure) -> terminated.complete(null));
    }

    // ---------------------------------------------------------------- monitor

    /** Marks the members whose current turn is in {@code stalledActorIds} as stalled, the others not. */
    public void observeStalls(Set<Long> stalledActorIds) {
        for (PoolMember member : members) {
            member.stalled(stalledActorIds.contains(member.ref().id()));
        }
    }

    /** The pool now. */
    public PoolSample sample() {
        PoolMember[] current = members;
        long backlog = 0;
        long healthyBacklog = 0;
        int busy = 0;
        int stalled = 0;
        for (PoolMember member : current) {
            int depth = system.mailboxDepth(member.ref());
            backlog += depth;
            busy += system.isReceiving(member.ref()) ? 1 : 0;
            if (member.isStalled()) {
                stalled++;
            } else {
                healthyBacklog += depth;
            }
        }
        return new PoolSample(current.length, backlog, healthyBacklog, busy, stalled, retiring.size());
    }

    public int min() {
        return bounds.min();
    }

    public int max() {
        return bounds.max();
    }

    /** The handler name the pool serves. */
    public String handler() {
        return handler;
    }

    public String tenant() {
        return tenant;
    }

    /** The members messages are routed to now. */
    public List<ActorRef> members() {
        List<ActorRef> refs = new ArrayList<>();
        for (PoolMember member : members) {
            refs.add(member.ref());
        }
        return refs;
    }

    // ---------------------------------------------------------------- internals

    /** Spawns a member; called with {@code changes} held. */
    private PoolMember spawnMember() {
        spawned++;
        ActorOptions options = ActorOptions.defaults().withName(name + "/" + spawned);
        return new PoolMember(source.spawnMember(system, tenant, options));
    }

    private static PoolMember[] without(PoolMember[] members, int index) {
        PoolMember[] next = new PoolMember[members.length - 1];
        System.arraycopy(members, 0, next, 0, index);
        System.arraycopy(members, index + 1, next, index, members.length - index - 1);
        return next;
    }

    @Override
    public boolean equals(Object other) {
        return other == this;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id);
    }

    @Override
    public String toString() {
        return "Pool[" + name + "#" + id + ", " + members.length + " of " + bounds + "]";
    }
}
