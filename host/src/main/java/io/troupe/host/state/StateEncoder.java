package io.troupe.host.state;

import static io.troupe.host.state.StateFormat.MAX_DEPTH;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import io.troupe.api.ActorRef;
import io.troupe.api.Failure;
import io.troupe.api.Message;

/**
 * Writes one value, and everything in it, as tagged values into a {@link StateBuffer}, depth first.
 * Refuses, by throwing a {@link StateFault}, any type the format does not store, a container that
 * contains itself, nesting deeper than {@link StateFormat#MAX_DEPTH} and a collection that changes
 * while it is written. Shared (non-cyclic) references are written once per occurrence.
 *
 * <p><b>Threading:</b> one per {@link StateCodec#encode} call, confined to its thread.
 */
final class StateEncoder {

    private static final String VALUE_TYPES_ONLY = "only JDK and API value types can be stored: keep the plugin's own"
            + " classes out of exportState (see docs/state-format.md)";

    private final StateBuffer out;
    /** The containers from the root down to the value being written, to find cycles; grown on demand. */
    private Object[] open = new Object[0];
    private int depth;

    StateEncoder(StateBuffer out) {
        this.out = out;
    }

    void write(Object value) {
        if (value == null) {
            out.writeByte(StateFormat.NULL);
        } else if (value instanceof String text) {
            out.writeByte(StateFormat.STRING);
            out.writeString(text);
        } else if (value instanceof Long number) {
            out.writeByte(StateFormat.LONG);
            out.writeZigZagLong(number);
        } else if (value instanceof Integer number) {
            out.writeByte(StateFormat.INT);
            out.writeZigZagInt(number);
        } else if (value instanceof Boolean flag) {
            out.writeByte(flag ? StateFormat.TRUE : StateFormat.FALSE);
        } else if (value instanceof List<?> list) {
            writeElements(StateFormat.LIST, list);
        } else if (value instanceof Map<?, ?> map) {
            writeMap(map);
        } else if (value instanceof Set<?> set) {
            writeElements(StateFormat.SET, set);
        } else if (value instanceof byte[] bytes) {
            out.writeByte(StateFormat.BYTE_ARRAY);
            out.writeLengthPrefixed(bytes);
        } else if (value instanceof Double number) {
            out.writeByte(StateFormat.DOUBLE);
            out.writeFixedLong(Double.doubleToRawLongBits(number));
        } else if (value instanceof Message message) {
            out.writeByte(StateFormat.MESSAGE);
            out.writeString(message.name());
            out.writeLengthPrefixed(message.content());
        } else if (value instanceof Object[] array) {
            writeArray(array);
        } else {
            writeOther(value);
        }
    }

    /** The less frequent types, kept out of {@link #write} so that it stays small enough to inline. */
    private void writeOther(Object value) {
        if (value instanceof Short number) {
            out.writeByte(StateFormat.SHORT);
            out.writeZigZagInt(number);
        } else if (value instanceof Byte number) {
            out.writeByte(StateFormat.BYTE);
            out.writeByte(number);
        } else if (value instanceof Float number) {
            out.writeByte(StateFormat.FLOAT);
            out.writeFixedInt(Float.floatToRawIntBits(number));
        } else if (value instanceof Character c) {
            out.writeByte(StateFormat.CHAR);
            out.writeVarInt(c);
        } else if (value.getClass() == BigInteger.class) {
            out.writeByte(StateFormat.BIG_INTEGER);
            out.writeLengthPrefixed(((BigInteger) value).toByteArray());
        } else if (value.getClass() == BigDecimal.class) {
            BigDecimal decimal = (BigDecimal) value;
            out.writeByte(StateFormat.BIG_DECIMAL);
            out.writeZigZagInt(decimal.scale());
            out.writeLengthPrefixed(decimal.unscaledValue().toByteArray());
        } else if (value instanceof Optional<?> optional) {
            writeOptional(optional);
        } else if (value instanceof Instant instant) {
            out.writeByte(StateFormat.INSTANT);
            out.writeZigZagLong(instant.getEpochSecond());
            out.writeVarInt(instant.getNano());
        } else if (value instanceof Duration duration) {
            out.writeByte(StateFormat.DURATION);
            out.writeZigZagLong(duration.getSeconds());
            out.writeVarInt(duration.getNano());
        } else if (value instanceof UUID uuid) {
            out.writeByte(StateFormat.UUID);
            out.writeFixedLong(uuid.getMostSignificantBits());
            out.writeFixedLong(uuid.getLeastSignificantBits());
        } else if (value instanceof Failure failure) {
            out.writeByte(StateFormat.FAILURE);
            out.writeString(failure.code());
            out.writeString(failure.detail());
        } else if (value instanceof Enum<?> constant && JavaEnums.isJavaEnum(constant.getDeclaringClass())) {
            out.writeByte(StateFormat.ENUM);
            out.writeString(constant.getDeclaringClass().getName());
            out.writeString(constant.name());
        } else {
            writePrimitiveArray(value);
        }
    }

    private void writePrimitiveArray(Object value) {
        if (value instanceof int[] array) {
            out.writeByte(StateFormat.INT_ARRAY);
            out.writeVarInt(array.length);
            for (int element : array) {
                out.writeZigZagInt(element);
            }
        } else if (value instanceof long[] array) {
            out.writeByte(StateFormat.LONG_ARRAY);
            out.writeVarInt(array.length);
            for (long element : array) {
                out.writeZigZagLong(element);
            }
        } else if (value instanceof double[] array) {
            out.writeByte(StateFormat.DOUBLE_ARRAY);
            out.writeVarInt(array.length);
            for (double element : array) {
                out.writeFixedLong(Double.doubleToRawLongBits(element));
            }
        } else if (value instanceof float[] array) {
            out.writeByte(StateFormat.FLOAT_ARRAY);
            out.writeVarInt(array.length);
            for (float element : array) {
                out.writeFixedInt(Float.floatToRawIntBits(element));
            }
        } else if (value instanceof short[] array) {
            out.writeByte(StateFormat.SHORT_ARRAY);
            out.writeVarInt(array.length);
            for (short element : array) {
                out.writeZigZagInt(element);
            }
        } else if (value instanceof char[] array) {
            out.writeByte(StateFormat.CHAR_ARRAY);
            out.writeVarInt(array.length);
            for (char element : array) {
                out.writeVarInt(element);
            }
        } else if (value instanceof boolean[] array) {
            out.writeByte(StateFormat.BOOLEAN_ARRAY);
            out.writeVarInt(array.length);
            for (boolean element : array) {
                out.writeByte(element ? 1 : 0);
            }
        } else {
            throw refusal(value);
        }
    }

    private void writeElements(int tag, Collection<?> elements) {
        enter(elements);
        out.writeByte(tag);
        int size = elements.size();
        out.writeVarInt(size);
        int index = 0;
        try {
            for (Object element : elements) {
                write(element);
                index++;
            }
        } catch (StateFault fault) {
            throw fault.atIndex(index);
        }
        requireSize(elements, size, index);
        exit();
    }

    private void writeMap(Map<?, ?> map) {
        enter(map);
        out.writeByte(StateFormat.MAP);
        int size = map.size();
        out.writeVarInt(size);
        int index = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            Object key = entry.getKey();
            try {
                write(key);
            } catch (StateFault fault) {
                throw fault.atKeyOf(index);
            }
            try {
                write(entry.getValue());
            } catch (StateFault fault) {
                throw fault.atKey(key);
            }
            index++;
        }
        requireSize(map, size, index);
        exit();
    }

    private void writeArray(Object[] array) {
        Class<?> component = array.getClass().getComponentType();
        if (component != Object.class && !ArrayComponentTypes.isStorable(component)) {
            throw refusal(array);
        }
        enter(array);
        if (component == Object.class) {
            out.writeByte(StateFormat.OBJECT_ARRAY);
        } else {
            out.writeByte(StateFormat.TYPED_ARRAY);
            out.writeString(component.getName());
        }
        out.writeVarInt(array.length);
        int index = 0;
        try {
            for (; index < array.length; index++) {
                write(array[index]);
            }
        } catch (StateFault fault) {
            throw fault.atIndex(index);
        }
        exit();
    }

    private void writeOptional(Optional<?> optional) {
        if (optional.isEmpty()) {
            out.writeByte(StateFormat.OPTIONAL_EMPTY);
            return;
        }
        enter(optional);
        out.writeByte(StateFormat.OPTIONAL);
        try {
            write(optional.get());
        } catch (StateFault fault) {
            throw fault.inOptional();
        }
        exit();
    }

    private void enter(Object container) {
        for (int i = 0; i < depth; i++) {
            if (open[i] == container) {
                throw StateFault.unstorable(container.getClass().getName(), "a cycle (a "
                        + container.getClass().getName() + " that contains itself)", "state must be a tree of values");
            }
        }
        if (depth == MAX_DEPTH) {
            throw StateFault.unstorable(container.getClass().getName(), "values nested more than " + MAX_DEPTH
                    + " levels deep", "flatten the state");
        }
        if (depth == open.length) {
            open = Arrays.copyOf(open, Math.max(8, depth * 2));
        }
        open[depth++] = container;
    }

    private void exit() {
        open[--depth] = null;
    }

    private static void requireSize(Object container, int size, int written) {
        if (written != size) {
            throw StateFault.unstorable(container.getClass().getName(), "a " + container.getClass().getName()
                    + " that changed while it was encoded (size " + size + ", " + written + " elements)",
                    "state must not change outside the actor's turn");
        }
    }

    private static StateFault refusal(Object value) {
        Class<?> type = value.getClass();
        String name = type.getName();
        String advice = VALUE_TYPES_ONLY;
        if (value instanceof ActorRef) {
            advice = "an ActorRef is a runtime address, meaningless after a restart: store the actor's name instead";
        } else if (type.isSynthetic() || name.contains("$$Lambda")) {
            advice = "a lambda is code, not a value: store the data it needs instead";
        } else if (value instanceof Collection<?>) {
            advice = "only a List, Set or Map can be stored: copy it into one (an ArrayList keeps its order)";
        } else if (type.isArray()) {
            advice = "an array's component type must be a stored value type, Object, Number, List, Set or Map";
        } else if (value instanceof Enum<?>) {
            advice = "only enums of java.* are stored: store the constant's name() and valueOf it back";
        } else if (value instanceof BigInteger || value instanceof BigDecimal) {
            advice = "store a BigInteger or BigDecimal itself, not a subclass";
        }
        return StateFault.unstorable(name, name, advice);
    }
}
