package io.troupe.host.plugin;

import io.troupe.api.ActorRef;

/**
 * One actor of an {@link ActorPool}, with the monitor's verdict on its current turn.
 *
 * <p><b>Threading:</b> {@link #stalled} is written by the monitor thread and read by senders; a stale
 * read only routes one message less well.
 */
final class PoolMember {

    private final ActorRef ref;
    private volatile boolean stalled;

    PoolMember(ActorRef ref) {
        this.ref = ref;
    }

    ActorRef ref() {
        return ref;
    }

    boolean isStalled() {
        return stalled;
    }

    void stalled(boolean value) {
        if (stalled != value) {
            stalled = value;
        }
    }

    @Override
    public String toString() {
        return ref + (stalled ? " (stalled)" : "");
    }
}
