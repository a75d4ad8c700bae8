package io.troupe.host.actor;

import io.troupe.api.ActorRef;

/**
 * One actor taken out of service by a hot swap, as the swap needs it to pick the actor's code in the
 * next revision.
 *
 * @param ref        the actor; its id, name, place in the tree and mailbox stay as they are
 * @param source     where its code came from before the swap (a plugin's handler or named factory,
 *                   or a factory object given to {@code spawn})
 * @param tenant     the tenant it serves, empty for system actors
 * @param actorClass the binary name of its instance's class, or {@code null} when it had no instance
 *                   (it never started)
 * @param lambda     whether that class is a lambda or another hidden class, which no revision can
 *                   load by name
 * @param fresh      whether the actor never started: the next revision starts it with
 *                   {@code preStart} instead of handing it a state
 */
public record DetachedActor(ActorRef ref, FactorySource source, String tenant, String actorClass, boolean lambda,
                            boolean fresh) {
}
