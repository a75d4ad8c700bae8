package io.troupe.api;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The actor runtime, registered by the host bundle as an OSGi service. First-party bundles (server,
 * shell) and tools use it to reach handlers, spawn top-level actors and observe the runtime.
 *
 * <pre>
 * ActorRef greeter = runtime.spawn(() -&gt; (ctx, msg) -&gt; ctx.reply("hello " + msg),
 *         ActorOptions.defaults().withName("greeter"));
 * String answer = (String) greeter.ask("ada", Duration.ofSeconds(1)).toCompletableFuture().join();
 * runtime.lookup("", "greeter").ifPresent(ref -&gt; ref.tell("grace"));
 * </pre>
 *
 * <p><b>Threading:</b> every method may be called from any thread.
 */
@ProviderType
public interface TroupeRuntime {

    /** The tenant used when none is given (by the shell, for example). */
    String DEFAULT_TENANT = "default";

    /**
     * The handler actor serving {@code messageName} for {@code tenant}, created on first use.
     * Empty when no bundle currently provides a handler for that name, or none the tenant may use (the
     * plugin is limited to other tenants, or the tenant's {@link TenantPolicy#handlers()} leave it out).
     *
     * @throws TroupeException with code {@link ErrorCode#TENANT_LIMIT_ACTORS} when the handler actor
     *                         would be created and the tenant is at its actor limit
     */
    Optional<ActorRef> handler(String tenant, String messageName);

    /**
     * Routes {@code message} to its handler in {@code tenant} and returns the reply, as
     * {@link ActorRef#ask} does. Fails with {@link TroupeException} code {@link ErrorCode#NO_HANDLER}
     * when no handler serves the name.
     */
    CompletionStage<Object> ask(String tenant, Message message, Duration timeout);

    /**
     * Backpressure for producers that must never block, such as event loops feeding handlers. If
     * {@code target}'s mailbox is above its high-water mark (half its capacity), arranges for
     * {@code onDrained} to run once when it falls below its low-water mark (a quarter), and returns
     * {@code true}: the producer should pause until then. Otherwise returns {@code false} at once.
     * {@code onDrained} runs on a runtime thread and must be quick (hand the work to your own thread).
     */
    boolean awaitDrain(ActorRef target, Runnable onDrained);

    /** Spawns a top-level actor. */
    ActorRef spawn(ActorFactory factory, ActorOptions options);

    /**
     * Spawns a top-level actor from a factory registered under {@code factoryName}.
     *
     * @throws TroupeException with code {@link ErrorCode#NO_FACTORY} when none is registered
     */
    ActorRef spawn(String factoryName, ActorOptions options);

    /** Stops an actor (children first). */
    void stop(ActorRef actor);

    /** The actor with this id, if it is alive. */
    Optional<ActorRef> lookup(long id);

    /**
     * The live actor of {@code tenant} at {@code path}: names separated by {@code /}, from a
     * top-level actor down through its children, e.g. {@code "orders"} or {@code "orders/audit"}.
     * Names are those given with {@link ActorOptions#withName} (or derived, see {@link ActorRef#name}).
     * Where siblings share a name, the oldest live one is found. Actors of other tenants are never
     * found; {@code ""} is the tenant of actors spawned without one (since 1.4).
     */
    Optional<ActorRef> lookup(String tenant, String path);

    /**
     * Completes once the runtime has stopped: every actor has stopped and its threads are ending. For
     * the embedded runtime, when it is closed; in the server, when the host bundle stops (since 1.4).
     */
    CompletionStage<Void> whenTerminated();

    /** Message names served by handlers right now. */
    Set<String> handlerNames();

    /** Factory names registered right now. */
    Set<String> factoryNames();

    /** A snapshot of every live actor, parents before their children. */
    List<ActorInfo> actors();

    /** Dead letters so far. */
    long deadLetterCount();

    /**
     * Calls {@code listener} for each dead letter from now on, on the thread that produced it (it
     * must be quick and must not throw). Close the returned handle to unsubscribe.
     */
    AutoCloseable subscribeDeadLetters(Consumer<DeadLetter> listener);

    /**
     * Applies {@code policy} to {@code tenant}'s actors from now on (since 1.3): its weight to the
     * next turns the workers hand out, its actor limit to the next spawn, its queue limit to the next
     * {@link #awaitTenantDrain}, its handler names to the next {@link #handler} lookup. Actors already
     * running are kept, even above a lowered limit.
     */
    void configureTenant(String tenant, TenantPolicy policy);

    /** The policy {@code tenant} runs under: the last one configured, or {@link TenantPolicy#defaults()} (since 1.3). */
    TenantPolicy tenantPolicy(String tenant);

    /**
     * Stops every actor of {@code tenant} (handlers and their children) and forgets its policy, so
     * that the tenant, if it comes back, starts with fresh actors (since 1.3). Messages still queued
     * for them become dead letters and asks fail with {@link ErrorCode#ACTOR_STOPPED}.
     *
     * @return completes, on a runtime thread, with the number of actors that were stopped once every
     *         one has terminated and the store has acknowledged the last state of each durable one
     */
    CompletionStage<Integer> stopTenant(String tenant);

    /**
     * Waits until {@code tenant}'s actors have nothing left to do: no message waits in any of their
     * mailboxes and none of them is in a turn, seen on two looks a millisecond apart with no message
     * queued in between (since 1.5). Whoever stops the producers first (a cluster handing the tenant
     * over pauses its sessions) then finds every message they had sent processed. Messages an actor
     * keeps sending itself (a timer, a loop) keep it busy; stashed messages do not count, they wait for
     * the actor's own {@code unstashAll}.
     *
     * @param patience how long to wait at most
     * @return completes with {@code true} once the tenant is idle (at once when it has no actor), or
     *         {@code false} when {@code patience} ran out first; on a runtime thread
     */
    CompletionStage<Boolean> awaitTenantIdle(String tenant, Duration patience);

    /**
     * Stops every actor of {@code tenant} as {@link #stopTenant} does, for another node that takes the
     * tenant over (since 1.5): besides each durable actor's last state, the state of every other actor
     * with a stable path (a handler actor, or a child named with {@link ActorOptions#withName} under one)
     * is what its {@link Actor#exportState} returns, checked and encoded as a durable state is, and
     * kept in the {@link io.troupe.api.state.StateStore} under
     * {@link io.troupe.api.state.StateKey#movedActors}. An actor of the tenant started later with a
     * stable path, on whichever node, receives its entry through {@link Actor#importState} after
     * {@code preStart}, once; entries not taken yet travel on with the tenant's next move. Without a
     * store, or for an actor whose state cannot be exported, the actor starts afresh (logged).
     *
     * @return completes, on a runtime thread, with the number of actors stopped once every one has
     *         terminated and the store has acknowledged every state written
     */
    CompletionStage<Integer> handOverTenant(String tenant);

    /**
     * Backpressure by tenant, for producers that must never block (the server's event loops): if
     * {@code tenant}'s queued messages have reached its {@link TenantPolicy#maxQueuedMessages()},
     * arranges for {@code onDrained} to run once they fall to three quarters of it, and returns
     * {@code true}: the producer should pause until then. Otherwise, or without a limit, returns
     * {@code false} at once (since 1.3). {@code onDrained} runs on a runtime thread and must be quick.
     */
    boolean awaitTenantDrain(String tenant, Runnable onDrained);
}
