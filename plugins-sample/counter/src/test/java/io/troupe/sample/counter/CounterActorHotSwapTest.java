package io.troupe.sample.counter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.troupe.api.Message;
import io.troupe.testkit.ActorHarness;

/**
 * A hot swap as the host performs it, one actor at a time: the old revision's actor exports its
 * state, a fresh actor of the new revision starts and imports it, then serves the next requests.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class CounterActorHotSwapTest {

    @Test
    void version1ExportsTheTotalAsALong() throws Exception {
        ActorHarness v1 = counterWithTotal("1.0.0", 42);

        assertEquals(Long.valueOf(42), exportState(v1));
    }

    @Test
    void version2ExportsTheTotalInAMapWithItsFormat() throws Exception {
        ActorHarness v2 = counterWithTotal("2.0.0", 42);

        assertEquals(Map.of("total", 42L, "format", 2), exportState(v2));
    }

    @Test
    void updatingFrom1To2KeepsTheTotal() throws Exception {
        assertSwapKeepsTheTotal("1.0.0", "2.0.0");
    }

    @Test
    void downgradingFrom2To1KeepsTheTotal() throws Exception {
        assertSwapKeepsTheTotal("2.0.0", "1.0.0");
    }

    @Test
    void reinstallingTheSameVersionKeepsTheTotal() throws Exception {
        assertSwapKeepsTheTotal("1.0.0", "1.0.0");
        assertSwapKeepsTheTotal("2.0.0", "2.0.0");
    }

    @Test
    void bothVersionsImportBothFormats() throws Exception {
        for (String version : new String[] {"1.0.0", "2.0.0"}) {
            for (Object state : new Object[] {-5L, Map.of("total", -5L, "format", 2)}) {
                ActorHarness actor = ActorHarness.start(() -> new CounterActor(version));
                importState(actor, state);
                assertTotal("-5", actor);
            }
        }
    }

    @Test
    void aStateInNeitherFormatIsRefusedAndTheTotalStays() throws Exception {
        for (String version : new String[] {"1.0.0", "2.0.0"}) {
            ActorHarness actor = counterWithTotal(version, 3);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> importState(actor, Map.of("total", 9L, "format", 3)));
            assertTrue(e.getMessage().contains("format 3"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> importState(actor, "9"));
            assertTotal("3", actor);
        }
    }

    @Test
    void noStateFromARevisionWithoutTheHooksStartsAtZero() throws Exception {
        ActorHarness actor = ActorHarness.start(() -> new CounterActor("2.0.0"));
        importState(actor, null);
        assertTotal("0", actor);
    }

    private void assertSwapKeepsTheTotal(String from, String to) throws Exception {
        ActorHarness old = counterWithTotal(from, 40);

        ActorHarness replacement = ActorHarness.start(() -> new CounterActor(to));
        importState(replacement, exportState(old));

        assertTotal("40", replacement);
        assertReply("42", replacement.deliver(Message.of(CounterActor.ADD, "2")).onlyMessage());
        assertReply(to, replacement.deliver(Message.of(CounterActor.VERSION, "")).onlyMessage());
    }

    private static ActorHarness counterWithTotal(String version, long total) throws Exception {
        ActorHarness actor = ActorHarness.start(() -> new CounterActor(version));
        assertReply(Long.toString(total), actor.deliver(Message.of(CounterActor.ADD, Long.toString(total))).onlyMessage());
        return actor;
    }

    private static Object exportState(ActorHarness actor) throws Exception {
        return actor.actor().exportState(actor.context());
    }

    private static void importState(ActorHarness actor, Object state) throws Exception {
        actor.actor().importState(actor.context(), state);
    }

    private static void assertTotal(String expected, ActorHarness actor) throws Exception {
        assertReply(expected, actor.deliver(Message.of(CounterActor.GET, "")).onlyMessage());
    }

    private static void assertReply(String expected, Object reply) {
        assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), assertInstanceOf(byte[].class, reply),
                () -> "reply " + (reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : reply));
    }
}
