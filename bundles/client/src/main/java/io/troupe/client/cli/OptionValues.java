package io.troupe.client.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How {@code troupe-client} reads the values of its options and of the installation's configuration:
 * whole numbers within bounds and durations ({@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m},
 * {@code 1h}, or a bare number of seconds), with picocli converters for the options. A converter's
 * message completes the option's name: {@code --port} + {@code " must be a whole number from 1 to
 * 65535: 'x'"}.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class OptionValues {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    private OptionValues() {
    }

    /** {@code value} as an integer in [min, max]; {@code what} starts the message, such as {@code --port}. */
    static int parseInt(String value, int min, int max, String what) throws UsageException {
        try {
            return wholeNumber(value, min, max);
        } catch (TypeConversionException e) {
            throw new UsageException(what + " " + e.getMessage());
        }
    }

    /** {@code value} as a duration of at most a day; {@code what} starts the message. */
    static Duration parseDuration(String value, String what) throws UsageException {
        try {
            return duration(value);
        } catch (TypeConversionException e) {
            throw new UsageException(what + " " + e.getMessage());
        }
    }

    private static int wholeNumber(String value, int min, int max) {
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new TypeConversionException("must be a whole number from " + min + " to " + max + ": '" + value + "'");
    }

    private static Duration duration(String value) {
        Matcher matcher = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new TypeConversionException("must be a duration such as 500ms, 10s or 2m: '" + value + "'");
        }
        double amount = Double.parseDouble(matcher.group(1));
        String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        double millis = switch (unit) {
            case "ms" -> amount;
            case "m" -> amount * 60_000;
            case "h" -> amount * 3_600_000;
            default -> amount * 1000;
        };
        if (millis > Duration.ofDays(1).toMillis()) {
            throw new TypeConversionException("is longer than a day: '" + value + "'");
        }
        return Duration.ofNanos(Math.round(millis * 1_000_000));
    }

    /** A whole number in [min, max]; subclasses name the bounds for picocli, which instantiates them. */
    abstract static class WholeNumber implements ITypeConverter<Integer> {
        private final int min;
        private final int max;

        WholeNumber(int min, int max) {
            this.min = min;
            this.max = max;
        }

        @Override
        public Integer convert(String value) {
            return wholeNumber(value, min, max);
        }
    }

    static final class Port extends WholeNumber {
        Port() {
            super(1, 65535);
        }
    }

    /** Connections and pipeline depth of the bench. */
    static final class Count extends WholeNumber {
        Count() {
            super(1, 100_000);
        }
    }

    static final class PayloadSize extends WholeNumber {
        PayloadSize() {
            super(0, BenchOptions.MAX_SIZE);
        }
    }

    /** Requests per second of a paced bench. */
    static final class Rate extends WholeNumber {
        Rate() {
            super(1, 10_000_000);
        }
    }

    static final class Threads extends WholeNumber {
        Threads() {
            super(1, 256);
        }
    }

    /** A duration of at most a day, zero allowed (a warm-up may be skipped). */
    static final class AnyDuration implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return duration(value);
        }
    }

    /** A duration of at most a day, more than zero. */
    static final class PositiveDuration implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Duration duration = duration(value);
            if (duration.isZero()) {
                throw new TypeConversionException("must be positive: '" + value + "'");
            }
            return duration;
        }
    }
}
