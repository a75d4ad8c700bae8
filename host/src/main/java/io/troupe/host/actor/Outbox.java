package io.troupe.host.actor;

import java.util.ArrayList;
import java.util.List;

import io.troupe.api.ActorRef;

/**
 * What a durable actor's turn sends while its state is not yet durable: in mode
 * {@link io.troupe.api.state.Durability#everyTurn()} every message the turn tells another actor or an ask
 * (a reply to a client, above all) waits here until the snapshot taken after the turn is on disk, so
 * that nobody learns of a state a crash could lose. Messages to the actor itself, and to references that
 * are not the runtime's own (a network session's pushes), are not held.
 *
 * <p>The outbox of the turn running on a thread is found through a thread-local, looked at only once
 * some durable actor has ever run in that mode ({@link #inUse}), so that a runtime without one pays a
 * single static read per {@code tell}.
 *
 * <p><b>Threading:</b> {@link #holding} from any thread (it reads the caller's thread-local); an outbox
 * is filled on its actor's turn and drained once, by the thread that releases it, after the turn.
 */
final class Outbox {

    private static final ThreadLocal<Outbox> CURRENT = new ThreadLocal<>();
    /** Set once the first every-turn durable actor runs; never cleared. */
    private static volatile boolean inUse;

    /** One held message. */
    record Held(ActorRef target, Object message, ActorRef sender) {
    }

    private final ActorCell owner;
    private List<Held> held = new ArrayList<>();

    Outbox(ActorCell owner) {
        this.owner = owner;
    }

    /** Makes this the outbox of the calling thread's turn. */
    void open() {
        inUse = true;
        CURRENT.set(this);
    }

    /** The turn is over: the thread holds nothing any more. */
    static void close() {
        CURRENT.remove();
    }

    /**
     * Holds {@code message} for {@code target} if the calling thread runs a durable turn (and the target
     * is not the turn's own actor).
     *
     * @return whether the message was held: the caller must not deliver it now
     */
    static boolean holding(ActorRef target, Object message, ActorRef sender, ActorCell targetCell) {
        if (!inUse) {
            return false;
        }
        Outbox outbox = CURRENT.get();
        if (outbox == null || outbox.owner == targetCell) {
            return false;
        }
        outbox.held.add(new Held(target, message, sender));
        return true;
    }

    /** Takes what the turn held so far, leaving the outbox empty for the next turn. */
    List<Held> drain() {
        if (held.isEmpty()) {
            return List.of();
        }
        List<Held> taken = held;
        held = new ArrayList<>();
        return taken;
    }
}
