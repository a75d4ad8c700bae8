package io.troupe.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.troupe.api.state.StateKey;

/** The keys and values of the replicated state map, without a cluster. */
class StateMapKeysTest {

    @Test
    void originAndPathAreEscapedSoThatTheFirstAtIsTheTenants() {
        StateKey key = new StateKey("acme", "factory:a@b/c%d", "handler:x@acme/room-1");
        String mapKey = StateMapKeys.encode(key);
        assertEquals("factory:a%40b%2Fc%25d/handler:x%40acme%2Froom-1@acme", mapKey);
        assertEquals("acme", StateMapKeys.tenantOf(mapKey));
        assertEquals(key, StateMapKeys.decode(mapKey));
    }

    @Test
    void aKeyWithNothingToEscapeIsWrittenAsItIs() {
        assertEquals("handler:counter.add/p@t", StateMapKeys.encode(new StateKey("t", "handler:counter.add", "p")));
    }

    @Test
    void aKeyNotMadeHereIsRefusedByName() {
        for (String bad : new String[] {"no-separators", "a@b/c", "a/b%zz@t", "a/b%2@t"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> StateMapKeys.decode(bad));
            assertTrue(refused.getMessage().contains(bad), refused.getMessage());
        }
    }

    @Test
    void aValueHoldsItsStampAndSnapshotAndATombstoneItsDeletionTime() {
        byte[] value = StateMapValue.encode(new byte[] {1, 2, 3}, 1_700_000_000_123L);
        assertEquals(1_700_000_000_123L, StateMapValue.stamp(value));
        assertEquals(3, StateMapValue.snapshotBytes(value));
        assertEquals(false, StateMapValue.deleted(value));
        assertEquals(2, StateMapValue.snapshot(value)[1]);
        byte[] tombstone = StateMapValue.tombstone(1_700_000_000_456L);
        assertTrue(StateMapValue.deleted(tombstone));
        assertEquals(1_700_000_000_456L, StateMapValue.stamp(tombstone));
        assertThrows(IllegalStateException.class, () -> StateMapValue.stamp(new byte[3]));
        assertSame(Boolean.TRUE, StateMapValue.deleted(tombstone));
    }
}
