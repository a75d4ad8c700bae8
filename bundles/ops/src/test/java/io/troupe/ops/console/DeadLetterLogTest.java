package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.troupe.api.DeadLetter;
import io.troupe.api.Message;

/**
 * The dead letters view: the latest {@value DeadLetterLog#CAPACITY}, newest first, with recipient, sender,
 * message, reason and cause as text; a message whose {@code toString} throws does not stop the listener.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class DeadLetterLogTest {

    private static final Instant NOW = Instant.parse("2026-12-02T11:00:00Z");

    private final DeadLetterLog log = new DeadLetterLog(Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aLetterKeepsWhoItWasForWhoSentItWhatAndWhy() {
        log.accept(new DeadLetter(new StubRef(7, "counter.add"), Message.of("counter.add", "5"),
                new StubRef(3, "session-1"), "receive failed", new IllegalStateException("boom")));
        log.accept(new DeadLetter(null, "hello", null, "actor stopped", null));

        JsonNode view = JsonTrees.read(log.document());

        assertEquals(2, view.get("seen").asLong());
        JsonNode newest = view.at("/letters/0");
        assertEquals(2, newest.get("sequence").asLong());
        assertTrue(newest.get("recipient").isNull());
        assertEquals("java.lang.String", newest.get("messageType").asText());
        assertEquals("hello", newest.get("message").asText());
        assertTrue(newest.get("cause").isNull());
        JsonNode first = view.at("/letters/1");
        assertEquals(7, first.at("/recipient/id").asLong());
        assertEquals("counter.add", first.at("/recipient/name").asText());
        assertEquals("session-1", first.at("/sender/name").asText());
        assertEquals(Message.class.getName(), first.get("messageType").asText());
        assertEquals("receive failed", first.get("reason").asText());
        assertEquals("java.lang.IllegalStateException: boom", first.get("cause").asText());
        assertEquals(NOW.toString(), first.get("time").asText());
    }

    @Test
    void onlyTheLatestAreKeptAndLongTextsAreCut() {
        for (int i = 0; i < DeadLetterLog.CAPACITY + 20; i++) {
            log.accept(new DeadLetter(null, "x".repeat(1000) + i, null, "mailbox full", null));
        }

        JsonNode view = JsonTrees.read(log.document());

        assertEquals(DeadLetterLog.CAPACITY + 20, view.get("seen").asLong());
        assertEquals(DeadLetterLog.CAPACITY, view.get("letters").size());
        assertEquals(DeadLetterLog.CAPACITY + 20, view.at("/letters/0/sequence").asLong());
        assertEquals(DeadLetterLog.TEXT_LIMIT + 1, view.at("/letters/0/message").asText().length());
    }

    @Test
    void aMessageWhoseToStringThrowsIsDescribedAndTheLetterKept() {
        Object hostile = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("no");
            }
        };

        log.accept(new DeadLetter(null, hostile, null, "actor stopped", null));

        assertEquals("<toString failed: java.lang.IllegalStateException>", log.latest().get(0).message());
    }
}
