package io.troupe.api;

/**
 * An actor written as a {@link Receive} behaviour, which knows its own reference outside its turns.
 *
 * <pre>
 * public final class Counter extends AbstractActor {
 *     private long total;
 *
 *     &#64;Override
 *     protected Receive createReceive() {
 *         return Receive.match(Long.class, (ctx, n) -&gt; total += n)
 *                 .matchEquals("get", (ctx, get) -&gt; ctx.reply(total))
 *                 .build();
 *     }
 *
 *     void onTick() {                      // e.g. from a callback on another thread
 *         self().tell("get");              // self() works outside a turn
 *     }
 * }
 * </pre>
 *
 * {@link #createReceive()} is called once per instance, before its first message; a restart creates
 * a fresh instance, and with it a fresh behaviour. {@link ActorContext#become} switches to another
 * behaviour and {@link ActorContext#unbecome} back to this one.
 *
 * <p><b>Threading:</b> as {@link Actor}: the runtime calls it one turn at a time. {@link #self()} may
 * be read from any thread once the runtime has {@linkplain #bind bound} the instance, before its
 * {@code preStart}.
 *
 * @since 1.4
 */
public abstract class AbstractActor implements Actor {

    private volatile ActorRef self;
    private Receive behaviour;

    /** This actor's behaviour; called once per instance, on its turn, before the first message. */
    protected abstract Receive createReceive();

    /** Keeps the reference for {@link #self()}. Subclasses that override it must call it. */
    @Override
    public void bind(ActorRef self) {
        this.self = self;
    }

    /**
     * This actor's reference, valid forever and usable from any thread.
     *
     * @throws IllegalStateException before the runtime bound the instance (in its constructor)
     */
    protected final ActorRef self() {
        ActorRef ref = self;
        if (ref == null) {
            throw new IllegalStateException(getClass().getName() + " is not bound to an actor yet: self() is"
                    + " available from preStart on, not in the constructor");
        }
        return ref;
    }

    @Override
    public final void receive(ActorContext ctx, Object message) throws Exception {
        Receive current = behaviour;
        if (current == null) {
            current = createReceive();
            if (current == null) {
                throw new IllegalStateException(getClass().getName() + ".createReceive() returned null");
            }
            behaviour = current;
        }
        current.onMessage(ctx, message);
    }
}
