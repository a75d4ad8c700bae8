package io.troupe.testkit;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.troupe.api.Timers;

/**
 * {@link Timers} that only record what is scheduled; no clock is involved and nothing ever fires. To
 * make a timer fire, the test reads its message from {@link #scheduled()} and delivers it to the
 * actor itself (without a sender, as a timer does).
 *
 * <p>As with the runtime's timers, scheduling under an active key replaces that timer.
 *
 * <p><b>Threading:</b> not thread-safe; confined to the test's thread, for deterministic unit tests
 * of one actor.
 */
public final class TestTimers implements Timers {

    /**
     * One active timer.
     *
     * @param message      what it delivers to its actor
     * @param initialDelay the delay before the first delivery
     * @param period       the period between deliveries, or {@code null} for a single-shot timer
     */
    public record Timer(Object message, Duration initialDelay, Duration period) {

        /** Whether this timer repeats. */
        public boolean isPeriodic() {
            return period != null;
        }
    }

    private final Map<String, Timer> active = new LinkedHashMap<>();

    /** The active timers by key, in the order they were first scheduled; a read-only view. */
    public Map<String, Timer> scheduled() {
        return Collections.unmodifiableMap(active);
    }

    @Override
    public void scheduleOnce(String key, Object message, Duration delay) {
        active.put(Objects.requireNonNull(key, "key"), new Timer(message, delay, null));
    }

    @Override
    public void scheduleAtFixedRate(String key, Object message, Duration initialDelay, Duration period) {
        active.put(Objects.requireNonNull(key, "key"), new Timer(message, initialDelay, period));
    }

    @Override
    public boolean cancel(String key) {
        return active.remove(key) != null;
    }

    @Override
    public boolean isActive(String key) {
        return active.containsKey(key);
    }

    @Override
    public void cancelAll() {
        active.clear();
    }
}
