package io.troupe.ops.console;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads a console document back with a real JSON parser (jackson-databind), so that tests check what a
 * browser or a script gets, not what the generator was asked to write.
 *
 * <p><b>Threading:</b> stateless; the mapper is thread-safe.
 */
final class JsonTrees {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonTrees() {
    }

    static JsonNode read(JsonDocument document) {
        try {
            return MAPPER.readTree(document.bytes());
        } catch (IOException e) {
            throw new UncheckedIOException("the document is not JSON", e);
        }
    }
}
