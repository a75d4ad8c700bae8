package io.troupe.sample.counter;

import java.util.Map;

/**
 * What a {@link CounterActor} hands to its successor across a hot swap: the total, written in one of
 * two formats made only of JDK types, so that it crosses between bundle revisions.
 *
 * <pre>
 *   format 1   java.lang.Long                    the total             written by 1.x
 *   format 2   java.util.Map&lt;String, Object&gt;     "total"  -&gt; Long      written by 2.x and later
 *                                                "format" -&gt; 2 (Integer or Long)
 * </pre>
 *
 * Every version reads both formats, so a swap works in either direction (1.0.0 to 2.0.0 and back).
 * The format a build writes follows its major version, as semantic versioning would have it: the
 * major version changed when the format did. {@code null} is the API's "no state" and reads as a
 * total of 0: it is what a build from before the state hooks exported. Anything else is refused with
 * an {@link IllegalArgumentException}, which makes the host roll the swap back.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class CounterState {

    /** A bare {@link Long}. */
    static final int LONG_FORMAT = 1;
    /** A map with {@value #TOTAL} and {@value #FORMAT}. */
    static final int MAP_FORMAT = 2;
    /** The key of the total in {@link #MAP_FORMAT}. */
    static final String TOTAL = "total";
    /** The key of the format number in {@link #MAP_FORMAT}. */
    static final String FORMAT = "format";

    private CounterState() {
    }

    /** The format that a build whose Bundle-Version has major version {@code major} writes. */
    static int formatWrittenBy(int major) {
        return major <= 1 ? LONG_FORMAT : MAP_FORMAT;
    }

    /** {@code total} in {@code format}. */
    static Object write(long total, int format) {
        return switch (format) {
            case LONG_FORMAT -> total;
            case MAP_FORMAT -> Map.<String, Object>of(TOTAL, total, FORMAT, MAP_FORMAT);
            default -> throw new IllegalArgumentException("counter state format " + format + " does not exist;"
                    + " the formats are " + LONG_FORMAT + " and " + MAP_FORMAT);
        };
    }

    /**
     * The total in {@code state}, written in either format, or 0 for {@code null}.
     *
     * @throws IllegalArgumentException if {@code state} is neither format
     */
    static long read(Object state) {
        if (state == null) {
            return 0;
        }
        if (state instanceof Long total) {
            return total;
        }
        if (state instanceof Map<?, ?> map) {
            return readMap(map);
        }
        throw unreadable(state, "it is neither a Long (format 1) nor a Map (format 2)");
    }

    private static long readMap(Map<?, ?> map) {
        Object format = map.get(FORMAT);
        if (format == null) {
            throw unreadable(map, "the map has no \"" + FORMAT + "\" entry");
        }
        if (!(format instanceof Integer || format instanceof Long)) {
            throw unreadable(map, "its \"" + FORMAT + "\" is a " + format.getClass().getName()
                    + ", not an Integer");
        }
        if (((Number) format).longValue() != MAP_FORMAT) {
            throw unreadable(map, "its format " + format + " is not " + MAP_FORMAT
                    + ", the only map format this counter knows (a newer counter may have written it)");
        }
        Object total = map.get(TOTAL);
        if (!(total instanceof Long value)) {
            throw unreadable(map, total == null
                    ? "the map has no \"" + TOTAL + "\" entry"
                    : "its \"" + TOTAL + "\" is a " + total.getClass().getName() + ", not a java.lang.Long");
        }
        return value;
    }

    private static IllegalArgumentException unreadable(Object state, String why) {
        return new IllegalArgumentException("cannot import the counter state " + describe(state) + ": " + why
                + "; the counter imports a java.lang.Long total (format 1) or a map {\"" + TOTAL + "\": Long, \""
                + FORMAT + "\": " + MAP_FORMAT + "} (format 2)");
    }

    private static String describe(Object state) {
        String text = String.valueOf(state);
        if (text.length() > 60) {
            text = text.substring(0, 60) + "...";
        }
        return text + " (" + state.getClass().getName() + ")";
    }
}
