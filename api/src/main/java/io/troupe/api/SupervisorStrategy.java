package io.troupe.api;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * How a parent treats its failing children. A strategy maps the failure to a {@link Directive} and
 * limits restarts: a child that would be restarted more than {@link #maxRestarts()} times within
 * {@link #window()} is escalated instead.
 *
 * <p>The default restarts at most 3 times within 5 seconds, then escalates.
 *
 * <p><b>Threading:</b> immutable; the decider is called on the parent's turn.
 */
public final class SupervisorStrategy {

    private static final SupervisorStrategy DEFAULT =
            new SupervisorStrategy(cause -> Directive.RESTART, 3, Duration.ofSeconds(5));

    private final Function<Throwable, Directive> decider;
    private final int maxRestarts;
    private final Duration window;

    private SupervisorStrategy(Function<Throwable, Directive> decider, int maxRestarts, Duration window) {
        this.decider = Objects.requireNonNull(decider, "decider");
        if (maxRestarts < 0) {
            throw new IllegalArgumentException("maxRestarts must not be negative, was " + maxRestarts);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive, was " + window);
        }
        this.maxRestarts = maxRestarts;
        this.window = window;
    }

    /** Restart, at most 3 times within 5 s, then escalate. */
    public static SupervisorStrategy defaultStrategy() {
        return DEFAULT;
    }

    /** Always the same directive; restarts (if that is the directive) limited like the default. */
    public static SupervisorStrategy always(Directive directive) {
        Objects.requireNonNull(directive, "directive");
        return new SupervisorStrategy(cause -> directive, DEFAULT.maxRestarts, DEFAULT.window);
    }

    /** A strategy deciding per failure, with the given restart limit. */
    public static SupervisorStrategy of(Function<Throwable, Directive> decider, int maxRestarts, Duration window) {
        return new SupervisorStrategy(decider, maxRestarts, window);
    }

    /** The directive for {@code cause}; {@link Directive#ESCALATE} if the decider itself fails or returns null. */
    public Directive decide(Throwable cause) {
        try {
            Directive directive = decider.apply(cause);
            return directive == null ? Directive.ESCALATE : directive;
        } catch (RuntimeException e) {
            return Directive.ESCALATE;
        }
    }

    /** Restarts allowed within {@link #window()} before escalating. */
    public int maxRestarts() {
        return maxRestarts;
    }

    /** The sliding window over which restarts are counted. */
    public Duration window() {
        return window;
    }
}
