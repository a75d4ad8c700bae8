package io.troupe.host.timer;

/**
 * A scheduled action: runs once at its deadline unless cancelled first.
 *
 * <p><b>Threading:</b> {@link #cancel} from any thread; the owning {@link TimerQueue}'s thread reads
 * the deadline and runs the action.
 */
public final class Timeout {

    final long deadline;
    final long sequence;
    /** Cleared on cancel, so that a cancelled timeout waiting in the queue pins nothing. */
    private Runnable action;
    private volatile boolean cancelled;
    private final Runnable onCancel;

    Timeout(long deadline, long sequence, Runnable action, Runnable onCancel) {
        this.deadline = deadline;
        this.sequence = sequence;
        this.action = action;
        this.onCancel = onCancel;
    }

    /** Prevents the action from running, if it has not run yet. Idempotent. */
    public void cancel() {
        if (!cancelled) {
            action = null;
            cancelled = true;
            onCancel.run();
        }
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /** The deadline on the scheduler's {@link Scheduler#nanoTime()} clock. */
    public long deadline() {
        return deadline;
    }

    void run() {
        Runnable current = action;
        if (!cancelled && current != null) {
            current.run();
        }
    }
}
