package io.troupe.host.state;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.troupe.api.Message;

/**
 * Compares a state with what its decode returned, by the codec's documented mapping: a {@code List}
 * must come back as an {@code ArrayList}, a {@code Set} as a {@code LinkedHashSet}, a {@code Map} as a
 * {@code LinkedHashMap}, each in the original iteration order; arrays with their class and content;
 * a {@code Message} with its name and content and no client; floats and doubles bit for bit; every
 * other value of the same class and equal.
 *
 * <p><b>Threading:</b> stateless.
 */
final class StateAssertions {

    private StateAssertions() {
    }

    static void assertDecodedAs(Object expected, Object actual) {
        String difference = difference(expected, actual, "$");
        if (difference != null) {
            fail(difference);
        }
    }

    private static String difference(Object expected, Object actual, String path) {
        if (expected == null || actual == null) {
            return expected == actual ? null : path + ": expected " + expected + ", got " + actual;
        }
        if (expected instanceof List<?> list) {
            return actual.getClass() == ArrayList.class ? sequence(list, (List<?>) actual, path)
                    : path + ": expected an ArrayList, got " + actual.getClass().getName();
        }
        if (expected instanceof Set<?> set) {
            return actual.getClass() == LinkedHashSet.class ? sequence(set, (Set<?>) actual, path)
                    : path + ": expected a LinkedHashSet, got " + actual.getClass().getName();
        }
        if (expected instanceof Map<?, ?> map) {
            if (actual.getClass() != LinkedHashMap.class) {
                return path + ": expected a LinkedHashMap, got " + actual.getClass().getName();
            }
            return sequence(entries(map), entries((Map<?, ?>) actual), path);
        }
        if (expected instanceof Optional<?> optional) {
            if (!(actual instanceof Optional<?> other) || optional.isPresent() != other.isPresent()) {
                return path + ": expected " + expected + ", got " + actual;
            }
            return optional.isPresent() ? difference(optional.get(), other.get(), path + ".get()") : null;
        }
        if (expected instanceof Message message) {
            if (!(actual instanceof Message other) || !message.name().equals(other.name())
                    || !Arrays.equals(message.content(), other.content()) || other.client() != null) {
                return path + ": expected " + expected + ", got " + actual;
            }
            return null;
        }
        if (expected.getClass() != actual.getClass()) {
            return path + ": expected a " + expected.getClass().getName() + ", got a " + actual.getClass().getName();
        }
        if (expected.getClass().isArray()) {
            int length = Array.getLength(expected);
            if (length != Array.getLength(actual)) {
                return path + ": expected " + length + " elements, got " + Array.getLength(actual);
            }
            for (int i = 0; i < length; i++) {
                String inner = difference(Array.get(expected, i), Array.get(actual, i), path + "[" + i + "]");
                if (inner != null) {
                    return inner;
                }
            }
            return null;
        }
        if (expected instanceof Float number) {
            return Float.floatToRawIntBits(number) == Float.floatToRawIntBits((Float) actual) ? null
                    : path + ": expected float bits " + Integer.toHexString(Float.floatToRawIntBits(number));
        }
        if (expected instanceof Double number) {
            return Double.doubleToRawLongBits(number) == Double.doubleToRawLongBits((Double) actual) ? null
                    : path + ": expected double bits " + Long.toHexString(Double.doubleToRawLongBits(number));
        }
        return expected.equals(actual) ? null : path + ": expected " + expected + ", got " + actual;
    }

    private static List<Object> entries(Map<?, ?> map) {
        List<Object> flat = new ArrayList<>();
        map.forEach((key, value) -> {
            flat.add(key);
            flat.add(value);
        });
        return flat;
    }

    private static String sequence(Iterable<?> expected, Iterable<?> actual, String path) {
        Iterator<?> left = expected.iterator();
        Iterator<?> right = actual.iterator();
        int index = 0;
        while (left.hasNext() && right.hasNext()) {
            String inner = difference(left.next(), right.next(), path + "[" + index++ + "]");
            if (inner != null) {
                return inner;
            }
        }
        return left.hasNext() || right.hasNext() ? path + ": sizes differ after " + index + " elements" : null;
    }
}
