package io.troupe.host.dispatch;

/**
 * Marks threads owned by the runtime (workers, event loops, the timer thread). Code that would block
 * checks for it and refuses, since a blocked runtime thread stalls every actor or connection it
 * serves.
 *
 * <p><b>Threading:</b> a marker; nothing to call.
 */
public interface RuntimeThread {

    /** Whether the calling thread belongs to the runtime. */
    static boolean isCurrent() {
        return Thread.currentThread() instanceof RuntimeThread;
    }
}
