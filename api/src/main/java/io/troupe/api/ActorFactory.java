package io.troupe.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Creates actor instances. Registered as an OSGi service with {@link Handler} it makes the plugin's
 * message handler (one actor per tenant); with {@link Factory} it can be spawned by name from any
 * bundle. The runtime also calls it again to restart a failed actor.
 *
 * <pre>
 * ActorFactory counter = () -&gt; new Actor() {
 *     private long total;                          // one instance per actor: no sharing
 *     public void receive(ActorContext ctx, Object message) {
 *         total += (Long) message;
 *         ctx.reply(total);
 *     }
 * };
 * ActorRef ref = ctx.spawn(counter);                  // or runtime.spawn(counter, ActorOptions.defaults())
 * </pre>
 *
 * <p><b>Threading:</b> may be called from any runtime thread, concurrently; each call must return a
 * new instance.
 */
@ConsumerType
@FunctionalInterface
public interface ActorFactory {

    /** Returns a new, not yet started actor. */
    Actor create();
}
