package io.troupe.benchmarks.net;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of a network workload: connections × requests in flight per connection × payload.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public record Shape(int connections, int pipeline, int size) {

    /** The shapes of issues 6 and 20: one connection, pipelined, large frames, many connections. */
    static final List<Shape> STANDARD = List.of(new Shape(1, 1, 64), new Shape(64, 16, 64), new Shape(64, 1, 4096),
            new Shape(64, 4, 65536), new Shape(1000, 1, 64), new Shape(5000, 1, 64));

    static final Shape SINGLE = new Shape(1, 1, 64);
    static final Shape PIPELINED = new Shape(64, 16, 64);

    /** {@code 1x1x64,64x16x64}: connections x pipeline x bytes, comma-separated; {@code none} for none. */
    public static List<Shape> parseList(String text) {
        List<Shape> shapes = new ArrayList<>();
        if (text.equals("none")) {
            return shapes;
        }
        for (String item : text.split(",")) {
            String[] parts = item.trim().split("x");
            if (parts.length != 3) {
                throw new IllegalArgumentException("a shape is CONNECTIONSxPIPELINExBYTES, not '" + item + "'");
            }
            shapes.add(new Shape(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2])));
        }
        return shapes;
    }

    /** {@code 64 × 16 × 4 KiB}. */
    public String label() {
        String bytes = size >= 1024 && size % 1024 == 0 ? size / 1024 + " KiB" : size + " B";
        return connections + " × " + pipeline + " × " + bytes;
    }
}
