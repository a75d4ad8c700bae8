package io.troupe.host.actor;

/**
 * The readable part of a derived actor name: the simple name of the class that made the actor's
 * factory, without the JVM's decorations. A lambda or method reference ({@code Main$$Lambda$14/0x…})
 * and an anonymous class ({@code Main$1}) name the class they were written in ({@code Main}); a
 * nested class keeps its simple name ({@code Outer$Counter} is {@code Counter}).
 *
 * <p><b>Threading:</b> any thread; the names are cached per class in a {@link ClassValue}, which holds
 * no class alive (a plugin's classes can still be collected when it goes away).
 */
final class ReadableName {

    private ReadableName() {
    }

    /** Computed once per class, so that every actor of a class shares one string. */
    private static final ClassValue<String> NAMES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            return derive(type);
        }
    };

    static String of(Class<?> type) {
        return NAMES.get(type);
    }

    private static String derive(Class<?> type) {
        String name = type.getName();
        int lambda = name.indexOf("$$Lambda");
        if (lambda >= 0) {
            name = name.substring(0, lambda);
        }
        name = name.substring(name.lastIndexOf('.') + 1);
        // drop anonymous-class numbers at the end: Main$1 -> Main, Outer$Inner$2 -> Outer$Inner
        int end = name.length();
        while (true) {
            int dollar = name.lastIndexOf('$', end - 1);
            if (dollar < 0 || dollar == end - 1 || !isDigits(name, dollar + 1, end)) {
                break;
            }
            end = dollar;
        }
        name = name.substring(0, end);
        int nested = name.lastIndexOf('$');
        return nested >= 0 && nested < name.length() - 1 ? name.substring(nested + 1) : name;
    }

    private static boolean isDigits(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
