package io.troupe.host.actor;

import io.troupe.api.ActorRef;

/**
 * A watched actor has stopped: queued to the watcher, which turns it into
 * {@link io.troupe.api.Terminated} if it still watches {@code target} when it takes the notice, and
 * drops it otherwise (it unwatched meanwhile).
 *
 * <p><b>Threading:</b> immutable.
 */
record WatchNotice(ActorRef target) {
}
