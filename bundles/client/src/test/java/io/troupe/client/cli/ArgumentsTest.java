package io.troupe.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ArgumentsTest {

    @Test
    void durationsTakeAUnitOrMeanSeconds() throws UsageException {
        assertEquals(Duration.ofMillis(500), Arguments.parseDuration("500ms", "d"));
        assertEquals(Duration.ofSeconds(10), Arguments.parseDuration("10s", "d"));
        assertEquals(Duration.ofMillis(1500), Arguments.parseDuration("1.5s", "d"));
        assertEquals(Duration.ofMinutes(2), Arguments.parseDuration("2m", "d"));
        assertEquals(Duration.ofSeconds(7), Arguments.parseDuration("7", "d"));
        assertThrows(UsageException.class, () -> Arguments.parseDuration("-1s", "d"));
        assertThrows(UsageException.class, () -> Arguments.parseDuration("2 days", "d"));
        assertThrows(UsageException.class, () -> Arguments.parseDuration("48h", "d"));
    }

    @Test
    void optionsMayComeBeforeOrAfterTheCommandInEitherSpelling() throws UsageException {
        Arguments arguments = Arguments.parse(new String[] {"--host=h", "bench", "--size", "8"}, Set.of("host", "size"));

        assertEquals("h", arguments.option("host"));
        assertEquals("8", arguments.option("size"));
        assertEquals(List.of("bench"), arguments.positional());
    }

    @Test
    void anOptionGivenTwiceIsRefused() {
        assertThrows(UsageException.class, () -> Arguments.parse(new String[] {"--size", "1", "--size", "2"},
                Set.of("size")));
    }
}
