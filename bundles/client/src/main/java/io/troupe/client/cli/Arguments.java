package io.troupe.client.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed command line: options ({@code --name value} or {@code --name=value}, anywhere) and
 * the positional arguments in order. {@code --} ends the options, so that a positional argument may
 * start with dashes. Every option takes a value except {@code -h} / {@code --help}.
 *
 * <p><b>Threading:</b> immutable after parsing; any thread.
 */
final class Arguments {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    private final Map<String, String> options;
    private final List<String> positional;
    private final boolean help;

    private Arguments(Map<String, String> options, List<String> positional, boolean help) {
        this.options = options;
        this.positional = positional;
        this.help = help;
    }

    /**
     * @param known the option names accepted, without dashes
     * @throws UsageException for an unknown option, a missing value or an option given twice
     */
    static Arguments parse(String[] args, Set<String> known) throws UsageException {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> positional = new ArrayList<>();
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                positional.addAll(List.of(args).subList(i + 1, args.length));
                break;
            } else if (arg.equals("-h") || arg.equals("--help")) {
                help = true;
            } else if (arg.startsWith("--")) {
                int equals = arg.indexOf('=');
                String name = arg.substring(2, equals < 0 ? arg.length() : equals);
                if (!known.contains(name)) {
                    throw new UsageException("unknown option --" + name);
                }
                String value;
                if (equals >= 0) {
                    value = arg.substring(equals + 1);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new UsageException("--" + name + " needs a value");
                }
                if (options.put(name, value) != null) {
                    throw new UsageException("--" + name + " is given twice");
                }
            } else if (arg.startsWith("-") && arg.length() > 1) {
                throw new UsageException("unknown option " + arg);
            } else {
                positional.add(arg);
            }
        }
        return new Arguments(options, positional, help);
    }

    boolean help() {
        return help;
    }

    List<String> positional() {
        return positional;
    }

    /** The option's value, or null when absent. */
    String option(String name) {
        return options.get(name);
    }

    Set<String> optionNames() {
        return options.keySet();
    }

    /** An integer option in [min, max], or {@code fallback} when absent. */
    int intOption(String name, int fallback, int min, int max) throws UsageException {
        String value = options.get(name);
        if (value == null) {
            return fallback;
        }
        return parseInt(value, min, max, "--" + name);
    }

    /** A duration option ({@link #parseDuration}), or {@code fallback} when absent. */
    Duration durationOption(String name, Duration fallback) throws UsageException {
        String value = options.get(name);
        return value == null ? fallback : parseDuration(value, "--" + name);
    }

    static int parseInt(String value, int min, int max, String what) throws UsageException {
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(what + " must be a whole number from " + min + " to " + max + ": '" + value + "'");
    }

    /** {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m}, {@code 1h}, or a bare number of seconds. */
    static Duration parseDuration(String value, String what) throws UsageException {
        Matcher matcher = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new UsageException(what + " must be a duration such as 500ms, 10s or 2m: '" + value + "'");
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
            throw new UsageException(what + " is longer than a day: '" + value + "'");
        }
        return Duration.ofNanos(Math.round(millis * 1_000_000));
    }
}
