package io.troupe.host.plugin;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.Poolable;

/**
 * How many members a poolable handler's pool may have, read from the service properties
 * {@value Poolable#MIN} and {@value Poolable#MAX}.
 *
 * <p>A service with neither property is not poolable. A service with an invalid declaration (a value
 * that is not an integer, {@code min < 1}, {@code max < min}, or only one of the two) is logged as an
 * error and served by a single actor, as if it were not poolable: a typo must not take a handler
 * away.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param min the fewest members, at least 1
 * @param max the most members, at least {@code min}
 */
record PoolBounds(int min, int max) {

    private static final Logger LOG = LoggerFactory.getLogger(PoolBounds.class);

    PoolBounds {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("pool bounds must satisfy 1 <= min <= max, were " + min + ".." + max);
        }
    }

    /**
     * The bounds declared by the properties {@code min} and {@code max} of service {@code service};
     * empty when it declares none, or declares them wrongly (logged).
     */
    static Optional<PoolBounds> declared(Object min, Object max, String service) {
        if (min == null && max == null) {
            return Optional.empty();
        }
        Integer low = integer(min);
        Integer high = integer(max);
        String problem = null;
        if (min == null || max == null) {
            problem = "both " + Poolable.MIN + " and " + Poolable.MAX + " must be set";
        } else if (low == null || high == null) {
            problem = "both must be integers";
        } else if (low < 1) {
            problem = Poolable.MIN + " must be at least 1";
        } else if (high < low) {
            problem = Poolable.MAX + " must be at least " + Poolable.MIN;
        }
        if (problem != null) {
            LOG.error("Handler service {} declares an invalid pool ({}={}, {}={}): {}; it is served by a single actor",
                    service, Poolable.MIN, min, Poolable.MAX, max, problem);
            return Optional.empty();
        }
        return Optional.of(new PoolBounds(low, high));
    }

    private static Integer integer(Object value) {
        if (value instanceof Integer number) {
            return number;
        }
        if (value instanceof Long || value instanceof Short || value instanceof Byte) {
            long number = ((Number) value).longValue();
            return number == (int) number ? (int) number : null;
        }
        if (value instanceof String text) {
            try {
                return Integer.valueOf(text.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return min + ".." + max;
    }
}
