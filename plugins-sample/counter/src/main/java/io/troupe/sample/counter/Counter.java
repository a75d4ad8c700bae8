package io.troupe.sample.counter;

import java.util.regex.Pattern;

import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

/**
 * A running total, as a {@code long} starting at 0, that grows by amounts written as decimal
 * integers.
 *
 * <p>An amount is an optional {@code +} or {@code -} followed by ASCII digits {@code 0-9}, with
 * surrounding whitespace ({@link String#strip()}) ignored: {@code "42"}, {@code " -7\n"},
 * {@code "+007"}. Anything else, an amount outside the range of a {@code long}, or a sum that would
 * leave that range is rejected with a {@link TroupeException} of code {@link ErrorCode#BAD_REQUEST},
 * and the total stays as it was.
 *
 * <p><b>Threading:</b> not thread-safe; confined to its actor.
 */
final class Counter {

    private static final Pattern DECIMAL_INTEGER = Pattern.compile("[+-]?[0-9]+");
    /** How much of a rejected input a failure detail quotes. */
    private static final int QUOTED_INPUT_LIMIT = 40;

    private long total;

    /** The current total. */
    long total() {
        return total;
    }

    /** Replaces the total, as a hot swap hands it over from the previous revision. */
    void restore(long total) {
        this.total = total;
    }

    /**
     * Adds the amount written in {@code text} and returns the new total.
     *
     * @throws TroupeException with code {@link ErrorCode#BAD_REQUEST} if {@code text} is not a decimal
     *                         integer within the range of a {@code long}, or if the sum is not; the
     *                         total is then unchanged
     */
    long add(String text) {
        long amount = parse(text);
        try {
            total = Math.addExact(total, amount);
        } catch (ArithmeticException e) {
            throw totalWouldOverflow(amount);
        }
        return total;
    }

    /** The amount written in {@code text}. */
    static long parse(String text) {
        String digits = text.strip();
        if (digits.isEmpty()) {
            throw missingAmount();
        }
        if (!DECIMAL_INTEGER.matcher(digits).matches()) {
            throw notAnInteger(digits);
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            // the pattern matched, so the only way left to fail is too many digits
            throw outOfRange(digits);
        }
    }

    private static TroupeException missingAmount() {
        return badRequest("expected a decimal integer such as 5 or -3, got nothing");
    }

    private static TroupeException notAnInteger(String input) {
        return badRequest("expected a decimal integer such as 5 or -3 (optional sign, digits 0-9), got "
                + quote(input));
    }

    private static TroupeException outOfRange(String input) {
        return badRequest("the amount " + quote(input) + " is outside the range of a long, "
                + Long.MIN_VALUE + " to " + Long.MAX_VALUE);
    }

    private TroupeException totalWouldOverflow(long amount) {
        return badRequest("adding " + amount + " to the total " + total + " would leave the range of a long, "
                + Long.MIN_VALUE + " to " + Long.MAX_VALUE + "; the total is unchanged");
    }

    private static TroupeException badRequest(String detail) {
        return new TroupeException(ErrorCode.BAD_REQUEST, detail);
    }

    private static String quote(String input) {
        return input.length() <= QUOTED_INPUT_LIMIT
                ? "\"" + input + "\""
                : "\"" + input.substring(0, QUOTED_INPUT_LIMIT) + "...\" (" + input.length() + " characters)";
    }
}
