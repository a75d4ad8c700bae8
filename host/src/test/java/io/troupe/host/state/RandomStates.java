package io.troupe.host.state;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.troupe.api.Failure;
import io.troupe.api.Message;

/**
 * Generates nested values of every kind the state format stores, from a seeded {@link Random}, with the
 * edge values (extremes, NaN with a payload, negative zero, empty containers, surrogate pairs and lone
 * surrogates) drawn often. The same seed gives the same values.
 *
 * <p><b>Threading:</b> confined to one test thread.
 */
final class RandomStates {

    private static final int LEAF_KINDS = 24;
    private static final int CONTAINER_KINDS = 15;

    private final Random random;

    RandomStates(long seed) {
        random = new Random(seed);
    }

    /** A container nested at most {@code depth} containers deep (a leaf when depth is 0), as a state often is. */
    Object state(int depth) {
        return depth > 0 ? container(depth - 1) : leaf();
    }

    /** A value nested at most {@code depth} containers deep. */
    Object value(int depth) {
        return depth > 0 && random.nextInt(5) < 2 ? container(depth - 1) : leaf();
    }

    private Object container(int depth) {
        int size = random.nextInt(5) == 0 ? 0 : random.nextInt(8) + 1;
        return switch (random.nextInt(CONTAINER_KINDS)) {
            case 0 -> fill(new ArrayList<>(), size, depth);
            case 1 -> fill(new LinkedList<>(), size, depth);
            case 2 -> Arrays.asList(fill(new ArrayList<>(), size, depth).toArray());
            case 3 -> Collections.unmodifiableList(fill(new ArrayList<>(), size, depth));
            case 4 -> fill(new HashSet<>(), size, depth);
            case 5 -> fill(new LinkedHashSet<>(), size, depth);
            case 6 -> strings(new TreeSet<>(), size);
            case 7 -> fillMap(new HashMap<>(), size, depth);
            case 8 -> fillMap(new LinkedHashMap<>(), size, depth);
            case 9 -> stringKeyed(new TreeMap<>(), size, depth);
            case 10 -> fill(new ArrayList<>(), size, depth).toArray();
            case 11 -> strings(new ArrayList<>(), size).toArray(new String[0]);
            case 12 -> new int[][] {ints(size), ints(random.nextInt(3))};
            case 13 -> random.nextBoolean() ? Optional.empty() : Optional.of(nonNull(depth));
            default -> Map.of("total", random.nextLong(), "items", fill(new ArrayList<>(), size, depth));
        };
    }

    private Object nonNull(int depth) {
        Object value = value(depth);
        return value == null ? "x" : value;
    }

    private <C extends java.util.Collection<Object>> C fill(C collection, int size, int depth) {
        for (int i = 0; i < size; i++) {
            collection.add(value(depth));
        }
        return collection;
    }

    private <C extends java.util.Collection<? super String>> C strings(C collection, int size) {
        for (int i = 0; i < size; i++) {
            collection.add(string());
        }
        return collection;
    }

    private Map<Object, Object> fillMap(Map<Object, Object> map, int size, int depth) {
        for (int i = 0; i < size; i++) {
            map.put(random.nextInt(5) == 0 ? value(depth) : leaf(), value(depth));
        }
        return map;
    }

    private Map<String, Object> stringKeyed(Map<String, Object> map, int size, int depth) {
        for (int i = 0; i < size; i++) {
            map.put(string(), value(depth));
        }
        return map;
    }

    Object leaf() {
        return switch (random.nextInt(LEAF_KINDS)) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> (byte) random.nextInt();
            case 3 -> pick((short) random.nextInt(), Short.MIN_VALUE, Short.MAX_VALUE, (short) 0, (short) -1);
            case 4 -> pick(random.nextInt(), Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, random.nextInt(200) - 100);
            case 5 -> pick(random.nextLong(), Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, (long) random.nextInt(1000));
            case 6 -> pick(random.nextFloat() * 1e6f, Float.NaN, Float.intBitsToFloat(0x7fc0_0001), -0.0f,
                    Float.MIN_VALUE, Float.MAX_VALUE, Float.NEGATIVE_INFINITY);
            case 7 -> pick(random.nextGaussian() * 1e9, Double.NaN, Double.longBitsToDouble(0x7ff0_0000_0000_0001L),
                    -0.0, Double.MIN_VALUE, Double.MAX_VALUE, Double.POSITIVE_INFINITY);
            case 8 -> (char) random.nextInt(Character.MAX_VALUE + 1);
            case 9, 10 -> string();
            case 11 -> new BigInteger(random.nextInt(300), random).multiply(BigInteger.valueOf(random.nextInt(3) - 1));
            case 12 -> new BigDecimal(new BigInteger(random.nextInt(200), random), random.nextInt(101) - 50);
            case 13 -> bytes(random.nextInt(4) == 0 ? 0 : random.nextInt(300));
            case 14 -> primitiveArray();
            case 15 -> pick(Instant.ofEpochSecond(random.nextInt(), random.nextInt(1_000_000_000)), Instant.MIN,
                    Instant.MAX, Instant.EPOCH);
            case 16 -> Duration.ofSeconds(random.nextLong() >> random.nextInt(64), random.nextInt(1_000_000_000));
            case 17 -> new UUID(random.nextLong(), random.nextLong());
            case 18 -> pick(TimeUnit.values()[random.nextInt(7)], DayOfWeek.of(random.nextInt(7) + 1),
                    ChronoUnit.values()[random.nextInt(ChronoUnit.values().length)], Thread.State.BLOCKED);
            case 19 -> new Message(string(), bytes(random.nextInt(40)));
            case 20 -> new Failure(string(), string());
            case 21 -> Optional.of(string());
            case 22 -> Optional.empty();
            default -> random.nextInt(1000);
        };
    }

    private Object primitiveArray() {
        int length = random.nextInt(20);
        return switch (random.nextInt(7)) {
            case 0 -> ints(length);
            case 1 -> random.longs(length).toArray();
            case 2 -> random.doubles(length).map(d -> d * 1e300 - 5e299).toArray();
            case 3 -> new float[] {random.nextFloat(), Float.NaN, -0.0f};
            case 4 -> new short[] {(short) random.nextInt(), Short.MIN_VALUE, Short.MAX_VALUE};
            case 5 -> string().toCharArray();
            default -> new boolean[] {random.nextBoolean(), true, false};
        };
    }

    private int[] ints(int length) {
        int[] values = random.ints(length).toArray();
        if (length > 1) {
            values[0] = Integer.MIN_VALUE;
            values[1] = Integer.MAX_VALUE;
        }
        return values;
    }

    private byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** ASCII, Latin, CJK, supplementary code points (surrogate pairs) and lone surrogates, mixed. */
    String string() {
        int length = random.nextInt(4) == 0 ? 0 : random.nextInt(24);
        StringBuilder text = new StringBuilder(length * 2);
        int alphabet = random.nextInt(5);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(alphabet + 1)) {
                case 0 -> text.append((char) ('a' + random.nextInt(26)));
                case 1 -> text.append((char) (0x80 + random.nextInt(0x780)));
                case 2 -> text.append((char) (0x800 + random.nextInt(0xD000)));
                case 3 -> text.appendCodePoint(0x10000 + random.nextInt(0x100000));
                default -> text.append((char) (0xD800 + random.nextInt(0x800)));
            }
        }
        return text.toString();
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
        return choices[random.nextInt(4) == 0 ? 0 : random.nextInt(choices.length)];
    }
}
