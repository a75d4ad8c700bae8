package io.troupe.config;

/**
 * One bad value of a configuration: the key, the value as given (masked for passwords), why it
 * cannot be used and, where the check keeps something else in force, what.
 *
 * <p>{@link #toString()} is the log line's text, for example
 * {@code file /opt/troupe/etc/io.troupe.server.cfg: maxFrameBytes = 'abc': not an integer; keeping 1048576}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param source where the configuration came from
 * @param key    the key
 * @param shown  the value as given, {@code ***} for a password, or {@code null} when the key is absent
 * @param reason why it is refused, e.g. {@code above the maximum 65535}
 * @param kept   the value kept in force instead, or {@code null} when the caller rejects the whole
 *               configuration
 */
public record ConfigurationProblem(ConfigurationSource source, String key, String shown, String reason,
                                   String kept) {

    /** The problem without the source: {@code key = 'value': reason[; keeping kept]}. */
    public String describe() {
        String text = shown == null ? key + ": " + reason : key + " = '" + shown + "': " + reason;
        return kept == null ? text : text + "; keeping " + kept;
    }

    @Override
    public String toString() {
        return source + ": " + describe();
    }
}
