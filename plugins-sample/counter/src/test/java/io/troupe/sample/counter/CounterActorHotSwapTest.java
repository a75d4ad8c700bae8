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

/**
 * A hot swap as the host performs it, one actor at a time: the old revision's actor exports its
 * state, a fresh actor of the new revision starts and imports it, then serves the next requests.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class CounterActorHotSwapTest {

    private final StubActorContext ctx = new StubActorContext();

    @Test
    void version1ExportsTheTotalAsALong() throws Exception {
        CounterActor v1 = counterWithTotal("1.0.0", 42);

        assertEquals(Long.valueOf(42), v1.exportState(ctx));
    }

    @Test
    void version2ExportsTheTotalInAMapWithItsFormat() throws Exception {
        CounterActor v2 = counterWithTotal("2.0.0", 42);

        assertEquals(Map.of("total", 42L, "format", 2), v2.exportState(ctx));
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
                CounterActor actor = new CounterActor(version);
                actor.importState(ctx, state);
                assertTotal("-5", actor);
            }
        }
    }

    @Test
    void aStateInNeitherFormatIsRefusedAndTheTotalStays() throws Exception {
        for (String version : new String[] {"1.0.0", "2.0.0"}) {
            CounterActor actor = counterWithTotal(version, 3);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> actor.importState(ctx, Map.of("total", 9L, "format", 3)));
            assertTrue(e.getMessage().contains("format 3"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> actor.importState(ctx, "9"));
            assertTotal("3", actor);
        }
    }

    @Test
    void noStateFromARevisionWithoutTheHooksStartsAtZero() throws Exception {
        CounterActor actor = new CounterActor("2.0.0");
        actor.importState(ctx, null);
        assertTotal("0", actor);
    }

    private void assertSwapKeepsTheTotal(String from, String to) throws Exception {
        CounterActor old = counterWithTotal(from, 40);

        CounterActor replacement = new CounterActor(to);
        replacement.preStart(ctx);
        replacement.importState(ctx, old.exportState(ctx));

        assertTotal("40", replacement);
        assertReply("42", ctx.request(replacement, Message.of(CounterActor.ADD, "2")).onlyMessage());
        assertReply(to, ctx.request(replacement, Message.of(CounterActor.VERSION, "")).onlyMessage());
    }

    private CounterActor counterWithTotal(String version, long total) throws Exception {
        CounterActor actor = new CounterActor(version);
        actor.preStart(ctx);
        assertReply(Long.toString(total), ctx.request(actor, Message.of(CounterActor.ADD, Long.toString(total)))
                .onlyMessage());
        return actor;
    }

    private void assertTotal(String expected, CounterActor actor) throws Exception {
        assertReply(expected, ctx.request(actor, Message.of(CounterActor.GET, "")).onlyMessage());
    }

    private static void assertReply(String expected, Object reply) {
        assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), assertInstanceOf(byte[].class, reply),
                () -> "reply " + (reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : reply));
    }
}
