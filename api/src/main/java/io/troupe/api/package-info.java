/**
 * The Troupe actor API: everything a plugin author programs against.
 *
 * <pre>
 *   plugin bundle                         host bundle (runtime)
 *   ------------------------------        ---------------------------------------------
 *   &#64;Component &#64;Handler("echo")    ---&gt; tracks ActorFactory services (whiteboard)
 *   class EchoFactory                     creates one handler actor per tenant
 *       implements ActorFactory           (a pool of them with &#64;Poolable)
 *                                         routes Message("echo", bytes) to it
 *
 *   Actor.receive(ctx, msg)   &lt;---  Mailbox (bounded, FIFO per sender)  &lt;---  ActorRef.tell/ask
 *   ctx.reply / ctx.spawn / ctx.timers()
 * </pre>
 *
 * <h2>Threading</h2>
 * An {@link io.troupe.api.Actor} is called by one runtime worker thread at a time, one message at a
 * time; everything it does through its {@link io.troupe.api.ActorContext} must happen during that
 * call. {@link io.troupe.api.ActorRef} and {@link io.troupe.api.TroupeRuntime} may be used from any
 * thread.
 *
 * <h2>Messages across bundles</h2>
 * Messages that travel between bundles should be API types ({@link io.troupe.api.Message},
 * {@link io.troupe.api.Failure}, ...), {@code byte[]} or JDK types, so that no bundle ever needs
 * another bundle's classes and a plugin can be replaced while the server runs.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.5.0")
package io.troupe.api;
