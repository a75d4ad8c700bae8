package io.troupe.host.state;

/**
 * Which enums a state may hold: those of {@code java.*} packages only ({@code TimeUnit},
 * {@code DayOfWeek}, {@code ChronoUnit}…), stored by class and constant name. A plugin's enum is the
 * plugin's own class and is refused like any other. Only the JDK's loaders are ever asked for a class,
 * and only for a {@code java.*} name, which no bundle can define.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class JavaEnums {

    private JavaEnums() {
    }

    /** Whether {@code type} is an enum declared in a {@code java.*} package. */
    static boolean isJavaEnum(Class<?> type) {
        return type.isEnum() && type.getName().startsWith("java.");
    }

    /** The {@code java.*} enum named {@code name}, or {@code null} when there is none. */
    static Class<?> load(String name) {
        if (!name.startsWith("java.")) {
            return null;
        }
        try {
            Class<?> type = Class.forName(name, false, ClassLoader.getPlatformClassLoader());
            return type.isEnum() ? type : null;
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** The constant {@code constant} of the enum {@code type}, or {@code null} when there is none. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Enum<?> constant(Class<?> type, String constant) {
        try {
            return Enum.valueOf((Class) type, constant);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
