package io.troupe.ops.console;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * One JSON answer of the console, written member by member with jackson-core's streaming
 * {@link JsonGenerator} (no object mapping: the records of the runtime are walked as they are).
 *
 * <p><b>Threading:</b> implementations capture immutable snapshots; {@link #write} and {@link #bytes} may run
 * on any thread. The shared {@link JsonFactory} is thread-safe.
 */
@FunctionalInterface
interface JsonDocument {

    /** The factory of every generator of the console; thread-safe once configured. */
    JsonFactory FACTORY = JsonFactory.builder().build();

    /** Writes the document as one JSON value. */
    void write(JsonGenerator json) throws IOException;

    /** The document in UTF-8. */
    default byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator json = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            write(json);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory failed", e);
        }
        return out.toByteArray();
    }

    /** A number, or {@code null} for NaN and the infinities, which JSON cannot carry. */
    static void number(JsonGenerator json, String name, double value) throws IOException {
        if (Double.isFinite(value)) {
            json.writeNumberField(name, value);
        } else {
            json.writeNullField(name);
        }
    }

    /** A string member, or {@code null} when {@code value} is null. */
    static void string(JsonGenerator json, String name, String value) throws IOException {
        if (value == null) {
            json.writeNullField(name);
        } else {
            json.writeStringField(name, value);
        }
    }
}
