package io.troupe.ops.console;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;

/**
 * The points of the console's charts: one a second for the last {@value #CAPACITY} seconds (10 minutes), in
 * memory, oldest first. {@code GET /console/api/history} answers them all:
 *
 * <pre>
 * {"periodSeconds": 1, "capacity": 600,
 *  "points": [{"time": 1764676800000, "messagesPerSecond": 120.0, "requestsPerSecond": 98.0,
 *              "p99Seconds": 0.0021 | null}]}
 * </pre>
 *
 * {@code time} is in epoch milliseconds; {@code p99Seconds} is null for a second without a request.
 *
 * <p><b>Threading:</b> {@link #add} by the console's sampler; {@link #points} from any thread. Both
 * synchronise on this object.
 */
final class ChartHistory {

    /** Points kept: 10 minutes at one a second. */
    static final int CAPACITY = 600;

    /**
     * One second.
     *
     * @param messagesPerSecond messages the handlers processed, per second since the previous point
     * @param requestsPerSecond requests the server received, per second since the previous point
     * @param p99Seconds        the 99th percentile of the requests answered in that time, NaN when none
     */
    record Point(Instant time, double messagesPerSecond, double requestsPerSecond, double p99Seconds) {

        Point {
            Objects.requireNonNull(time, "time");
        }

        void write(JsonGenerator json) throws IOException {
            json.writeStartObject();
            json.writeNumberField("time", time.toEpochMilli());
            JsonDocument.number(json, "messagesPerSecond", messagesPerSecond);
            JsonDocument.number(json, "requestsPerSecond", requestsPerSecond);
            JsonDocument.number(json, "p99Seconds", p99Seconds);
            json.writeEndObject();
        }
    }

    private final ArrayDeque<Point> points = new ArrayDeque<>(CAPACITY);

    synchronized void add(Point point) {
        points.addLast(point);
        while (points.size() > CAPACITY) {
            points.removeFirst();
        }
    }

    /** The points, oldest first. */
    synchronized List<Point> points() {
        return List.copyOf(points);
    }

    /** The document of every point kept now. */
    JsonDocument document() {
        List<Point> snapshot = points();
        return json -> {
            json.writeStartObject();
            json.writeNumberField("periodSeconds", 1);
            json.writeNumberField("capacity", CAPACITY);
            json.writeArrayFieldStart("points");
            for (Point point : snapshot) {
                point.write(json);
            }
            json.writeEndArray();
            json.writeEndObject();
        };
    }
}
