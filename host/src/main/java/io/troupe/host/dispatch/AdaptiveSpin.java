package io.troupe.host.dispatch;

/**
 * Whether a worker out of work should spin (poll for its spin time before parking) or park at once.
 * A spin pays when the next task usually comes within the spin time, as under load: the sender then
 * needs no unpark and the task no wake-up. It only burns a core when tasks are further apart, as on a
 * quiet server, where a request every few milliseconds would cost a whole spin of CPU each.
 *
 * <p>The score counts the recent spins: one that found a task adds {@value #HIT}, one that found none
 * takes one away, between 0 and {@value #MAX_SCORE}. A worker spins while the score is positive, that is
 * while at least about one spin in {@value #HIT} + 1 finds work; at 0 it parks at once, except on every
 * {@value #PROBE_EVERY}th wait, a probe, which notices the load coming back. A fresh worker starts at
 * the top, so a loaded server spins from its first task.
 *
 * <pre>
 *   hit:   score = min(MAX_SCORE, score + HIT)
 *   miss:  score = max(0, score − 1)
 *   spin?  score > 0, or every PROBE_EVERY-th wait while score = 0
 * </pre>
 *
 * <p><b>Threading:</b> confined to its worker's thread; no synchronisation.
 */
final class AdaptiveSpin {

    static final int MAX_SCORE = 16;
    static final int HIT = 4;
    static final int PROBE_EVERY = 16;

    private int score = MAX_SCORE;
    private int waitsWithoutSpin;

    /** Whether this wait should begin with a spin. */
    boolean shouldSpin() {
        if (score > 0) {
            return true;
        }
        if (++waitsWithoutSpin >= PROBE_EVERY) {
            waitsWithoutSpin = 0;
            return true;
        }
        return false;
    }

    /** Records how a spin ended: with a task ({@code found}) or with none. */
    void spun(boolean found) {
        score = found ? Math.min(MAX_SCORE, score + HIT) : Math.max(0, score - 1);
    }

    /** The current score; for tests. */
    int score() {
        return score;
    }
}
