package io.troupe.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Business logic that receives messages one at a time.
 *
 * <pre>
 * public final class Greeter implements Actor {
 *     private int greeted;                              // only this actor's turns touch it
 *
 *     &#64;Override
 *     public void receive(ActorContext ctx, Object message) {
 *         if (message instanceof Message request) {
 *             greeted++;
 *             ctx.reply(("hello " + request.text() + " (#" + greeted + ")").getBytes(StandardCharsets.UTF_8));
 *         } else {
 *             ctx.reply(Failure.badRequest("greeter expects a Message"));
 *         }
 *     }
 * }
 * </pre>
 *
 * <p><b>Threading:</b> the runtime never calls an actor concurrently with itself: every method here
 * runs on some worker thread, one call at a time, and each call happens-after the previous one, so an
 * actor's fields need no synchronisation. Calls may move between worker threads. An actor must not
 * block for long inside these methods: it holds a worker for the whole call.
 *
 * <p><b>Lifecycle:</b> {@link #preStart} runs before the first message; when {@code receive} throws,
 * the parent's {@link SupervisorStrategy} decides what happens (see {@link Directive}); on restart
 * the failing instance gets {@link #preRestart} and is replaced by a fresh one from the same factory,
 * whose {@code preStart} then runs; {@link #postStop} runs once, after all children have stopped.
 *
 * <p><b>Hot swap:</b> when a plugin bundle is replaced by a new revision, every actor whose code the
 * plugin provides moves to the new revision, at any depth of the tree and however it was spawned,
 * keeping its id, name, parent, children, timers and mailbox; no message is lost, duplicated or
 * reordered (mailboxes stay bounded meanwhile: a {@code tell} to a full one is a dead letter, as
 * always). For each actor:
 * <ol>
 *   <li>the old instance receives {@link #exportState}, its last call (it receives no
 *       {@code postStop}: the actor does not stop);</li>
 *   <li>a new instance is created from the new revision: a handler actor by the handler registered
 *       under the same message name, an actor spawned by factory name by the factory registered
 *       under that name, and an actor spawned from a factory object (a lambda, a method reference,
 *       an anonymous class) from <i>its class</i>: the class of the same name in the new revision,
 *       through its no-argument constructor (of any access);</li>
 *   <li>the new instance receives {@link #importState} with what {@code exportState} returned, and
 *       <i>not</i> {@code preStart}: its children and timers already exist, so children spawned in
 *       {@code preStart} are not spawned twice. (An actor created while the swap was under way, which
 *       never started, gets {@code preStart} instead, once the swap is decided.) If the new revision
 *       is rolled back, the children {@code importState} spawned and the timers it started are
 *       undone, and it may be called again on another revision's instance.</li>
 * </ol>
 * The swap moves every actor or none. It is refused, with an error naming each actor and why, and
 * nothing changes, when an actor cannot move: {@code exportState} throws or returns a class of the
 * plugin (the check looks inside arrays, collections, maps and {@code Optional}, not inside other
 * objects: keep to JDK and API types), a timer's message is a class of the plugin, the actor's instance is a lambda (no revision
 * can load it by name: make it a named class) or its class has no no-argument constructor. When the
 * new revision cannot take an actor over (the class is gone, {@code importState} throws), the
 * previous revision is put back and every actor resumes on it with its state. Messages queued across
 * a swap reach the new instance as they were sent: exchange JDK and API types between a plugin's
 * actors, never the plugin's own classes, wherever a message may wait in a mailbox during a swap.
 */
@ConsumerType
public interface Actor {

    /**
     * Handles one message. {@code ctx.sender()} is the sender of this message for the duration of the
     * call.
     *
     * @throws Exception to report a failure to the parent's supervisor strategy; the message goes to
     *                   dead letters with this cause
     */
    void receive(ActorContext ctx, Object message) throws Exception;

    /**
     * Called once on each new instance, before {@link #preStart} or {@link #importState}, with the
     * actor's reference: valid forever, usable from any thread, so an instance may keep it for
     * callbacks that run outside its turns (since 1.4). The default keeps nothing.
     */
    default void bind(ActorRef self) {
    }

    /** Called once before the first message (and on the fresh instance after a restart). */
    default void preStart(ActorContext ctx) throws Exception {
    }

    /** Called once when the actor has stopped, after its children stopped; no message follows. */
    default void postStop(ActorContext ctx) {
    }

    /**
     * Called on the failing instance before it is replaced. Its children have already been stopped.
     *
     * @param message the message whose processing failed, or {@code null} if {@code preStart} failed
     */
    default void preRestart(ActorContext ctx, Throwable cause, Object message) {
    }

    /**
     * Hot swap, step 1: called on this instance when its plugin is being replaced by a new revision,
     * before the old revision goes away; it is this instance's last call. Return the state the new
     * instance needs, made only of JDK types ({@code String}, boxed numbers, {@code byte[]}, lists,
     * maps, sets) and API types, never of the plugin's own classes, or {@code null} for none. The
     * mailbox keeps accepting messages; they are processed by the new instance, in order. Throwing
     * refuses the swap: every actor of the plugin resumes on the old revision.
     */
    default Object exportState(ActorContext ctx) throws Exception {
        return null;
    }

    /**
     * Hot swap, step 2: called on the new instance <i>instead of</i> {@link #preStart}, with what the
     * previous revision's instance returned from {@link #exportState} (possibly written by an older or
     * newer version of the plugin: check what you receive), or {@code null} when it returned nothing.
     * The actor's children, timers and queued messages are still there. Throwing rolls the whole
     * plugin back to the previous revision, whose instances resume with their state.
     */
    default void importState(ActorContext ctx, Object state) throws Exception {
    }

    /** How this actor supervises its children; read once per child failure. */
    default SupervisorStrategy supervisorStrategy() {
        return SupervisorStrategy.defaultStrategy();
    }
}
