package io.troupe.host.plugin;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.host.actor.ActorSystem;

/**
 * Where an {@link ActorPool} gets new members: the plugin service that currently serves its handler
 * (it changes when the plugin is swapped).
 *
 * <p><b>Threading:</b> any thread.
 */
public interface MemberSource {

    /** Spawns a member for {@code tenant}: attached to the service, detached while it is being swapped. */
    ActorRef spawnMember(ActorSystem system, String tenant, ActorOptions options);
}
