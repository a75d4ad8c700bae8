package io.troupe.host.actor;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One actor system's episodes of a state store that fails it: turns whose state could not be made durable,
 * states that could not be read at a (re)start. A store refusing writes (a full disk) fails every durable
 * turn of every actor, each restart of those actors and each new instance a pool makes to replace them: the
 * first failure of an episode is logged with its cause, the later ones only counted, and the first durable
 * turn after them ends the episode with one line saying how long it lasted and what it cost. Each refused ask
 * still gets its precise {@code state.unavailable} error; the store logs its own episode too.
 *
 * <p><b>Threading:</b> any thread (turns, the store's completion thread); lock-free.
 */
final class StoreTrouble {

    private static final Logger LOG = LoggerFactory.getLogger(StoreTrouble.class);

    /**
     * A failure already told by this episode: the actor's failure that follows it (its restart, its
     * supervisor's decision) is not logged again.
     */
    static final class Told extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Told(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final AtomicBoolean ongoing = new AtomicBoolean();
    private final AtomicLong refusedTurns = new AtomicLong();
    private final AtomicLong failedReads = new AtomicLong();
    private volatile long since;

    /** A turn of {@code actor} whose state the store did not take; {@code withdrawn} of its messages are withdrawn. */
    void refused(String actor, int withdrawn, Throwable cause) {
        refusedTurns.incrementAndGet();
        if (begin()) {
            LOG.error("Actor {}: state not durable, {} message(s) of its turn withdrawn; the actor restarts from"
                    + " its last durable state. Later failures of the state store are counted, not logged, until a"
                    + " durable turn ends them, which is logged", actor, withdrawn, cause);
        }
    }

    /**
     * The state of {@code actor} could not be read at its (re)start.
     *
     * @return the failure to fail the actor with, marked as told
     */
    Told readFailed(String actor, Throwable cause) {
        failedReads.incrementAndGet();
        if (begin()) {
            LOG.error("Actor {}: its state could not be read from the store, so it cannot start. Later failures of"
                    + " the state store are counted, not logged, until a durable turn ends them, which is logged",
                    actor, cause);
        }
        return new Told(actor + ": its state could not be read from the store (" + cause + ")", cause);
    }

    /** A turn's state is durable: ends the episode, if one is going on. */
    void durable() {
        if (ongoing.get() && ongoing.compareAndSet(true, false)) {
            LOG.info("The state store takes actors' states again after failing them for {} ms: {} turn(s) refused,"
                    + " {} start(s) without their state", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since),
                    refusedTurns.getAndSet(0), failedReads.getAndSet(0));
        }
    }

    /** Whether an episode is going on. */
    boolean ongoing() {
        return ongoing.get();
    }

    private boolean begin() {
        if (ongoing.compareAndSet(false, true)) {
            since = System.nanoTime();
            return true;
        }
        return false;
    }
}
