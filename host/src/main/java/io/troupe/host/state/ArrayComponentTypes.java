package io.troupe.host.state;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.troupe.api.Failure;
import io.troupe.api.Message;

/**
 * The component types a typed reference array in a state may have ({@code String[]}, {@code Long[]},
 * {@code int[][]}, {@code TimeUnit[]}…), and how their names are read back. A component type is allowed
 * when, under any number of array dimensions, it is a primitive type, one of the value types the format
 * stores (or {@code Object}, {@code Number}, {@code List}, {@code Set}, {@code Map}), or an enum of a
 * {@code java.*} package. Names are {@link Class#getName()}'s: {@code java.lang.String}, {@code [I}.
 * Nothing is ever loaded by a name outside that list, so bytes cannot make the decoder load a class.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class ArrayComponentTypes {

    private static final Map<String, Class<?>> BASES = Stream.of(Object.class, Number.class, String.class,
                    Boolean.class, Byte.class, Short.class, Integer.class, Long.class, Float.class, Double.class,
                    Character.class, BigInteger.class, BigDecimal.class, UUID.class, Instant.class, Duration.class,
                    List.class, Set.class, Map.class, Optional.class, Message.class, Failure.class)
            .collect(Collectors.toUnmodifiableMap(Class::getName, Function.identity()));

    private ArrayComponentTypes() {
    }

    /** Whether an array whose component type is {@code component} may be stored. */
    static boolean isStorable(Class<?> component) {
        Class<?> base = component;
        while (base.isArray()) {
            base = base.getComponentType();
        }
        if (base.isPrimitive()) {
            return base != void.class;
        }
        return BASES.get(base.getName()) == base || JavaEnums.isJavaEnum(base);
    }

    /**
     * The reference component type named {@code name}, or {@code null} when it is not one that
     * {@link #isStorable} allows or is primitive (primitive arrays have tags of their own).
     */
    static Class<?> resolve(String name) {
        int dimensions = 0;
        while (dimensions < name.length() && name.charAt(dimensions) == '[') {
            dimensions++;
        }
        if (dimensions > StateFormat.MAX_DEPTH) {
            return null;
        }
        Class<?> base = dimensions == 0 ? reference(name) : descriptor(name.substring(dimensions));
        if (base == null || dimensions == 0 && base.isPrimitive()) {
            return null;
        }
        Class<?> type = base;
        for (int i = 0; i < dimensions; i++) {
            type = type.arrayType();
        }
        return type;
    }

    private static Class<?> descriptor(String descriptor) {
        if (descriptor.length() == 1) {
            return switch (descriptor.charAt(0)) {
                case 'Z' -> boolean.class;
                case 'B' -> byte.class;
                case 'S' -> short.class;
                case 'I' -> int.class;
                case 'J' -> long.class;
                case 'F' -> float.class;
                case 'D' -> double.class;
                case 'C' -> char.class;
                default -> null;
            };
        }
        if (descriptor.length() > 2 && descriptor.charAt(0) == 'L' && descriptor.endsWith(";")) {
            return reference(descriptor.substring(1, descriptor.length() - 1));
        }
        return null;
    }

    private static Class<?> reference(String name) {
        Class<?> base = BASES.get(name);
        return base != null ? base : JavaEnums.load(name);
    }
}
