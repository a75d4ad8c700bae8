package io.troupe.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.troupe.config.ConfigurationCheck.Fallback;

/**
 * A blank value (a line {@code key =} in a cfg file, or one of blanks only) of an attribute that is not
 * text is refused as {@code blank}, whether the attribute is required or not, and the key keeps its
 * previous value or default: Felix Metatype's {@code AD.validate} accepts a blank value of an optional
 * attribute, which the typed view could not read (a fuzzer found {@code maxConnections =} failing the
 * server's parse with a {@link NumberFormatException}).
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class BlankValueTest {

    private static final ConfigurationSource FILE = ConfigurationSource.of("io.troupe.sample",
            Map.of("felix.fileinstall.filename", "file:/opt/troupe/etc/io.troupe.sample.cfg"));

    /** What a cfg file can hold that is blank: nothing, spaces, tabs, a line break, a Unicode space, NUL. */
    private static final List<String> BLANKS = List.of("", " ", "   ", "\t", " \t ", "\n", "\u3000", "\u0000");

    /** Every attribute that is not text, with its default as the problem shows it; optional and required. */
    private static final Map<String, String> NOT_TEXT = defaults();

    private final ConfigurationCheck<SampleConfiguration> check = ConfigurationCheck.of(SampleConfiguration.class);

    private static Map<String, String> defaults() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("limit", "0");
        keys.put("budget", "1024");
        keys.put("verbose", "false");
        keys.put("ratio", "0.5");
        keys.put("ports", "[80]");
        keys.put("workers.max", "8");
        keys.put("enabled", "true");
        return keys;
    }

    @Test
    void aBlankValueOfANumberOrBooleanIsRefusedNamingTheKeyAndFileAndKeepsTheDefault() throws Exception {
        for (Map.Entry<String, String> attribute : NOT_TEXT.entrySet()) {
            for (String blank : BLANKS) {
                String key = attribute.getKey();
                CheckedConfiguration<SampleConfiguration> checked = check(Map.of("name", "n", key, blank),
                        Map.of());
                assertEquals(List.of("file /opt/troupe/etc/io.troupe.sample.cfg: " + key + " = '" + blank
                        + "': blank; keeping " + attribute.getValue()), messages(checked), key + " = " + blank);
                assertFalse(checked.values().containsKey(key), key);
                assertEquals(readAll(check.defaults().typed()), readAll(checked.typed()), "every key at its default");
            }
        }
    }

    @Test
    void aBlankValueKeepsTheValueAcceptedBefore() throws Exception {
        CheckedConfiguration<SampleConfiguration> first = check(Map.of("name", "n", "limit", "5", "budget", "9",
                "verbose", "true", "ratio", "0.25", "ports", "81, 82", "workers.max", "3", "enabled", "false"),
                Map.of());
        assertTrue(first.valid(), first.problems()::toString);
        Map<String, Object> blanks = new LinkedHashMap<>();
        blanks.put("name", "m");
        NOT_TEXT.keySet().forEach(key -> blanks.put(key, " "));
        CheckedConfiguration<SampleConfiguration> second = check(blanks, first.values());
        SampleConfiguration config = second.typed();
        assertEquals(List.of(5, 9L, true, 0.25, 3, false), List.of(config.limit(), config.budget(), config.verbose(),
                config.ratio(), config.workers_max(), config.enabled()));
        assertArrayEquals(new int[] {81, 82}, config.ports());
        assertEquals("m", config.name(), "the good value beside the blank ones applies");
        assertEquals(List.of("enabled = ' ': blank; keeping false", "workers.max = ' ': blank; keeping 3",
                "limit = ' ': blank; keeping 5", "budget = ' ': blank; keeping 9", "verbose = ' ': blank; keeping true",
                "ratio = ' ': blank; keeping 0.25", "ports = ' ': blank; keeping [81, 82]"),
                second.problems().stream().map(ConfigurationProblem::describe).toList());
    }

    @Test
    void withoutFallbackABlankNumberIsStillAProblem() {
        CheckedConfiguration<SampleConfiguration> checked = check.check(Map.of("name", "n", "limit", ""), Map.of(),
                FILE, Fallback.NONE);
        assertEquals(List.of("limit = '': blank"),
                checked.problems().stream().map(ConfigurationProblem::describe).toList());
    }

    @Test
    void aBlankItemOfAListOfNumbersIsRefused() {
        for (Object ports : List.of("80,,81", "80, ,81", "80,", new String[] {"80", " "}, List.of("", "81"))) {
            CheckedConfiguration<SampleConfiguration> checked = check(Map.of("name", "n", "ports", ports), Map.of());
            assertEquals(1, checked.problems().size(), checked.problems()::toString);
            assertEquals("blank", checked.problems().get(0).reason(), checked.problems()::toString);
            assertArrayEquals(new int[] {80}, checked.typed().ports(), "the default");
        }
        assertArrayEquals(new int[] {80, 81}, check(Map.of("name", "n", "ports", " 80 , 81 "), Map.of()).typed()
                .ports());
    }

    @Test
    void aBlankValueOfAnAttributeWithOptionsIsNotOneOfThem() {
        for (String blank : BLANKS) {
            CheckedConfiguration<SampleConfiguration> checked = check(Map.of("name", "n", "mode", blank,
                    "level", blank), Map.of());
            assertEquals(List.of("level = '" + blank + "': not one of TRACE, DEBUG, INFO, WARN, ERROR; keeping INFO",
                    "mode = '" + blank + "': not one of none, want, need; keeping none"),
                    checked.problems().stream().map(ConfigurationProblem::describe).toList());
            assertEquals("none", checked.typed().mode());
            assertEquals("INFO", checked.typed().level());
        }
    }

    @Test
    void aBlankTextIsTheTextsToJudge() {
        CheckedConfiguration<SampleConfiguration> checked = check(Map.of("name", "n", "comment", "  "), Map.of());
        assertTrue(checked.valid(), checked.problems()::toString);
        assertEquals("", checked.typed().comment(), "an optional text without a minimum length may be empty");
        assertEquals(List.of("name = ' ': blank; keeping no value"), messages(check(Map.of("name", " "), Map.of()))
                .stream().map(line -> line.substring(line.indexOf(": ") + 2)).toList());
    }

    @Test
    void theViewNamesTheKeyOfAValueTheCheckDidNotAcceptInsteadOfReadingItAsZeroOrFalse() {
        SampleConfiguration unchecked = TypedConfiguration.view(SampleConfiguration.class,
                Map.of("limit", "", "verbose", " ", "enabled", "yes"));
        IllegalStateException limit = assertThrows(IllegalStateException.class, unchecked::limit);
        assertEquals("the value of limit cannot be read as int (not a value ConfigurationCheck accepted): "
                + "NumberFormatException", limit.getMessage());
        IllegalStateException verbose = assertThrows(IllegalStateException.class, unchecked::verbose);
        assertTrue(verbose.getMessage().startsWith("the value of verbose cannot be read as boolean"),
                verbose.getMessage());
        assertThrows(IllegalStateException.class, unchecked::enabled);
        SampleConfiguration checked = TypedConfiguration.view(SampleConfiguration.class,
                Map.of("verbose", "TRUE", "enabled", "False"));
        assertTrue(checked.verbose());
        assertFalse(checked.enabled());
    }

    private CheckedConfiguration<SampleConfiguration> check(Map<String, ?> properties, Map<String, Object> previous) {
        return check.check(properties, previous, FILE, Fallback.PREVIOUS_VALUE);
    }

    private static List<String> messages(CheckedConfiguration<?> checked) {
        return checked.problems().stream().map(ConfigurationProblem::toString).toList();
    }

    /** Every attribute of {@code config} read, arrays as lists: reading one that cannot be read fails the test. */
    private static Map<String, Object> readAll(SampleConfiguration config) throws Exception {
        Map<String, Object> read = new LinkedHashMap<>();
        for (Method method : SampleConfiguration.class.getDeclaredMethods()) {
            if (method.getName().equals("name")) {
                continue;
            }
            Object value;
            try {
                value = method.invoke(config);
            } catch (InvocationTargetException e) {
                throw new AssertionError("reading " + method.getName() + " failed", e.getCause());
            }
            read.put(method.getName(), value instanceof int[] ints ? java.util.Arrays.toString(ints)
                    : value instanceof Object[] items ? List.of(items) : value);
        }
        return read;
    }
}
