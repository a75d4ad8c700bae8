package io.troupe.store;

import io.troupe.api.state.StateKey;

/**
 * How a {@link StateKey} is written as the key of the store's map: one string,
 * {@code tenant + '\0' + origin + '\0' + path}. Strings sort by their UTF-16 units and {@code '\0'} sorts
 * first, so every key of one tenant is a contiguous range that begins with {@code tenant + '\0'}:
 * {@link MvStateStore#list} and {@link MvStateStore#purge} are range scans. A tenant or an origin holding a
 * {@code '\0'} would make the encoding ambiguous and is refused; a path may hold anything.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class StoreKeys {

    static final char SEPARATOR = '\0';

    private StoreKeys() {
    }

    /** The map key of {@code key}; throws IllegalArgumentException for a tenant or origin holding {@code '\0'}. */
    static String encode(StateKey key) {
        refuseSeparator("tenant", key.tenant(), key);
        refuseSeparator("origin", key.origin(), key);
        return key.tenant() + SEPARATOR + key.origin() + SEPARATOR + key.path();
    }

    /** The first map key of {@code tenant}'s range: every key of the tenant starts with it. */
    static String tenantPrefix(String tenant) {
        if (tenant.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("a tenant id cannot hold the character U+0000: '"
                    + tenant.replace(SEPARATOR, '?') + "'");
        }
        return tenant + SEPARATOR;
    }

    /** The state key written as {@code encoded}. */
    static StateKey decode(String encoded) {
        int first = encoded.indexOf(SEPARATOR);
        int second = first < 0 ? -1 : encoded.indexOf(SEPARATOR, first + 1);
        if (second < 0) {
            throw new IllegalStateException("not a state key in the store: '" + encoded.replace(SEPARATOR, '|')
                    + "'");
        }
        return new StateKey(encoded.substring(0, first), encoded.substring(first + 1, second),
                encoded.substring(second + 1));
    }

    private static void refuseSeparator(String part, String value, StateKey key) {
        if (value.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("the " + part + " of state key '"
                    + key.toString().replace(SEPARATOR, '?')
                    + "' holds the character U+0000, which the store keeps as its separator");
        }
    }
}
