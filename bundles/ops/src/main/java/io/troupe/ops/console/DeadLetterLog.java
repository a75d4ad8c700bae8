package io.troupe.ops.console;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonGenerator;

import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;

/**
 * The latest {@value #CAPACITY} dead letters, subscribed to with
 * {@link io.troupe.api.TroupeRuntime#subscribeDeadLetters}: each kept as text (never the message itself, which
 * would pin a plugin's classes after its bundle is updated), newest first in {@code GET /console/api/deadletters}:
 *
 * <pre>
 * {"seen": 57, "letters": [{"sequence", "time", "recipient": {"id", "name"} | null,
 *                           "sender": {"id", "name"} | null, "messageType", "message", "reason", "cause"}]}
 * </pre>
 *
 * {@code seen} counts the letters since the console started; {@code cause} is the failure's class and message,
 * null when there was none. Texts are cut at {@value #TEXT_LIMIT} characters.
 *
 * <p><b>Threading:</b> {@link #accept} runs on the runtime thread that produced the letter: it formats a few
 * strings and takes this object's lock briefly, never throws. The reading methods may be called from any
 * thread.
 */
final class DeadLetterLog implements Consumer<DeadLetter> {

    /** Letters kept. */
    static final int CAPACITY = 100;
    /** The longest text kept of a message or a cause. */
    static final int TEXT_LIMIT = 300;

    /** A name and id of an actor; null when the letter had none. */
    record Actor(long id, String name) {
    }

    /** One letter as the console keeps it. */
    record Letter(long sequence, Instant time, Actor recipient, Actor sender, String messageType, String message,
                  String reason, String cause) {
    }

    private final Clock clock;
    private final ArrayDeque<Letter> letters = new ArrayDeque<>(CAPACITY);
    private long seen;

    DeadLetterLog(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void accept(DeadLetter letter) {
        try {
            Instant time = clock.instant();
            Object message = letter.message();
            String type = message == null ? "null" : message.getClass().getName();
            String text = cut(textOf(message));
            Throwable cause = letter.cause();
            String causeText = cause == null ? null
                    : cut(cause.getClass().getName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
            Actor recipient = actor(letter.recipient());
            Actor sender = actor(letter.sender());
            synchronized (this) {
                letters.addLast(new Letter(++seen, time, recipient, sender, type, text,
                        Objects.toString(letter.reason(), ""), causeText));
                while (letters.size() > CAPACITY) {
                    letters.removeFirst();
                }
            }
        } catch (RuntimeException e) {
            // a listener must not throw on a runtime thread; a letter that cannot be described is skipped
        }
    }

    /** The letters kept, newest first. */
    synchronized List<Letter> latest() {
        List<Letter> newestFirst = new ArrayList<>(letters.size());
        for (Iterator<Letter> it = letters.descendingIterator(); it.hasNext(); ) {
            newestFirst.add(it.next());
        }
        return newestFirst;
    }

    /** Letters seen since the console started. */
    synchronized long seen() {
        return seen;
    }

    /** The document of the letters kept now. */
    JsonDocument document() {
        long total;
        List<Letter> kept;
        synchronized (this) {
            total = seen;
            kept = latest();
        }
        return json -> {
            json.writeStartObject();
            json.writeNumberField("seen", total);
            json.writeArrayFieldStart("letters");
            for (Letter letter : kept) {
                writeLetter(json, letter);
            }
            json.writeEndArray();
            json.writeEndObject();
        };
    }

    private static void writeLetter(JsonGenerator json, Letter letter) throws IOException {
        json.writeStartObject();
        json.writeNumberField("sequence", letter.sequence());
        json.writeStringField("time", letter.time().toString());
        writeActor(json, "recipient", letter.recipient());
        writeActor(json, "sender", letter.sender());
        json.writeStringField("messageType", letter.messageType());
        json.writeStringField("message", letter.message());
        json.writeStringField("reason", letter.reason());
        JsonDocument.string(json, "cause", letter.cause());
        json.writeEndObject();
    }

    private static void writeActor(JsonGenerator json, String field, Actor actor) throws IOException {
        if (actor == null) {
            json.writeNullField(field);
            return;
        }
        json.writeObjectFieldStart(field);
        json.writeNumberField("id", actor.id());
        json.writeStringField("name", actor.name());
        json.writeEndObject();
    }

    private static Actor actor(ActorRef ref) {
        return ref == null ? null : new Actor(ref.id(), Objects.toString(ref.name(), ""));
    }

    private static String textOf(Object message) {
        try {
            return String.valueOf(message);
        } catch (RuntimeException e) {
            return "<toString failed: " + e.getClass().getName() + ">";
        }
    }

    private static String cut(String text) {
        return text.length() <= TEXT_LIMIT ? text : text.substring(0, TEXT_LIMIT) + "…";
    }
}
