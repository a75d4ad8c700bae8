package io.troupe.config;

import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.felix.metatype.AD;
import org.osgi.service.metatype.AttributeDefinition;

/**
 * Checks the raw properties of a configuration against the typed model of one component property
 * type (an annotation interface with {@code @ObjectClassDefinition}), before anything uses them.
 *
 * <p>For each attribute of the {@link ConfigurationSchema}:
 * <ul>
 * <li>absent: its default applies (the annotation method's default); an attribute without a default
 *     that is required is a problem ({@code missing});</li>
 * <li>present: it is made text (FileInstall delivers text; a typed configuration may hold an
 *     {@code Integer} or {@code Boolean}, but a string attribute must hold a {@code String}) and
 *     validated by the attribute definition (type, minimum and maximum, options, required), which
 *     is Felix Metatype's {@code AD.validate}, the code behind the MetaTypeService's
 *     {@code AttributeDefinition.validate};</li>
 * <li>blank (empty or only white space, as {@code maxConnections =} in a cfg file gives it) for an
 *     attribute that is not text (a number, a boolean, a character), or a blank item of such a
 *     list: refused as {@code blank}, required or not. {@code AD.validate} accepts a blank value of an
 *     optional attribute, which no type but text can hold: the typed view would fail on it or, for a
 *     boolean, read it as {@code false}. A blank text is the text's to judge (its minimum length, its
 *     options).</li>
 * <li>refused: a {@link ConfigurationProblem} names the source, the key, the value and the reason;
 *     with {@link Fallback#PREVIOUS_VALUE} the key keeps its previously accepted value (or its
 *     default), with {@link Fallback#NONE} the caller refuses the whole configuration.</li>
 * </ul>
 * Keys that no attribute knows are listed as unknown, except those the framework and its services
 * add ({@code service.*}, {@code component.*}, {@code felix.*}, {@code osgi.*}, and Declarative
 * Services' reference targets, {@code <reference>.target}).
 *
 * <p>Rules that an attribute definition cannot express (a host name without blanks, a tenant id
 * matching the file's name) stay with the settings class that applies them.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param <A> the component property type
 */
public final class ConfigurationCheck<A extends Annotation> {

    /** What a refused value leaves in force. */
    public enum Fallback {
        /** The key keeps the value accepted before (or its default): the rest of the configuration applies. */
        PREVIOUS_VALUE,
        /** Nothing: the caller refuses the whole configuration and keeps its previous one. */
        NONE
    }

    private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?\\d+");
    private static final List<String> FRAMEWORK_PREFIXES = List.of("service.", "component.", "felix.", "osgi.");
    /** What SCR adds to a component's properties for a reference with a target filter. */
    private static final String REFERENCE_TARGET_SUFFIX = ".target";
    private static final String MASK = "***";

    private final Class<A> type;
    private final ConfigurationSchema schema;
    private final Map<String, Method> methodsByKey;

    private ConfigurationCheck(Class<A> type, ConfigurationSchema schema) {
        this.type = type;
        this.schema = schema;
        Map<String, Method> methods = new HashMap<>();
        for (Method method : type.getDeclaredMethods()) {
            methods.put(TypedConfiguration.key(method.getName()), method);
        }
        for (String key : schema.attributes().keySet()) {
            if (!methods.containsKey(key)) {
                throw new IllegalStateException(schema.id() + " defines " + key + ", which " + type.getName()
                        + " has no method for");
            }
        }
        this.methodsByKey = methods;
    }

    /** The check of {@code type}, with the schema bnd generated for it. */
    public static <A extends Annotation> ConfigurationCheck<A> of(Class<A> type) {
        return new ConfigurationCheck<>(type, ConfigurationSchema.of(type));
    }

    /** The schema this check applies. */
    public ConfigurationSchema schema() {
        return schema;
    }

    /** Every key at its default. */
    public CheckedConfiguration<A> defaults() {
        return new CheckedConfiguration<>(TypedConfiguration.view(type, Map.of()), Map.of(), List.of(), List.of());
    }

    /**
     * Checks {@code properties}.
     *
     * @param properties the configuration's properties as ConfigAdmin delivers them
     * @param previous   the values accepted last time ({@link CheckedConfiguration#values()}); empty at first
     * @param source     where the properties came from, for the problems
     * @param fallback   what a refused value leaves in force
     */
    public CheckedConfiguration<A> check(Map<String, ?> properties, Map<String, Object> previous,
            ConfigurationSource source, Fallback fallback) {
        Map<String, Object> accepted = new LinkedHashMap<>();
        List<ConfigurationProblem> problems = new ArrayList<>();
        for (AD ad : schema.attributes().values()) {
            String key = ad.getID();
            Object raw = properties.get(key);
            String reason;
            if (raw == null) {
                if (!ad.isRequired() || hasDefault(key)) {
                    continue;
                }
                reason = "required and missing";
            } else {
                Object value = accept(ad, raw);
                if (value != null) {
                    accepted.put(key, value);
                    continue;
                }
                reason = reason(ad, raw);
            }
            String kept = null;
            if (fallback == Fallback.PREVIOUS_VALUE) {
                Object before = previous.get(key);
                if (before != null) {
                    accepted.put(key, before);
                }
                kept = shown(ad, before != null ? before : methodsByKey.get(key).getDefaultValue());
            }
            problems.add(new ConfigurationProblem(source, key, raw == null ? null : shown(ad, raw), reason, kept));
        }
        List<String> unknown = new ArrayList<>();
        for (String key : properties.keySet()) {
            if (!schema.attributes().containsKey(key) && !isFrameworkKey(key)) {
                unknown.add(key);
            }
        }
        unknown.sort(null);
        return new CheckedConfiguration<>(TypedConfiguration.view(type, accepted), accepted, problems, unknown);
    }

    private boolean hasDefault(String key) {
        Object value = methodsByKey.get(key).getDefaultValue();
        return value != null && !(value.getClass().isArray() && Array.getLength(value) == 0);
    }

    /** The value to keep for {@code raw}, or {@code null} when the attribute refuses it. */
    private static Object accept(AD ad, Object raw) {
        String text = text(ad, raw);
        if (text == null || blankWhereNotText(ad, text)) {
            return null;
        }
        String verdict = ad.validate(text);
        if (verdict != null && !verdict.isEmpty()) {
            return null;
        }
        return ad.getCardinality() == 0 ? text.trim() : AD.splitList(text);
    }

    /**
     * {@code raw} as the text the attribute validates, or {@code null} when its Java type cannot be
     * one: a string attribute takes a {@code String} only, a single-valued one no list.
     */
    private static String text(AD ad, Object raw) {
        if (raw instanceof String text) {
            return text;
        }
        if (raw.getClass().isArray() || raw instanceof Collection) {
            if (ad.getCardinality() == 0) {
                return null;
            }
            List<String> parts = new ArrayList<>();
            for (Object part : raw instanceof Collection<?> collection ? collection.toArray() : toArray(raw)) {
                parts.add(String.valueOf(part).replace("\\", "\\\\").replace(",", "\\,"));
            }
            return String.join(",", parts);
        }
        if (isTextual(ad.getType()) || !(raw instanceof Number || raw instanceof Boolean || raw instanceof Character)) {
            return null;
        }
        return raw.toString();
    }

    /**
     * Whether {@code text}, given to an attribute that is not text, is blank, or has a blank item when the
     * attribute is a list ({@code 1,,2}). Blank as {@code AD.validate} sees it, which trims (every character up
     * to the space), and as a person sees it (any white space).
     */
    private static boolean blankWhereNotText(AD ad, String text) {
        if (isTextual(ad.getType())) {
            return false;
        }
        if (ad.getCardinality() == 0) {
            return isBlank(text);
        }
        return Arrays.stream(AD.splitList(text)).anyMatch(ConfigurationCheck::isBlank);
    }

    private static boolean isBlank(String text) {
        return text.trim().isEmpty() || text.isBlank();
    }

    private static boolean isTextual(int type) {
        return type == AttributeDefinition.STRING || type == AttributeDefinition.PASSWORD;
    }

    private static Object[] toArray(Object array) {
        Object[] items = new Object[Array.getLength(array)];
        for (int i = 0; i < items.length; i++) {
            items[i] = Array.get(array, i);
        }
        return items;
    }

    /** Why {@code raw}, refused by {@code ad}, is refused: for a person who will edit the file. */
    static String reason(AD ad, Object raw) {
        String text = text(ad, raw);
        if (text == null) {
            if (ad.getCardinality() == 0 && (raw.getClass().isArray() || raw instanceof Collection)) {
                return "a list where one value is expected";
            }
            return "not " + typeName(ad.getType()) + " (given as " + raw.getClass().getSimpleName() + ")";
        }
        if (blankWhereNotText(ad, text)) {
            return "blank";
        }
        String verdict = ad.validate(text);
        boolean textual = isTextual(ad.getType());
        if (AD.VALIDATE_INVALID_VALUE.equals(verdict)) {
            if (isInteger(ad.getType()) && INTEGER_TEXT.matcher(text.trim()).matches()) {
                return text.trim().startsWith("-") ? belowMinimum(ad) : aboveMaximum(ad);
            }
            return "not " + typeName(ad.getType());
        } else if (AD.VALIDATE_LESS_THAN_MINIMUM.equals(verdict)) {
            if (textual) {
                return "1".equals(ad.getMin()) ? "blank" : "shorter than " + ad.getMin() + " characters";
            }
            return belowMinimum(ad);
        } else if (AD.VALIDATE_GREATER_THAN_MAXIMUM.equals(verdict)) {
            return textual ? "longer than " + ad.getMax() + " characters" : aboveMaximum(ad);
        } else if (AD.VALIDATE_NOT_A_VALID_OPTION.equals(verdict)) {
            return "not one of " + String.join(", ", ad.getOptionValues());
        } else if (AD.VALIDATE_MISSING.equals(verdict)) {
            return "missing";
        }
        return verdict == null ? "refused" : verdict.replace("%", "");
    }

    private static String belowMinimum(AD ad) {
        return ad.getMin() == null ? "below the smallest " + typeName(ad.getType())
                : "below the minimum " + ad.getMin();
    }

    private static String aboveMaximum(AD ad) {
        return ad.getMax() == null ? "above the largest " + typeName(ad.getType())
                : "above the maximum " + ad.getMax();
    }

    private static boolean isInteger(int type) {
        return type == AttributeDefinition.INTEGER || type == AttributeDefinition.LONG
                || type == AttributeDefinition.SHORT || type == AttributeDefinition.BYTE
                || type == AttributeDefinition.BIGINTEGER;
    }

    private static String typeName(int type) {
        return switch (type) {
            case AttributeDefinition.INTEGER, AttributeDefinition.SHORT, AttributeDefinition.BYTE -> "an integer";
            case AttributeDefinition.LONG, AttributeDefinition.BIGINTEGER -> "an integer";
            case AttributeDefinition.BOOLEAN -> "true or false";
            case AttributeDefinition.DOUBLE, AttributeDefinition.FLOAT, AttributeDefinition.BIGDECIMAL -> "a number";
            case AttributeDefinition.CHARACTER -> "a single character";
            default -> "a string";
        };
    }

    /** A value for messages; passwords are never shown. */
    private static String shown(AD ad, Object value) {
        if (value == null) {
            return "no value";
        }
        if (ad.getType() == AttributeDefinition.PASSWORD) {
            return MASK;
        }
        if (value.getClass().isArray()) {
            return Arrays.toString(toArray(value));
        }
        return value.toString();
    }

    /** Whether the framework or one of its services, not a person, put {@code key} into the properties. */
    private static boolean isFrameworkKey(String key) {
        return FRAMEWORK_PREFIXES.stream().anyMatch(key::startsWith) || key.endsWith(REFERENCE_TARGET_SUFFIX);
    }
}
