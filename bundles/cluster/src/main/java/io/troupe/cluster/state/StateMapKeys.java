package io.troupe.cluster.state;

import io.troupe.api.state.StateKey;

/**
 * How a {@link StateKey} is written as a key of the replicated map {@value ReplicatedStateStore#MAP}:
 * {@code <origin>/<path>@<tenant>}, with {@code '%'}, {@code '/'} and {@code '@'} in the origin and the path
 * written as {@code %25}, {@code %2F} and {@code %40}. The first {@code '@'} of the key is therefore the one
 * before the tenant, and Hazelcast's partitioning of {@code String} keys (the part after the first
 * {@code '@'} is the partition key) puts every state of a tenant in the partition of the tenant id itself:
 * the node that owns the tenant owns its states, and a tenant's states are one partition to query.
 *
 * <pre>
 * ("acme", "handler:counter.add", "handler:counter.add@acme")
 *     -&gt;  handler:counter.add/handler:counter.add%40acme@acme
 * ("acme", "factory:chat.room", "a/room-1")
 *     -&gt;  factory:chat.room/a%2Froom-1@acme
 * </pre>
 *
 * A tenant may hold any character (the tenant is everything after the first {@code '@'}).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class StateMapKeys {

    private StateMapKeys() {
    }

    /** The map key of {@code key}. Allocates only the key when nothing needs escaping. */
    static String encode(StateKey key) {
        String origin = key.origin();
        String path = key.path();
        if (!needsEscape(origin) && !needsEscape(path)) {
            return origin + '/' + path + '@' + key.tenant();
        }
        StringBuilder text = new StringBuilder(origin.length() + path.length() + key.tenant().length() + 16);
        escape(origin, text);
        text.append('/');
        escape(path, text);
        return text.append('@').append(key.tenant()).toString();
    }

    /** The suffix every map key of {@code tenant} ends with, after its origin and path. */
    static String tenantSuffix(String tenant) {
        return "@" + tenant;
    }

    /** The state key written as {@code mapKey}; throws IllegalArgumentException for a key not made here. */
    static StateKey decode(String mapKey) {
        int at = mapKey.indexOf('@');
        int slash = mapKey.indexOf('/');
        if (at < 0 || slash < 0 || slash > at) {
            throw new IllegalArgumentException("not a key of the replicated state map: '" + mapKey + "'");
        }
        return new StateKey(mapKey.substring(at + 1), unescape(mapKey, 0, slash), unescape(mapKey, slash + 1, at));
    }

    /** The tenant of {@code mapKey}: everything after its first '@'. */
    static String tenantOf(String mapKey) {
        int at = mapKey.indexOf('@');
        return at < 0 ? null : mapKey.substring(at + 1);
    }

    private static boolean needsEscape(String part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '%' || c == '/' || c == '@') {
                return true;
            }
        }
        return false;
    }

    private static void escape(String part, StringBuilder text) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            switch (c) {
                case '%' -> text.append("%25");
                case '/' -> text.append("%2F");
                case '@' -> text.append("%40");
                default -> text.append(c);
            }
        }
    }

    private static String unescape(String key, int from, int to) {
        StringBuilder text = null;
        for (int i = from; i < to; i++) {
            char c = key.charAt(i);
            if (c != '%') {
                if (text != null) {
                    text.append(c);
                }
                continue;
            }
            if (text == null) {
                text = new StringBuilder(to - from).append(key, from, i);
            }
            String code = i + 3 <= to ? key.substring(i + 1, i + 3) : "";
            switch (code) {
                case "25" -> text.append('%');
                case "2F" -> text.append('/');
                case "40" -> text.append('@');
                default -> throw new IllegalArgumentException("the key '" + key + "' of the replicated state map"
                        + " holds an unknown escape at index " + i);
            }
            i += 2;
        }
        return text == null ? key.substring(from, to) : text.toString();
    }
}
