package io.troupe.runtime;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The checks of the names and pool bounds given to {@link Troupe} and its builder, so that both refuse the
 * same arguments with the same message.
 *
 * <p><b>Threading:</b> stateless.
 */
final class RegistrationArguments {

    private RegistrationArguments() {
    }

    /**
     * {@code name}, if it can name a handler or factory: not blank, no blanks around it.
     *
     * @param what the parameter's name, for the message
     */
    static String check(String what, String name) {
        Objects.requireNonNull(name, what);
        if (name.isBlank() || !name.strip().equals(name)) {
            throw new IllegalArgumentException(what + " must not be blank or start or end with blanks, was '"
                    + name + "'");
        }
        return name;
    }

    /** {@code names}, checked one by one: at least one, none blank, none twice; as an immutable list in order. */
    static List<String> checkAll(String what, Collection<String> names) {
        Objects.requireNonNull(names, what);
        if (names.isEmpty()) {
            throw new IllegalArgumentException(what + " must hold at least one name");
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String name : names) {
            if (!seen.add(check(what, name))) {
                throw new IllegalArgumentException(what + " holds '" + name + "' twice");
            }
        }
        return List.copyOf(seen);
    }

    /** Checks the bounds of a poolable handler's pool: {@code 1 <= min <= max}. */
    static void checkPool(int min, int max) {
        if (min < 1) {
            throw new IllegalArgumentException("min must be at least 1, was " + min);
        }
        if (max < min) {
            throw new IllegalArgumentException("max must be at least min (" + min + "), was " + max);
        }
    }
}
