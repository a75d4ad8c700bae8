package io.troupe.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.troupe.config.ConfigurationCheck.Fallback;

/**
 * One bad value of each kind of attribute, through the real metatype reader and validator (Felix
 * Metatype) and a metatype document in the form bnd writes.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class ConfigurationCheckTest {

    private static final ConfigurationSource FILE = ConfigurationSource.of("io.troupe.sample",
            Map.of("felix.fileinstall.filename", "file:/opt/troupe/etc/io.troupe.sample.cfg"));

    private final ConfigurationCheck<SampleConfiguration> check = ConfigurationCheck.of(SampleConfiguration.class);

    @Test
    void goodValuesReachTheTypedViewAndAbsentOnesTakeTheirDefaults() {
        CheckedConfiguration<SampleConfiguration> checked = check(Map.of("name", " n ", "level", "WARN",
                "workers.max", 12, "enabled", "false"));
        assertTrue(checked.valid(), checked.problems()::toString);
        SampleConfiguration config = checked.typed();
        assertEquals("n", config.name());
        assertEquals("WARN", config.level());
        assertEquals(12, config.workers_max());
        assertFalse(config.enabled());
        assertArrayEquals(new String[] {"a"}, config.tags(), "the default");
    }

    @Test
    void aValueOutsideTheOptionsNamesThem() {
        assertEquals("file /opt/troupe/etc/io.troupe.sample.cfg: level = 'LOUD': not one of TRACE, DEBUG, INFO, "
                + "WARN, ERROR; keeping INFO", only(check(Map.of("name", "n", "level", "LOUD"))).toString());
    }

    @Test
    void aBooleanMustBeTrueOrFalse() {
        assertEquals("enabled = 'yes': not true or false; keeping true",
                only(check(Map.of("name", "n", "enabled", "yes"))).describe());
    }

    @Test
    void aNumberOutsideItsBoundsNamesTheBound() {
        assertEquals("workers.max = '0': below the minimum 1; keeping 8",
                only(check(Map.of("name", "n", "workers.max", "0"))).describe());
        assertEquals("workers.max = '65': above the maximum 64; keeping 8",
                only(check(Map.of("name", "n", "workers.max", 65))).describe());
        assertEquals("workers.max = '4096x': not an integer; keeping 8",
                only(check(Map.of("name", "n", "workers.max", "4096x"))).describe());
    }

    @Test
    void aRequiredValueWithoutDefaultMustBeThereAndNotBlank() {
        assertEquals("name: required and missing; keeping no value", only(check(Map.of())).describe());
        assertEquals("name = '  ': blank; keeping no value", only(check(Map.of("name", "  "))).describe());
    }

    @Test
    void aListTakesEachItemThroughTheSameRules() {
        CheckedConfiguration<SampleConfiguration> checked = check(Map.of("name", "n", "tags", "x, y"));
        assertArrayEquals(new String[] {"x", "y"}, checked.typed().tags());
        assertArrayEquals(new String[] {"p", "q"}, check(Map.of("name", "n", "tags", new String[] {"p", "q"}))
                .typed().tags());
        assertEquals("tags = 'x,,y': blank; keeping [a]", only(check(Map.of("name", "n", "tags", "x,,y"))).describe());
    }

    @Test
    void aRefusedValueKeepsThePreviouslyAcceptedOne() {
        CheckedConfiguration<SampleConfiguration> first = check(Map.of("name", "n", "workers.max", "20"));
        CheckedConfiguration<SampleConfiguration> second = check.check(Map.of("name", "m", "workers.max", "lots"),
                first.values(), FILE, Fallback.PREVIOUS_VALUE);
        assertEquals(20, second.typed().workers_max());
        assertEquals("m", second.typed().name(), "the good value beside the bad one applies");
        assertEquals("workers.max = 'lots': not an integer; keeping 20", only(second).describe());
    }

    @Test
    void withoutFallbackTheProblemSaysNothingIsKept() {
        CheckedConfiguration<SampleConfiguration> checked = check.check(Map.of("name", "n", "level", "x"),
                Map.of(), FILE, Fallback.NONE);
        assertEquals("level = 'x': not one of TRACE, DEBUG, INFO, WARN, ERROR", only(checked).describe());
    }

    @Test
    void unknownKeysAreListedButTheFrameworksAreNot() {
        CheckedConfiguration<SampleConfiguration> checked = check(Map.of("name", "n", "workers.maxx", "1",
                "service.pid", "p", "felix.fileinstall.filename", "file:/x", "component.id", 3L, "levl", "x",
                "localStore.target", "(!(replicated=true))"));
        assertEquals(List.of("levl", "workers.maxx"), checked.unknown());
    }

    @Test
    void methodNamesMapToKeysAsDeclarativeServicesMapsThem() {
        assertEquals("workers.max", TypedConfiguration.key("workers_max"));
        assertEquals("a_b", TypedConfiguration.key("a__b"));
        assertEquals("a-b", TypedConfiguration.key("a$_$b"));
        assertEquals("a$b", TypedConfiguration.key("a$$b"));
        assertEquals("ab", TypedConfiguration.key("a$b"));
    }

    @Test
    void theViewIsTheAnnotationType() {
        SampleConfiguration config = check(Map.of("name", "n")).typed();
        Annotation annotation = config;
        assertEquals(SampleConfiguration.class, annotation.annotationType());
        assertTrue(config.toString().contains("name=n"), config.toString());
    }

    @Test
    void aTypeWithoutMetatypeDocumentIsRefusedAtOnce() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ConfigurationCheck.of(Test.class));
        assertTrue(e.getMessage().contains("OSGI-INF/metatype/org.junit.jupiter.api.Test.xml"), e.getMessage());
    }

    private CheckedConfiguration<SampleConfiguration> check(Map<String, ?> properties) {
        return check.check(properties, Map.of(), FILE, Fallback.PREVIOUS_VALUE);
    }

    private static ConfigurationProblem only(CheckedConfiguration<?> checked) {
        assertEquals(1, checked.problems().size(), checked.problems()::toString);
        return checked.problems().get(0);
    }
}
