package io.troupe.host.actor;

import java.lang.reflect.Array;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Checks that state exported for a hot swap holds no class of the plugin that exported it: such an
 * object would pin the old revision's class loader and could not be understood by the next one.
 * Containers (arrays, collections, maps, optionals) are searched; other objects are judged by their
 * class alone.
 *
 * <p><b>Threading:</b> stateless; called on the exporting actor's turn.
 */
final class PortableState {

    private static final int MAX_OBJECTS = 1_000_000;

    private PortableState() {
    }

    /**
     * Returns {@code state} if no object in it comes from {@code pluginLoader}.
     *
     * @throws IllegalArgumentException naming the first offending class
     */
    static Object require(Object state, ClassLoader pluginLoader) {
        return require(state, pluginLoader, "exported state");
    }

    /**
     * Returns {@code value} if no object in it comes from {@code pluginLoader}.
     *
     * @param what how the message names the value, e.g. {@code exported state}
     * @throws IllegalArgumentException naming the first offending class
     */
    static Object require(Object state, ClassLoader pluginLoader, String what) {
        if (state == null || pluginLoader == null) {
            return state;
        }
        ArrayDeque<Object> pending = new ArrayDeque<>();
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        pending.add(state);
        while (!pending.isEmpty()) {
            Object next = pending.poll();
            if (seen.put(next, Boolean.TRUE) != null) {
                continue;
            }
            if (seen.size() > MAX_OBJECTS) {
                throw new IllegalArgumentException(what + " holds more than " + MAX_OBJECTS + " objects");
            }
            Class<?> type = next.getClass();
            if (type.getClassLoader() == pluginLoader) {
                throw new IllegalArgumentException(what + " holds an instance of the plugin's own class "
                        + type.getName() + ": only JDK or API types can cross a swap");
            }
            if (type.isArray() && !type.getComponentType().isPrimitive()) {
                for (int i = 0, n = Array.getLength(next); i < n; i++) {
                    push(pending, Array.get(next, i));
                }
            } else if (next instanceof Collection<?> collection) {
                collection.forEach(element -> push(pending, element));
            } else if (next instanceof Map<?, ?> map) {
                map.forEach((key, value) -> {
                    push(pending, key);
                    push(pending, value);
                });
            } else if (next instanceof Optional<?> optional) {
                optional.ifPresent(value -> push(pending, value));
            }
        }
        return state;
    }

    private static void push(ArrayDeque<Object> pending, Object value) {
        if (value != null) {
            pending.add(value);
        }
    }
}
