package io.troupe.host.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.troupe.api.Failure;

/**
 * Fuzzes {@link StateCodec#encode} and {@link StateCodec#decode} together: the input describes a state
 * built of the types the format stores (scalars with their edge values, strings with any UTF-16 including lone
 * surrogates, big numbers, arrays, lists, sets, maps, optionals, times, UUIDs, {@code java.*} enums, failures,
 * nested up to 6 levels). Encoding it must succeed, and decoding gives back an equal state (arrays by content,
 * collections by their content and order, as the format promises) whose encoding is the same bytes.
 *
 * <p><b>Threading:</b> the codec is stateless; the fuzzing thread only.
 */
class StateRoundTripFuzzTest {

    private static final String ACTOR = "handler:fuzz@tenant";
    private static final StateCodec CODEC = new StateCodec();
    private static final int MAX_DEPTH = 6;
    private static final int MAX_ITEMS = 8;
    private static final Enum<?>[] ENUMS = {DayOfWeek.MONDAY, DayOfWeek.SUNDAY, TimeUnit.NANOSECONDS, TimeUnit.DAYS};

    @FuzzTest(maxDuration = "10s")
    void encodesAnyStorableStateAndDecodesItBackEqual(FuzzedDataProvider data) {
        Object state = value(data, 0);
        byte[] encoded = CODEC.encode(state, ACTOR);
        Object decoded = CODEC.decode(encoded, ACTOR);
        assertTrue(same(state, decoded), () -> "decoded " + decoded + " for " + state);
        assertArrayEquals(encoded, CODEC.encode(decoded, ACTOR), "the decoded state encodes to the same bytes");
    }

    private static Object value(FuzzedDataProvider data, int depth) {
        int kind = data.consumeInt(0, depth >= MAX_DEPTH ? 16 : 24);
        return switch (kind) {
            case 0 -> null;
            case 1 -> data.consumeBoolean();
            case 2 -> data.consumeByte();
            case 3 -> data.consumeShort();
            case 4 -> data.consumeInt();
            case 5 -> data.consumeLong();
            case 6 -> Float.intBitsToFloat(data.consumeInt());
            case 7 -> Double.longBitsToDouble(data.consumeLong());
            case 8 -> data.consumeChar();
            case 9 -> data.consumeString(64);
            case 10 -> bigInteger(data.consumeBytes(40));
            case 11 -> new BigDecimal(BigInteger.valueOf(data.consumeLong()), data.consumeInt());
            case 12 -> Instant.ofEpochSecond(data.consumeLong(Instant.MIN.getEpochSecond(),
                    Instant.MAX.getEpochSecond()), data.consumeInt(0, 999_999_999));
            case 13 -> Duration.ofSeconds(data.consumeLong(), data.consumeInt(0, 999_999_999));
            case 14 -> new UUID(data.consumeLong(), data.consumeLong());
            case 15 -> ENUMS[data.consumeInt(0, ENUMS.length - 1)];
            case 16 -> new Failure(data.consumeString(32) + "x", data.consumeString(64));
            case 17 -> data.consumeBytes(MAX_ITEMS * 4);
            case 18 -> data.consumeInts(MAX_ITEMS);
            case 19 -> data.consumeLongs(MAX_ITEMS);
            case 20 -> new char[] {data.consumeChar(), data.consumeChar()};
            case 21 -> strings(data);
            case 22 -> list(data, depth);
            case 23 -> map(data, depth);
            default -> data.consumeBoolean() ? Optional.ofNullable(value(data, depth + 1)) : set(data);
        };
    }

    private static BigInteger bigInteger(byte[] twosComplement) {
        return twosComplement.length == 0 ? BigInteger.ZERO : new BigInteger(twosComplement);
    }

    private static String[] strings(FuzzedDataProvider data) {
        String[] strings = new String[data.consumeInt(0, MAX_ITEMS)];
        for (int i = 0; i < strings.length; i++) {
            strings[i] = data.consumeBoolean() ? null : data.consumeString(16);
        }
        return strings;
    }

    private static List<Object> list(FuzzedDataProvider data, int depth) {
        List<Object> list = new ArrayList<>();
        for (int i = data.consumeInt(0, MAX_ITEMS); i > 0; i--) {
            list.add(value(data, depth + 1));
        }
        return list;
    }

    /** Sets and map keys hold scalars only: an array has no value equality to hash by. */
    private static Set<Object> set(FuzzedDataProvider data) {
        Set<Object> set = new LinkedHashSet<>();
        for (int i = data.consumeInt(0, MAX_ITEMS); i > 0; i--) {
            set.add(scalar(data));
        }
        return set;
    }

    private static Map<Object, Object> map(FuzzedDataProvider data, int depth) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = data.consumeInt(0, MAX_ITEMS); i > 0; i--) {
            map.put(scalar(data), value(data, depth + 1));
        }
        return map;
    }

    private static Object scalar(FuzzedDataProvider data) {
        return value(data, MAX_DEPTH);
    }

    /** Equality as the format promises it: arrays by content, any list, set or map by content and order. */
    private static boolean same(Object expected, Object actual) {
        if (expected == null || actual == null) {
            return expected == actual;
        }
        if (expected.getClass().isArray()) {
            if (actual.getClass() != expected.getClass() || Array.getLength(expected) != Array.getLength(actual)) {
                return false;
            }
            for (int i = 0; i < Array.getLength(expected); i++) {
                if (!same(Array.get(expected, i), Array.get(actual, i))) {
                    return false;
                }
            }
            return true;
        }
        if (expected instanceof List<?> || expected instanceof Set<?>) {
            return actual instanceof Iterable<?> && sameOrder((Iterable<?>) expected, (Iterable<?>) actual)
                    && (expected instanceof List<?>) == (actual instanceof List<?>);
        }
        if (expected instanceof Map<?, ?> map) {
            return actual instanceof Map<?, ?> other && sameOrder(map.keySet(), other.keySet())
                    && sameOrder(map.values(), other.values());
        }
        if (expected instanceof Optional<?> optional) {
            return actual instanceof Optional<?> other && same(optional.orElse(null), other.orElse(null))
                    && optional.isPresent() == other.isPresent();
        }
        return Objects.equals(expected, actual) && expected.getClass() == actual.getClass();
    }

    private static boolean sameOrder(Iterable<?> expected, Iterable<?> actual) {
        Iterator<?> one = expected.iterator();
        Iterator<?> other = actual.iterator();
        while (one.hasNext() && other.hasNext()) {
            if (!same(one.next(), other.next())) {
                return false;
            }
        }
        return !one.hasNext() && !other.hasNext();
    }
}
