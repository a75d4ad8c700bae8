package io.troupe.benchmarks.tenants;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * What tenant A sends in one scenario: so many connections, each with so many requests of one
 * handler and payload always in flight.
 *
 * <p><b>Threading:</b> immutable (the payload is never written after construction); any thread.
 *
 * @param connections the connections
 * @param inFlight    requests in flight on each
 * @param handler     the handler name of every request
 * @param payload     the content of every request
 */
record LoadShape(int connections, int inFlight, String handler, byte[] payload) {

    LoadShape {
        if (connections < 1 || inFlight < 1) {
            throw new IllegalArgumentException("connections and in-flight must be at least 1: " + connections
                    + " × " + inFlight);
        }
        payload = payload.clone();
    }

    /** A shape whose payload is {@code text} in ASCII, such as the microseconds of a burn. */
    static LoadShape ofText(int connections, int inFlight, String handler, String text) {
        return new LoadShape(connections, inFlight, handler, text.getBytes(StandardCharsets.US_ASCII));
    }

    /** A shape whose payload is {@code bytes} bytes of a fixed pattern. */
    static LoadShape ofSize(int connections, int inFlight, String handler, int bytes) {
        byte[] payload = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            payload[i] = (byte) (i * 31 + 7);
        }
        return new LoadShape(connections, inFlight, handler, payload);
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    int payloadBytes() {
        return payload.length;
    }

    /** For the report: {@code 16 × 64 × 64 B echo}, {@code 4 × 8 × burn "5000"}. */
    String label() {
        String what = isText() ? "\"" + new String(payload, StandardCharsets.US_ASCII) + "\"" : size(payload.length);
        return String.format(Locale.ROOT, "%d × %d × %s %s", connections, inFlight, handler, what);
    }

    private boolean isText() {
        if (payload.length == 0 || payload.length > 16) {
            return false;
        }
        for (byte b : payload) {
            if (b < '0' || b > '9') {
                return false;
            }
        }
        return true;
    }

    static String size(int bytes) {
        if (bytes >= 1024 && bytes % 1024 != 0) {
            return String.format(Locale.ROOT, "%,d B", bytes);
        }
        return bytes >= 1024 ? (bytes / 1024) + " KiB" : bytes + " B";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LoadShape shape && connections == shape.connections && inFlight == shape.inFlight
                && handler.equals(shape.handler) && Arrays.equals(payload, shape.payload);
    }

    @Override
    public int hashCode() {
        return (31 * connections + inFlight) * 31 * 31 + handler.hashCode() * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return label();
    }
}
