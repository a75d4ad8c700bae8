package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** Unit tests of prefix resolution; single-threaded. */
class LevelThresholdsTest {

    private final LevelThresholds thresholds = new LevelThresholds(Level.INFO, Map.of(
            "io.troupe", Level.WARN,
            "io.troupe.host", Level.DEBUG,
            "io.troupe.host.log", Level.ERROR,
            "com.example.Plugin", Level.TRACE));

    @Test
    void usesTheRootLevelWhenNoPrefixCoversTheName() {
        assertEquals(Level.INFO, thresholds.thresholdFor("org.apache.felix.Framework"));
        assertEquals(Level.INFO, thresholds.thresholdFor("ROOT"));
        assertEquals(Level.INFO, thresholds.thresholdFor("io"));
    }

    @Test
    void theLongestCoveringPrefixWins() {
        assertEquals(Level.WARN, thresholds.thresholdFor("io.troupe.api.Actor"));
        assertEquals(Level.DEBUG, thresholds.thresholdFor("io.troupe.host.actor.ActorCell"));
        assertEquals(Level.ERROR, thresholds.thresholdFor("io.troupe.host.log.FileSink"));
    }

    @Test
    void aPrefixCoversItsExactNameAndNamesBelowItButNotLongerSegments() {
        assertEquals(Level.DEBUG, thresholds.thresholdFor("io.troupe.host"));
        assertEquals(Level.WARN, thresholds.thresholdFor("io.troupe.hostile.Thing"));
        assertEquals(Level.TRACE, thresholds.thresholdFor("com.example.Plugin$Worker"));
        assertEquals(Level.INFO, thresholds.thresholdFor("com.example.PluginTest"));
    }

    @Test
    void aPrefixEndingInADotCoversEverythingStartingWithIt() {
        LevelThresholds dotted = new LevelThresholds(Level.INFO, Map.of("io.troupe.", Level.DEBUG));

        assertEquals(Level.DEBUG, dotted.thresholdFor("io.troupe.host.X"));
        assertEquals(Level.INFO, dotted.thresholdFor("io.troupe"));
    }

    @Test
    void aThresholdWritesItsOwnLevelAndMoreSevereOnes() {
        assertTrue(LevelThresholds.writes(Level.INFO, Level.INFO));
        assertTrue(LevelThresholds.writes(Level.INFO, Level.ERROR));
        assertFalse(LevelThresholds.writes(Level.INFO, Level.DEBUG));
        assertTrue(LevelThresholds.writes(Level.TRACE, Level.TRACE));
        assertFalse(LevelThresholds.writes(Level.ERROR, Level.WARN));
    }
}
