package io.troupe.ops.http;

import java.io.IOException;
import java.io.OutputStream;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import jakarta.servlet.http.HttpServletResponse;

/**
 * Writes a JSON body (UTF-8, {@code application/json}, never cached) with Jackson's streaming generator, and
 * the endpoint's error bodies: {@code {"error":"unauthorized","message":"..."}}.
 *
 * <p><b>Threading:</b> stateless (the factory is thread-safe); any thread.
 */
public final class JsonResponse {

    /** A body written field by field. */
    @FunctionalInterface
    public interface Body {
        /** Writes the body's value (an object, usually) with {@code json}. */
        void write(JsonGenerator json) throws IOException;
    }

    private static final JsonFactory JSON = JsonFactory.builder().build();

    private JsonResponse() {
    }

    /** Answers {@code status} with {@code body}. */
    public static void send(HttpServletResponse response, int status, Body body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        OutputStream out = response.getOutputStream();
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            body.write(json);
        }
    }

    /** Answers {@code status} with {@code {"error": error, "message": message}}. */
    public static void error(HttpServletResponse response, int status, String error, String message)
            throws IOException {
        send(response, status, json -> {
            json.writeStartObject();
            json.writeStringField("error", error);
            json.writeStringField("message", message);
            json.writeEndObject();
        });
    }
}
