package io.troupe.host.monitor;

import java.time.Duration;
import java.util.Objects;

/**
 * When the monitor grows and shrinks the actor pools of poolable handlers.
 *
 * <p>Set from the host's configuration {@code io.troupe.host} ({@code etc/io.troupe.host.cfg}; the
 * typed model {@code io.troupe.host.HostConfiguration} holds each key's default and bounds):
 * {@code pool.highWater} (messages waiting per member above which a pool is under pressure, 1),
 * {@code pool.growMillis} (how long the pressure must last, at every look and at least two looks,
 * before a member is added, 1000), {@code pool.idleSeconds} (how long a pool must be idle, no message
 * waiting and no turn running, before a member retires, 30) and {@code pool.cooldownMillis} (the
 * least time between two changes of one pool, 2000).
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param highWater  a pool is under pressure while more than this many messages per member wait
 * @param growAfter  how long the pressure must last before the pool grows by one
 * @param idlePeriod how long the pool must be idle before it shrinks by one
 * @param cooldown   the least time between two changes of one pool, so that it does not flap
 */
public record ActorPoolSettings(int highWater, Duration growAfter, Duration idlePeriod, Duration cooldown) {

    public static final int DEFAULT_HIGH_WATER = 1;
    public static final Duration DEFAULT_GROW_AFTER = Duration.ofSeconds(1);
    public static final Duration DEFAULT_IDLE = Duration.ofSeconds(30);
    public static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(2);

    public ActorPoolSettings {
        if (highWater < 0) {
            throw new IllegalArgumentException("highWater must not be negative, was " + highWater);
        }
        Objects.requireNonNull(growAfter, "growAfter");
        Objects.requireNonNull(cooldown, "cooldown");
        Objects.requireNonNull(idlePeriod, "idlePeriod");
        if (growAfter.isNegative() || cooldown.isNegative() || idlePeriod.isNegative() || idlePeriod.isZero()) {
            throw new IllegalArgumentException("growAfter and cooldown must not be negative, idlePeriod must be"
                    + " positive; were " + growAfter + ", " + cooldown + ", " + idlePeriod);
        }
    }

    /** The defaults of the table above. */
    public static ActorPoolSettings defaults() {
        return new ActorPoolSettings(DEFAULT_HIGH_WATER, DEFAULT_GROW_AFTER, DEFAULT_IDLE, DEFAULT_COOLDOWN);
    }

    public ActorPoolSettings withHighWater(int value) {
        return new ActorPoolSettings(value, growAfter, idlePeriod, cooldown);
    }

    public ActorPoolSettings withGrowAfter(Duration value) {
        return new ActorPoolSettings(highWater, value, idlePeriod, cooldown);
    }

    public ActorPoolSettings withIdlePeriod(Duration value) {
        return new ActorPoolSettings(highWater, growAfter, value, cooldown);
    }

    public ActorPoolSettings withCooldown(Duration value) {
        return new ActorPoolSettings(highWater, growAfter, idlePeriod, value);
    }
}
