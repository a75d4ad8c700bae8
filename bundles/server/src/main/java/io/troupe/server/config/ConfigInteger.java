package io.troupe.server.config;

import java.util.OptionalLong;

/**
 * An integer as ConfigAdmin hands it over: a {@link Number} of an integral type (from a typed
 * configuration) or a {@link String} holding one (from a FileInstall {@code .cfg} file, surrounding
 * blanks allowed). Anything else, a {@code Double} or {@code "12abc"} included, is not an integer;
 * the caller reports it with the key, the value and what it keeps instead.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class ConfigInteger {

    private ConfigInteger() {
    }

    /** The integer {@code raw} holds, or empty when it holds none. */
    public static OptionalLong parse(Object raw) {
        if (raw instanceof Integer || raw instanceof Long || raw instanceof Short || raw instanceof Byte) {
            return OptionalLong.of(((Number) raw).longValue());
        }
        if (raw instanceof String text) {
            try {
                return OptionalLong.of(Long.parseLong(text.trim()));
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.empty();
    }
}
