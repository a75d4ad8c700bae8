package io.troupe.api;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

import org.osgi.annotation.versioning.ProviderType;

/**
 * What an actor can do while it handles a message.
 *
 * <p><b>Threading:</b> only valid on the actor's own turn, that is inside {@link Actor#receive},
 * {@link Actor#preStart}, {@link Actor#postStop} or {@link Actor#preRestart}, on the calling thread.
 * Do not keep it for use from other threads; send a message to {@link #self()} instead.
 *
 * <pre>
 * public void receive(ActorContext ctx, Object message) {
 *     if (message instanceof Message request &amp;&amp; request.name().equals("order.place")) {
 *         ActorRef stock = ctx.lookup("stock").orElseThrow();
 *         ActorRef client = ctx.sender();
 *         ctx.ask(stock, request.text(), Duration.ofSeconds(2))      // never blocks the worker
 *            .thenAccept(reserved -&gt; client.tell(reserved, ctx.self())); // runs on this actor's turn
 *     } else if (message instanceof Terminated gone) {
 *         ctx.become(Receive.match(Object.class, (c, m) -&gt; c.stash()).build()); // wait for a new stock
 *     }
 * }
 * </pre>
 */
@ProviderType
public interface ActorContext {

    /** This actor's reference. */
    ActorRef self();

    /** The parent's reference; for a top-level actor, the runtime's root guardian. */
    ActorRef parent();

    /**
     * The sender of the current message. When the message had no sender, a reference whose messages
     * go to dead letters.
     */
    ActorRef sender();

    /** Sends {@code message} to the sender of the current message. */
    void reply(Object message);

    /** Sends the current message to {@code target}, keeping its original sender. */
    void forward(ActorRef target);

    /** The tenant this actor belongs to; children inherit it. Empty for system actors. */
    String tenant();

    /** Spawns a child from {@code factory}, with default options. */
    default ActorRef spawn(ActorFactory factory) {
        return spawn(factory, ActorOptions.defaults());
    }

    /** Spawns a child from {@code factory}. The child starts asynchronously; messages sent now are queued. */
    ActorRef spawn(ActorFactory factory, ActorOptions options);

    /** Spawns a child from the factory registered under {@code factoryName} by any bundle. */
    default ActorRef spawn(String factoryName) {
        return spawn(factoryName, ActorOptions.defaults());
    }

    /**
     * Spawns a child from the factory registered under {@code factoryName} by any bundle.
     *
     * @throws TroupeException with code {@link ErrorCode#NO_FACTORY} if no bundle registers that name
     */
    ActorRef spawn(String factoryName, ActorOptions options);

    /** The children that have not yet stopped. */
    Collection<ActorRef> children();

    /**
     * Stops a child: its own children stop first, then it; the parent then receives
     * {@link ChildStopped}. Ignored for actors that are not children of this one.
     */
    void stop(ActorRef child);

    /** Stops this actor after the current message. */
    void stop();

    /** This actor's timers; they are cancelled when the actor stops. */
    Timers timers();

    // ------------------------------------------------------------------ since 1.4

    /**
     * Spawns a top-level actor, supervised by the runtime's guardian rather than by this actor, in
     * this actor's tenant (so it counts against the tenant's limits and shares its fair share of the
     * workers). It lives on when this actor stops (since 1.4).
     *
     * @throws TroupeException with code {@link ErrorCode#TENANT_LIMIT_ACTORS} at the tenant's actor limit
     */
    ActorRef spawnTopLevel(ActorFactory factory, ActorOptions options);

    /**
     * Spawns a top-level actor from the factory registered under {@code factoryName}, in this actor's
     * tenant (since 1.4).
     *
     * @throws TroupeException with code {@link ErrorCode#NO_FACTORY} if no bundle registers that name
     */
    ActorRef spawnTopLevel(String factoryName, ActorOptions options);

    /**
     * The live actor of this actor's tenant at {@code path}, as {@link TroupeRuntime#lookup(String, String)}
     * finds it: {@code "orders"} for a top-level actor, {@code "orders/audit"} for one of its children
     * (since 1.4).
     */
    Optional<ActorRef> lookup(String path);

    /**
     * Asks {@code target} without blocking: the returned stage completes with the reply (or fails as
     * {@link ActorRef#ask(Object, Duration)} fails), <i>on this actor's turn</i>. Callbacks attached to
     * it (and to the stages derived from it, {@code thenApply}, {@code thenCompose}, {@code …Async}
     * included) run on this actor's turns, one at a time, never concurrently with {@code receive}, so
     * they may touch the actor's fields. If the actor stops (or restarts) before the reply arrives,
     * the callbacks never run. Never block a turn on it ({@code join}, {@code get}): it can only
     * complete on a later turn of this very actor. Across a hot swap they run on the new instance's turn but belong to
     * the old instance's code; an actor that must survive swaps should prefer
     * {@link #ask(ActorRef, Object, Duration, BiFunction)} (since 1.4).
     */
    CompletionStage<Object> ask(ActorRef target, Object message, Duration timeout);

    /**
     * Asks {@code target} without blocking and receives the outcome as an ordinary message:
     * {@code adapter} maps the reply (or the failure, with a {@code null} reply) to the message this
     * actor then receives from {@code target}; a {@code null} result sends nothing. {@code adapter}
     * runs on this actor's turn (since 1.4).
     */
    void ask(ActorRef target, Object message, Duration timeout, BiFunction<Object, Throwable, Object> adapter);

    /**
     * Watches {@code target}: this actor receives {@link Terminated} once it has stopped, exactly once,
     * also when it had already stopped. Watching twice is watching once. An actor may watch any
     * actor, not only its children (since 1.4).
     */
    void watch(ActorRef target);

    /**
     * Stops watching {@code target}: no {@link Terminated} for it is received after this returns, even
     * one already queued (since 1.4).
     */
    void unwatch(ActorRef target);

    /**
     * Puts the current message (with its sender) aside until {@link #unstashAll}. Stashed messages are
     * kept in order, count in the mailbox's backlog, and are lost only if the actor stops or restarts
     * before unstashing (then they become dead letters) (since 1.4).
     *
     * @throws IllegalStateException outside {@code receive}, or when the current message was already stashed
     */
    void stash();

    /**
     * Puts every stashed message back at the front of the mailbox, in the order they were stashed:
     * they are received before anything queued meanwhile (since 1.4).
     */
    void unstashAll();

    /**
     * From the next message on, {@code behaviour} receives this actor's messages instead of
     * {@link Actor#receive}; a restart or a hot swap returns to {@code receive} (since 1.4).
     */
    void become(Receive behaviour);

    /** From the next message on, {@link Actor#receive} receives this actor's messages again (since 1.4). */
    void unbecome();

    /**
     * Writes this {@link io.troupe.api.state.Durable} actor's state now, whatever its
     * {@link io.troupe.api.state.Durability} (the way to save in mode
     * {@link io.troupe.api.state.Durability#onRequest()}): {@link Actor#exportState} is called on this turn
     * and the stage completes, on a runtime thread, once the snapshot is durable (since 1.4).
     *
     * @return fails with {@link IllegalStateException} for an actor that is not durable or a runtime
     *         without a state store, and with the store's or the encoding's error otherwise
     */
    CompletionStage<Void> saveState();

    /**
     * Reports {@code message} as not handled: it becomes a dead letter with reason {@code unhandled},
     * counted like any other, and an ask waiting for it fails with {@link ErrorCode#BAD_REQUEST}.
     * The runtime's own notices ({@link ChildStopped}, {@link ChildFailed}, {@link Terminated}) are
     * simply dropped: an actor need not handle them (since 1.4).
     */
    void unhandled(Object message);
}
