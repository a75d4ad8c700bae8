package io.troupe.config;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A component property type (an annotation interface, as Declarative Services uses them) backed by
 * values that {@link ConfigurationCheck} has accepted: each method returns its key's value converted
 * to the method's return type, or the method's default when the key is absent.
 *
 * <p>Declarative Services builds such an object itself, but it converts a value that does not fit
 * (a port of {@code "ninety"}) to the type's zero without a word; this view only ever sees checked
 * values, so its conversions cannot fail (a value it cannot read, which only a map the check did not
 * make can hold, fails the method with the key named; it is never read as a zero or {@code false}).
 * Keys follow the DS mapping of method names: {@code _} is a dot, {@code __} an underscore,
 * {@code $_$} a dash, {@code $$} a dollar, a lone {@code $} nothing ({@code workers_max()} reads
 * {@code workers.max}).
 *
 * <p><b>Threading:</b> the views are immutable; any thread.
 */
public final class TypedConfiguration {

    private TypedConfiguration() {
    }

    /** A view of {@code values} (absent keys: the methods' defaults) as {@code type}. */
    public static <A extends Annotation> A view(Class<A> type, Map<String, Object> values) {
        Map<String, Object> copy = Map.copyOf(values);
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> invoke(type, copy, self, method, args));
        return type.cast(proxy);
    }

    /** The key of a property type method, by the Declarative Services name mapping. */
    public static String key(String methodName) {
        StringBuilder key = new StringBuilder(methodName.length());
        int length = methodName.length();
        for (int i = 0; i < length; i++) {
            char c = methodName.charAt(i);
            if (c == '$') {
                if (methodName.startsWith("$_$", i)) {
                    key.append('-');
                    i += 2;
                } else if (i + 1 < length && methodName.charAt(i + 1) == '$') {
                    key.append('$');
                    i++;
                }
            } else if (c == '_') {
                if (i + 1 < length && methodName.charAt(i + 1) == '_') {
                    key.append('_');
                    i++;
                } else {
                    key.append('.');
                }
            } else {
                key.append(c);
            }
        }
        return key.toString();
    }

    private static Object invoke(Class<?> type, Map<String, Object> values, Object self, Method method,
            Object[] args) {
        String name = method.getName();
        if (method.getParameterCount() == 0) {
            switch (name) {
                case "annotationType":
                    return type;
                case "toString":
                    return type.getSimpleName() + new TreeMap<>(values);
                case "hashCode":
                    return values.hashCode();
                default:
                    return value(values, method);
            }
        }
        if (name.equals("equals") && args.length == 1) {
            return self == args[0];
        }
        throw new UnsupportedOperationException(method.toString());
    }

    /**
     * The value of {@code method}'s key as its return type, or its default when the key is absent.
     *
     * @throws IllegalStateException naming the key (not the value: it may be a password) when the value cannot be
     *                               read as the type, which only a value that {@link ConfigurationCheck} did not
     *                               accept can cause
     */
    private static Object value(Map<String, Object> values, Method method) {
        String key = key(method.getName());
        Object value = values.get(key);
        if (value == null) {
            return method.getDefaultValue();
        }
        try {
            return convert(value, method.getReturnType());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the value of " + key + " cannot be read as "
                    + method.getReturnType().getSimpleName() + " (not a value ConfigurationCheck accepted): "
                    + e.getClass().getSimpleName(), e);
        }
    }

    /**
     * {@code value}, a checked String or a Number or Boolean, as {@code target}.
     *
     * @throws IllegalArgumentException when it is not one ({@link NumberFormatException} for a number), a
     *                                  boolean included: only {@code true} and {@code false} are one
     */
    static Object convert(Object value, Class<?> target) {
        if (target.isArray()) {
            String[] parts = value instanceof String[] array ? array : new String[] {value.toString()};
            Object result = java.lang.reflect.Array.newInstance(target.getComponentType(), parts.length);
            for (int i = 0; i < parts.length; i++) {
                java.lang.reflect.Array.set(result, i, convert(parts[i], target.getComponentType()));
            }
            return result;
        }
        String text = value.toString().trim();
        if (target == String.class) {
            return text;
        } else if (target == int.class || target == Integer.class) {
            return Integer.valueOf(text);
        } else if (target == long.class || target == Long.class) {
            return Long.valueOf(text);
        } else if (target == boolean.class || target == Boolean.class) {
            return parseBoolean(text);
        } else if (target == double.class || target == Double.class) {
            return Double.valueOf(text);
        } else if (target.isEnum()) {
            return enumConstant(target, text);
        }
        throw new IllegalArgumentException("no conversion to " + target + " for " + Arrays.asList(value));
    }

    /** Like {@link Boolean#parseBoolean}, without reading everything but {@code true} as {@code false}. */
    private static Boolean parseBoolean(String text) {
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.valueOf(text);
        }
        throw new IllegalArgumentException("not true or false");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> target, String text) {
        return Enum.valueOf((Class) target, text);
    }
}
