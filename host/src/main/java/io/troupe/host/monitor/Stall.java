package io.troupe.host.monitor;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.troupe.host.actor.ActorTurn;

/**
 * A stalled thread, as the monitor reported it: an actor turn running too long on a worker, or an
 * IO loop that has not returned to its select.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param kind         which kind of thread stalled
 * @param thread       the thread's name
 * @param sinceNanos   when the stalled work began ({@link System#nanoTime()}): for a turn, the first
 *                     monitor look that saw it (the turn began at most one period earlier); for a
 *                     loop, when it left its select; 0 for {@link Kind#LOOP_ENDED}
 * @param elapsedNanos how long it had run when the monitor noticed (for a turn: at least this long)
 * @param turn         the actor turn a worker runs; {@code null} for loops and non-actor tasks
 * @param task         for a worker, the class of its task; for a loop, its name
 * @param stack        the thread's stack when the monitor noticed; empty for {@link Kind#LOOP_ENDED}
 */
public record Stall(Kind kind, String thread, long sinceNanos, long elapsedNanos, ActorTurn turn, String task,
                    List<StackTraceElement> stack) {

    /** Kinds of stalls. */
    public enum Kind {
        /** An actor turn (or other worker task) running longer than the stall threshold. */
        TURN,
        /** An IO loop away from its select longer than the loop stall threshold. */
        LOOP,
        /**
         * An IO loop that was away from its select longer than the threshold and was back before the
         * monitor looked: reported after the fact, without a stack and without a recovery.
         */
        LOOP_ENDED
    }

    /** Frames written to the log; deeper stacks are cut. */
    static final int MAX_FRAMES = 40;

    public Stall {
        stack = List.copyOf(stack);
    }

    /** Milliseconds the stalled work had run when noticed. */
    public long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(elapsedNanos);
    }

    /** The log text: one headline, then the stack as {@code \tat frame} lines. */
    public String describe() {
        StringBuilder text = new StringBuilder(256);
        if (kind == Kind.TURN) {
            text.append("Worker ").append(thread).append(" has been running ")
                    .append(turn != null ? "actor " + turn : "task " + task)
                    .append(" for at least ").append(elapsedMillis()).append(" ms");
        } else if (kind == Kind.LOOP) {
            text.append("IO loop ").append(thread).append(" has not returned to select for ").append(elapsedMillis())
                    .append(" ms: a handler or task on it blocks or works too long");
        } else {
            text.append("IO loop ").append(thread).append(" was away from select for ").append(elapsedMillis())
                    .append(" ms and is back: a handler or task on it blocked or worked too long, or the JVM paused"
                            + " (it ended before the monitor could take its stack)");
        }
        int frames = Math.min(stack.size(), MAX_FRAMES);
        for (int i = 0; i < frames; i++) {
            text.append(System.lineSeparator()).append("\tat ").append(stack.get(i));
        }
        if (stack.size() > frames) {
            text.append(System.lineSeparator()).append("\t... ").append(stack.size() - frames).append(" more");
        }
        return text.toString();
    }
}
