package io.troupe.host.state;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.UUID;

import io.troupe.api.Failure;
import io.troupe.api.Message;

/**
 * Reads one tagged value, and everything in it, from a {@link StateInput}: lists come back as
 * {@link ArrayList}, sets as {@link LinkedHashSet}, maps as {@link LinkedHashMap}, in the order they were
 * written. Fails with a {@link StateFault} on an unknown tag, a value out of its type's range, a set or
 * map whose elements collide once decoded, or nesting deeper than {@link StateFormat#MAX_DEPTH}.
 *
 * <p><b>Threading:</b> one per {@link StateCodec#decode} call, confined to its thread.
 */
final class StateDecoder {

    private static final int NANOS_PER_SECOND = 1_000_000_000;

    private final StateInput in;
    private int depth;

    StateDecoder(StateInput in) {
        this.in = in;
    }

    Object read() {
        int at = in.position();
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case StateFormat.NULL -> null;
            case StateFormat.FALSE -> Boolean.FALSE;
            case StateFormat.TRUE -> Boolean.TRUE;
            case StateFormat.BYTE -> (byte) in.readByte();
            case StateFormat.SHORT -> readShort(at);
            case StateFormat.INT -> in.readZigZagInt();
            case StateFormat.LONG -> in.readZigZagLong();
            case StateFormat.FLOAT -> Float.intBitsToFloat(in.readFixedInt());
            case StateFormat.DOUBLE -> Double.longBitsToDouble(in.readFixedLong());
            case StateFormat.CHAR -> readChar(at);
            case StateFormat.STRING -> in.readString();
            case StateFormat.BIG_INTEGER -> readBigInteger();
            case StateFormat.BIG_DECIMAL -> readBigDecimal();
            case StateFormat.BYTE_ARRAY -> in.readLengthPrefixed("a byte[]");
            case StateFormat.BOOLEAN_ARRAY, StateFormat.SHORT_ARRAY, StateFormat.INT_ARRAY, StateFormat.LONG_ARRAY,
                    StateFormat.FLOAT_ARRAY, StateFormat.DOUBLE_ARRAY, StateFormat.CHAR_ARRAY ->
                    readPrimitiveArray(tag);
            case StateFormat.OBJECT_ARRAY -> readArray(Object.class);
            case StateFormat.TYPED_ARRAY -> readArray(readComponentType());
            case StateFormat.LIST -> readList();
            case StateFormat.SET -> readSet();
            case StateFormat.MAP -> readMap();
            case StateFormat.OPTIONAL_EMPTY -> Optional.empty();
            case StateFormat.OPTIONAL -> readOptional(at);
            case StateFormat.INSTANT -> readInstant(at);
            case StateFormat.DURATION -> Duration.ofSeconds(in.readZigZagLong(), readNanos());
            case StateFormat.UUID -> new UUID(in.readFixedLong(), in.readFixedLong());
            case StateFormat.ENUM -> readEnum(at);
            case StateFormat.MESSAGE -> new Message(in.readString(), in.readLengthPrefixed("a message's content"));
            case StateFormat.FAILURE -> new Failure(in.readString(), in.readString());
            default -> throw StateFault.unreadable(at, String.format("unknown tag 0x%02x", tag));
        };
    }

    private Short readShort(int at) {
        int value = in.readZigZagInt();
        if (value != (short) value) {
            throw StateFault.unreadable(at, "a Short of " + value + " is out of range");
        }
        return (short) value;
    }

    private Character readChar(int at) {
        int value = in.readVarInt();
        if (value < 0 || value > Character.MAX_VALUE) {
            throw StateFault.unreadable(at, "a Character of " + Integer.toUnsignedString(value) + " is out of range");
        }
        return (char) value;
    }

    private BigInteger readBigInteger() {
        int at = in.position();
        byte[] magnitude = in.readLengthPrefixed("a BigInteger");
        if (magnitude.length == 0) {
            throw StateFault.unreadable(at, "a BigInteger of no bytes");
        }
        return new BigInteger(magnitude);
    }

    private BigDecimal readBigDecimal() {
        int scale = in.readZigZagInt();
        return new BigDecimal(readBigInteger(), scale);
    }

    private int readNanos() {
        int at = in.position();
        int nanos = in.readVarInt();
        if (nanos < 0 || nanos >= NANOS_PER_SECOND) {
            throw StateFault.unreadable(at, "nanoseconds of " + Integer.toUnsignedString(nanos) + " are out of range");
        }
        return nanos;
    }

    private Instant readInstant(int at) {
        long seconds = in.readZigZagLong();
        int nanos = readNanos();
        try {
            return Instant.ofEpochSecond(seconds, nanos);
        } catch (DateTimeException e) {
            throw StateFault.unreadable(at, "an Instant of " + seconds + " s is out of range");
        }
    }

    private Enum<?> readEnum(int at) {
        String typeName = in.readString();
        String constantName = in.readString();
        Class<?> type = JavaEnums.load(typeName);
        if (type == null) {
            throw StateFault.unreadable(at, "an enum of " + typeName + ", which is not an enum of java.*");
        }
        Enum<?> constant = JavaEnums.constant(type, constantName);
        if (constant == null) {
            throw StateFault.unreadable(at, "the enum " + typeName + " has no constant " + constantName);
        }
        return constant;
    }

    private Object readPrimitiveArray(int tag) {
        switch (tag) {
            case StateFormat.BOOLEAN_ARRAY: {
                boolean[] array = new boolean[in.readCount("a boolean[]", 1)];
                for (int i = 0; i < array.length; i++) {
                    int at = in.position();
                    int flag = in.readByte();
                    if (flag != 0 && flag != 1) {
                        throw StateFault.unreadable(at, "a boolean of " + flag + " at index " + i + " of a boolean[]");
                    }
                    array[i] = flag == 1;
                }
                return array;
            }
            case StateFormat.SHORT_ARRAY: {
                short[] array = new short[in.readCount("a short[]", 1)];
                for (int i = 0; i < array.length; i++) {
                    array[i] = readShort(in.position());
                }
                return array;
            }
            case StateFormat.INT_ARRAY: {
                int[] array = new int[in.readCount("an int[]", 1)];
                for (int i = 0; i < array.length; i++) {
                    array[i] = in.readZigZagInt();
                }
                return array;
            }
            case StateFormat.LONG_ARRAY: {
                long[] array = new long[in.readCount("a long[]", 1)];
                for (int i = 0; i < array.length; i++) {
                    array[i] = in.readZigZagLong();
                }
                return array;
            }
            case StateFormat.FLOAT_ARRAY: {
                float[] array = new float[in.readCount("a float[]", 4)];
                for (int i = 0; i < array.length; i++) {
                    array[i] = Float.intBitsToFloat(in.readFixedInt());
                }
                return array;
            }
            case StateFormat.DOUBLE_ARRAY: {
                double[] array = new double[in.readCount("a double[]", 8)];
                for (int i = 0; i < array.length; i++) {
                    array[i] = Double.longBitsToDouble(in.readFixedLong());
                }
                return array;
            }
            default: {
                char[] array = new char[in.readCount("a char[]", 1)];
                for (int i = 0; i < array.length; i++) {
                    array[i] = readChar(in.position());
                }
                return array;
            }
        }
    }

    private Class<?> readComponentType() {
        int at = in.position();
        String name = in.readString();
        Class<?> component = ArrayComponentTypes.resolve(name);
        if (component == null) {
            throw StateFault.unreadable(at, "an array of " + name + ", which is not a storable component type");
        }
        return component;
    }

    private Object[] readArray(Class<?> component) {
        enter();
        Object[] array = (Object[]) Array.newInstance(component, in.readCount("an array", 1));
        int index = 0;
        try {
            for (; index < array.length; index++) {
                int at = in.position();
                Object element = read();
                if (element != null && !component.isInstance(element)) {
                    throw StateFault.unreadable(at, "a " + element.getClass().getName() + " in an array of "
                            + component.getName());
                }
                array[index] = element;
            }
        } catch (StateFault fault) {
            throw fault.atIndex(index);
        }
        depth--;
        return array;
    }

    private ArrayList<Object> readList() {
        enter();
        int size = in.readCount("a list", 1);
        ArrayList<Object> list = new ArrayList<>(size);
        int index = 0;
        try {
            for (; index < size; index++) {
                list.add(read());
            }
        } catch (StateFault fault) {
            throw fault.atIndex(index);
        }
        depth--;
        return list;
    }

    private LinkedHashSet<Object> readSet() {
        enter();
        int size = in.readCount("a set", 1);
        LinkedHashSet<Object> set = new LinkedHashSet<>(hashCapacity(size));
        int index = 0;
        try {
            for (; index < size; index++) {
                int at = in.position();
                if (!set.add(read())) {
                    throw StateFault.unreadable(at, "an element equal to an earlier one of its set (was the set"
                            + " an identity set, or sorted by a comparator inconsistent with equals?)");
                }
            }
        } catch (StateFault fault) {
            throw fault.atIndex(index);
        }
        depth--;
        return set;
    }

    private LinkedHashMap<Object, Object> readMap() {
        enter();
        int size = in.readCount("a map", 2);
        LinkedHashMap<Object, Object> map = new LinkedHashMap<>(hashCapacity(size));
        for (int index = 0; index < size; index++) {
            int at = in.position();
            Object key;
            try {
                key = read();
            } catch (StateFault fault) {
                throw fault.atKeyOf(index);
            }
            if (map.containsKey(key)) {
                throw StateFault.unreadable(at, "a key equal to an earlier one of its map (was the map an"
                        + " IdentityHashMap, or sorted by a comparator inconsistent with equals?)").atKeyOf(index);
            }
            try {
                map.put(key, read());
            } catch (StateFault fault) {
                throw fault.atKey(key);
            }
        }
        depth--;
        return map;
    }

    private Optional<Object> readOptional(int at) {
        enter();
        Object value;
        try {
            value = read();
        } catch (StateFault fault) {
            throw fault.inOptional();
        }
        if (value == null) {
            throw StateFault.unreadable(at, "an Optional of null");
        }
        depth--;
        return Optional.of(value);
    }

    private void enter() {
        if (++depth > StateFormat.MAX_DEPTH) {
            throw StateFault.unreadable(in.position(), "values nested more than " + StateFormat.MAX_DEPTH
                    + " levels deep");
        }
    }

    private static int hashCapacity(int size) {
        return (int) Math.min(1 << 30, (long) size * 4 / 3 + 1);
    }
}
