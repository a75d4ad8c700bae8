package io.troupe.cluster.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.troupe.api.cluster.Migration;

/**
 * The texts of the migration ring and of the handoff records.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class MigrationRecordsTest {

    @Test
    void aFinishedMigrationSurvivesItsRingText() {
        Migration migration = new Migration("acme", "uuid-a", "uuid-b", Migration.Cause.JOIN,
                Instant.ofEpochMilli(1_764_662_400_123L), Duration.ofMillis(87), true);

        String text = MigrationLog.encode(migration);

        assertEquals("acme|uuid-a|uuid-b|JOIN|1764662400123|87", text);
        assertEquals(migration, MigrationLog.decode(text));
    }

    @Test
    void aHandoffRecordSurvivesItsText() {
        Handoff handoff = new Handoff("uuid-a", Instant.ofEpochMilli(1_764_662_400_123L), Migration.Cause.LEAVE);

        assertEquals("uuid-a|1764662400123|LEAVE", handoff.encode());
        assertEquals(handoff, Handoff.decode(handoff.encode()));
    }

    @Test
    void badTextsAreRefusedWithTheText() {
        assertEquals("not a migration record: 'acme|a|b'", assertThrows(IllegalArgumentException.class,
                () -> MigrationLog.decode("acme|a|b")).getMessage());
        assertEquals("not a handoff record (from|pausedAt|cause): 'a|soon|JOIN'",
                assertThrows(IllegalArgumentException.class, () -> Handoff.decode("a|soon|JOIN")).getMessage());
    }
}
