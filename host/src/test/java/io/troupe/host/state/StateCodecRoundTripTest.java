package io.troupe.host.state;

import static io.troupe.host.state.StateAssertions.assertDecodedAs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.Month;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorRef;
import io.troupe.api.Failure;
import io.troupe.api.Message;

/** Each stored type, with its edge values, comes back as documented. */
class StateCodecRoundTripTest {

    private static final String ACTOR = "handler:counter.add@acme";
    private final StateCodec codec = new StateCodec();

    private Object roundTrip(Object state) {
        Object decoded = codec.decode(codec.encode(state, ACTOR), ACTOR);
        assertDecodedAs(state, decoded);
        return decoded;
    }

    @Test
    void nullAndBooleansComeBack() {
        assertNull(roundTrip(null));
        assertSame(Boolean.TRUE, roundTrip(true));
        assertSame(Boolean.FALSE, roundTrip(false));
    }

    @Test
    void integersComeBackAtTheirExtremes() {
        for (byte value : new byte[] {Byte.MIN_VALUE, -1, 0, 1, Byte.MAX_VALUE}) {
            roundTrip(value);
        }
        for (short value : new short[] {Short.MIN_VALUE, -1, 0, 1, Short.MAX_VALUE}) {
            roundTrip(value);
        }
        for (int value : new int[] {Integer.MIN_VALUE, -65, -64, -1, 0, 1, 63, 64, 1 << 28, Integer.MAX_VALUE}) {
            roundTrip(value);
        }
        for (long value : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, 1L << 62, Long.MAX_VALUE}) {
            roundTrip(value);
        }
    }

    @Test
    void floatsAndDoublesComeBackBitForBitIncludingNaNPayloadsAndNegativeZero() {
        for (float value : new float[] {Float.NaN, Float.intBitsToFloat(0x7fa0_0001), Float.intBitsToFloat(0xffc0_0000),
                -0.0f, 0.0f, Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, Float.NEGATIVE_INFINITY,
                Float.POSITIVE_INFINITY, -1.5f}) {
            roundTrip(value);
        }
        for (double value : new double[] {Double.NaN, Double.longBitsToDouble(0x7ff0_0000_dead_beefL), -0.0, 0.0,
                Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, Double.NEGATIVE_INFINITY, Math.PI}) {
            roundTrip(value);
        }
    }

    @Test
    void charactersComeBackIncludingLoneSurrogates() {
        for (char value : new char[] {0, 'a', 0x7F, 0x80, 0x7FF, 0x800, 0xD800, 0xDFFF, 0xFFFE, Character.MAX_VALUE}) {
            roundTrip(value);
        }
    }

    @Test
    void stringsComeBackWithSurrogatePairsLoneSurrogatesAndEveryUtf8Length() {
        for (String value : List.of("", "a", "counter.add", "é", "€ and ¢", "日本語", "😀 smile", "a\uD83D\uDE00b",
                "\uD800", "\uDC00", "x\uDBFFy", "\uDC00\uD800", "\u0000nul", "\uFFFF",
                new String(Character.toChars(0x10FFFF)),
                "a".repeat(100_000), "é".repeat(70_000))) {
            roundTrip(value);
        }
    }

    @Test
    void aStringOfEveryCharValueComesBack() {
        char[] all = new char[Character.MAX_VALUE + 1];
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            all[c] = (char) c;
        }
        roundTrip(new String(all));
        roundTrip(all);
    }

    @Test
    void bigNumbersComeBackWithSignAndScale() {
        for (BigInteger value : List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(),
                BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE), BigInteger.TWO.pow(4_000).negate())) {
            roundTrip(value);
        }
        for (BigDecimal value : List.of(BigDecimal.ZERO, new BigDecimal("1.0"), new BigDecimal("1.00"),
                new BigDecimal("-123456789012345678901234567890.123456789"), new BigDecimal("1E+2147483647"),
                new BigDecimal("1E-2147483647"), new BigDecimal(BigInteger.TEN, Integer.MIN_VALUE))) {
            roundTrip(value);
        }
    }

    @Test
    void largeAndEmptyArraysComeBack() {
        byte[] large = new byte[3_000_000];
        new Random(7).nextBytes(large);
        assertArrayEquals(large, (byte[]) roundTrip(large));
        roundTrip(new byte[0]);
        roundTrip(new int[] {Integer.MIN_VALUE, -1, 0, Integer.MAX_VALUE});
        roundTrip(new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
        roundTrip(new short[] {Short.MIN_VALUE, Short.MAX_VALUE});
        roundTrip(new char[] {0, 0xD800, 0xFFFF});
        roundTrip(new boolean[] {true, false, true});
        roundTrip(new float[] {Float.NaN, -0.0f, Float.MAX_VALUE});
        roundTrip(new double[] {Double.NaN, -0.0, Double.MIN_VALUE});
        roundTrip(new double[0]);
    }

    @Test
    void referenceArraysKeepTheirComponentType() {
        assertEquals(Object[].class, roundTrip(new Object[] {1, "two", null, new Object[] {3L}}).getClass());
        assertEquals(String[].class, roundTrip(new String[] {"a", null, "😀"}).getClass());
        assertEquals(Long[].class, roundTrip(new Long[] {1L, Long.MIN_VALUE}).getClass());
        assertEquals(int[][].class, roundTrip(new int[][] {{1, 2}, {}, null}).getClass());
        assertEquals(String[][].class, roundTrip(new String[][] {{"a"}, {}}).getClass());
        assertEquals(TimeUnit[].class, roundTrip(new TimeUnit[] {TimeUnit.DAYS}).getClass());
        assertEquals(Number[].class, roundTrip(new Number[] {1, 2.5, BigInteger.TEN}).getClass());
        assertEquals(Map[].class, roundTrip(new Map<?, ?>[] {Map.of("a", 1)}).getClass());
        assertEquals(Message[].class, roundTrip(new Message[] {Message.of("n", "t")}).getClass());
        roundTrip(new Object[0]);
    }

    @Test
    void listsSetsAndMapsComeBackAsTheirInsertionOrderedFormsInIterationOrder() {
        assertEquals(ArrayList.class, roundTrip(List.of(3, 1, 2)).getClass());
        assertEquals(ArrayList.class, roundTrip(Collections.unmodifiableList(Arrays.asList(1, null, 3))).getClass());
        assertEquals(LinkedHashSet.class, roundTrip(Set.of("b", "a")).getClass());
        assertEquals(LinkedHashMap.class, roundTrip(Map.of("k", List.of())).getClass());
        TreeSet<String> sorted = new TreeSet<>(Comparator.reverseOrder());
        sorted.addAll(List.of("a", "c", "b"));
        assertEquals(List.of("c", "b", "a"), new ArrayList<>((Set<?>) roundTrip(sorted)));
        TreeMap<Integer, String> byNumber = new TreeMap<>(Map.of(3, "three", 1, "one", 2, "two"));
        Object decoded = roundTrip(byNumber);
        assertEquals(byNumber, decoded);
        assertEquals(List.of(1, 2, 3), new ArrayList<>(((Map<?, ?>) decoded).keySet()));
        roundTrip(new ConcurrentHashMap<>(Map.of("a", 1L, "b", 2L)));
        roundTrip(List.of());
        roundTrip(Set.of());
        roundTrip(Map.of());
    }

    @Test
    void mapsTakeKeysOfAnyStoredKind() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(null, "null key");
        map.put(42, "int");
        map.put(42L, "long");
        map.put(List.of(1, 2), "list");
        map.put(Map.of("nested", true), Set.of(1));
        map.put(new UUID(1, 2), Optional.of(3));
        map.put(TimeUnit.SECONDS, Duration.ofMillis(5));
        roundTrip(map);
    }

    @Test
    void optionalsTimeUuidAndJavaEnumsComeBack() {
        roundTrip(Optional.empty());
        roundTrip(Optional.of(List.of(Optional.of("deep"))));
        for (Instant value : List.of(Instant.MIN, Instant.MAX, Instant.EPOCH, Instant.ofEpochSecond(-1, 999_999_999),
                Instant.parse("2026-12-02T05:16:49.123456789Z"))) {
            roundTrip(value);
        }
        for (Duration value : List.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(Long.MIN_VALUE),
                Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofMillis(10))) {
            roundTrip(value);
        }
        roundTrip(UUID.randomUUID());
        roundTrip(new UUID(0, 0));
        roundTrip(new UUID(-1, -1));
        assertSame(TimeUnit.MILLISECONDS, roundTrip(TimeUnit.MILLISECONDS));
        assertSame(DayOfWeek.SUNDAY, roundTrip(DayOfWeek.SUNDAY));
        assertSame(Month.FEBRUARY, roundTrip(Month.FEBRUARY));
        assertSame(ChronoUnit.FOREVER, roundTrip(ChronoUnit.FOREVER));
        assertSame(Thread.State.WAITING, roundTrip(Thread.State.WAITING));
    }

    @Test
    void messagesComeBackWithNameAndContentButNotTheirClient() {
        ActorRef client = (ActorRef) Proxy.newProxyInstance(ActorRef.class.getClassLoader(),
                new Class<?>[] {ActorRef.class}, (proxy, method, args) -> null);
        Message received = new Message("chat.say", "héllo 😀".getBytes(StandardCharsets.UTF_8), client);
        Message decoded = (Message) codec.decode(codec.encode(received, ACTOR), ACTOR);
        assertEquals("chat.say", decoded.name());
        assertEquals("héllo 😀", decoded.text());
        assertNull(decoded.client());
        roundTrip(new Message("", new byte[0]));
        roundTrip(List.of(Message.of("a", "1"), Message.of("b", "2")));
    }

    @Test
    void failuresComeBack() {
        assertEquals(Failure.badRequest("no such counter"), roundTrip(Failure.badRequest("no such counter")));
        assertEquals(new Failure("x.y", ""), roundTrip(new Failure("x.y", null)));
    }

    @Test
    void nestingOf512LevelsComesBack() {
        Object state = "bottom";
        for (int i = 0; i < StateFormat.MAX_DEPTH; i++) {
            state = i % 3 == 0 ? List.of(state) : i % 3 == 1 ? Map.of("k", state) : Optional.of(state);
        }
        roundTrip(state);
    }

    @Test
    void aValueSharedBetweenTwoPlacesIsStoredInEach() {
        List<Integer> shared = List.of(1, 2);
        List<?> decoded = (List<?>) roundTrip(List.of(shared, shared));
        assertEquals(decoded.get(0), decoded.get(1));
    }
}
