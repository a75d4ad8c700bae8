package io.troupe.sample.chat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.troupe.api.Timers;

/**
 * Hand-written {@link Timers} that only record what is scheduled; the test delivers a timer's message
 * itself when it wants the timer to fire, so no clock is involved.
 *
 * <p><b>Threading:</b> confined to the test thread.
 */
final class StubTimers implements Timers {

    /** One active timer; {@code period} is {@code null} for a single-shot one. */
    record Scheduled(Object message, Duration initialDelay, Duration period) {
    }

    private final Map<String, Scheduled> active = new LinkedHashMap<>();

    /** The active timers by key. */
    Map<String, Scheduled> active() {
        return active;
    }

    @Override
    public void scheduleOnce(String key, Object message, Duration delay) {
        active.put(key, new Scheduled(message, delay, null));
    }

    @Override
    public void scheduleAtFixedRate(String key, Object message, Duration initialDelay, Duration period) {
        active.put(key, new Scheduled(message, initialDelay, period));
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
