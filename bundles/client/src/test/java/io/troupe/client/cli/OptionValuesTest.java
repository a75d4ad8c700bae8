package io.troupe.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class OptionValuesTest {

    @Test
    void durationsTakeAUnitOrMeanSeconds() throws UsageException {
        assertEquals(Duration.ofMillis(500), OptionValues.parseDuration("500ms", "d"));
        assertEquals(Duration.ofSeconds(10), OptionValues.parseDuration("10s", "d"));
        assertEquals(Duration.ofMillis(1500), OptionValues.parseDuration("1.5s", "d"));
        assertEquals(Duration.ofMinutes(2), OptionValues.parseDuration("2m", "d"));
        assertEquals(Duration.ofSeconds(7), OptionValues.parseDuration("7", "d"));
        assertThrows(UsageException.class, () -> OptionValues.parseDuration("-1s", "d"));
        assertThrows(UsageException.class, () -> OptionValues.parseDuration("2 days", "d"));
        assertThrows(UsageException.class, () -> OptionValues.parseDuration("48h", "d"));
    }

    @Test
    void aWholeNumberOutsideItsBoundsIsRefusedWithTheBoundsAndTheValue() {
        UsageException e = assertThrows(UsageException.class, () -> OptionValues.parseInt("0", 1, 9, "--n"));

        assertEquals("--n must be a whole number from 1 to 9: '0'", e.getMessage());
    }
}
