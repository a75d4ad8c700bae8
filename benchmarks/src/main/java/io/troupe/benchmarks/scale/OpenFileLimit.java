package io.troupe.benchmarks.scale;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's limit on open files (the soft limit, as {@code ulimit -n} shows it), read from
 * {@code /proc/self/limits}. The JVM raises its soft limit to the hard limit when it starts, so
 * what is read here is what the suite can use.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class OpenFileLimit {

    private OpenFileLimit() {
    }

    /** The limit, {@link Long#MAX_VALUE} for unlimited, or -1 when it cannot be read (not Linux). */
    static long current() {
        return read(0);
    }

    /** The hard limit (what the soft one may be raised to without privileges), as {@link #current()}. */
    static long hard() {
        return read(1);
    }

    private static long read(int column) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String value = line.substring("Max open files".length()).trim().split("\\s+")[column];
                    return value.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(value);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
