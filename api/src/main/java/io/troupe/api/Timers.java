package io.troupe.api;

import java.time.Duration;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Timers that deliver messages to their own actor. Each timer has a key; scheduling under a key that
 * is already active replaces that timer. A cancelled timer delivers nothing more, not even a message
 * that was already due. Timers die with the actor.
 *
 * <p>Keep keys and messages to JDK or API types so that they survive a hot swap of the plugin.
 *
 * <p><b>Threading:</b> like {@link ActorContext}, only on the actor's own turn.
 */
@ProviderType
public interface Timers {

    /** Delivers {@code message} to self once, after {@code delay}. */
    void scheduleOnce(String key, Object message, Duration delay);

    /** Delivers {@code message} to self after {@code initialDelay}, then every {@code period}. */
    void scheduleAtFixedRate(String key, Object message, Duration initialDelay, Duration period);

    /** Cancels the timer under {@code key}; returns whether one was active. */
    boolean cancel(String key);

    /** Whether a timer is active under {@code key}. */
    boolean isActive(String key);

    /** Cancels every timer of this actor. */
    void cancelAll();
}
