package io.troupe.host.actor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import io.troupe.api.Timers;
import io.troupe.host.timer.Scheduler;

/**
 * The timers of one actor, by key.
 *
 * <p><b>Threading:</b> confined to the actor's turns.
 */
final class ActorTimers implements Timers {

    private final ActorCell cell;
    private final Scheduler scheduler;
    private final Map<String, ActorTimer> active = new HashMap<>();

    ActorTimers(ActorCell cell, Scheduler scheduler) {
        this.cell = cell;
        this.scheduler = scheduler;
    }

    @Override
    public void scheduleOnce(String key, Object message, Duration delay) {
        start(key, message, nonNegative(delay, "delay"), 0);
    }

    @Override
    public void scheduleAtFixedRate(String key, Object message, Duration initialDelay, Duration period) {
        long periodNanos = nonNegative(period, "period");
        if (periodNanos == 0) {
            throw new IllegalArgumentException("period must be positive");
        }
        start(key, message, nonNegative(initialDelay, "initialDelay"), periodNanos);
    }

    @Override
    public boolean cancel(String key) {
        ActorTimer timer = active.remove(key);
        if (timer == null) {
            return false;
        }
        timer.cancel();
        return true;
    }

    @Override
    public boolean isActive(String key) {
        return active.containsKey(key);
    }

    @Override
    public void cancelAll() {
        for (ActorTimer timer : new ArrayList<>(active.values())) {
            timer.cancel();
        }
        active.clear();
    }

    /**
     * Checks that no active timer's message holds a class loaded by {@code code}; see
     * {@link ActorCell#requirePortableTimers}.
     *
     * @throws IllegalArgumentException naming the timer and the class
     */
    void requirePortable(ClassLoader code) {
        for (ActorTimer timer : active.values()) {
            try {
                PortableState.require(timer.message(), code, "its message");
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("timer '" + timer.key() + "': " + e.getMessage()
                        + " (cancel it in exportState and schedule it again in importState)", e);
            }
        }
    }

    /**
     * The message to deliver for a fired timer, or {@code null} if the timer was cancelled or replaced
     * since it fired.
     */
    Object accept(ActorTimer fired) {
        if (fired.isCancelled() || active.get(fired.key()) != fired) {
            return null;
        }
        if (!fired.isPeriodic()) {
            active.remove(fired.key());
        }
        return fired.message();
    }

    private void start(String key, Object message, long delayNanos, long periodNanos) {
        Objects.requireNonNull(key, "key");
        cell.timerStarted(key);
        Objects.requireNonNull(message, "message");
        cancel(key);
        ActorTimer timer = new ActorTimer(cell, key, message, periodNanos, scheduler);
        active.put(key, timer);
        timer.start(delayNanos);
    }

    private static long nonNegative(Duration duration, String what) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, was " + duration);
        }
        return duration.toNanos();
    }
}
