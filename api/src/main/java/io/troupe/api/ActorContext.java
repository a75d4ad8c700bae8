package io.troupe.api;

import java.util.Collection;

import org.osgi.annotation.versioning.ProviderType;

/**
 * What an actor can do while it handles a message.
 *
 * <p><b>Threading:</b> only valid on the actor's own turn, that is inside {@link Actor#receive},
 * {@link Actor#preStart}, {@link Actor#postStop} or {@link Actor#preRestart}, on the calling thread.
 * Do not keep it for use from other threads; send a message to {@link #self()} instead.
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
}
