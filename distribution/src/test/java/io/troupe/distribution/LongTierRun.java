package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The settings and the output folder of a long-tier run ({@code reliability/long-tier}, or Maven's
 * {@code -Plong-tier}): each setting is a system property with a default, read once; results go to
 * {@code target/long-tier/}, printed as well.
 *
 * <p><b>Threading:</b> stateless; the test thread.
 */
final class LongTierRun {

    /** Where results are written. */
    static final Path OUTPUT = Path.of("target", "long-tier");

    private LongTierRun() {
    }

    /** The system property {@code name} as a whole number, or {@code fallback}. */
    static long number(String name, long fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            long parsed = Long.parseLong(value.strip());
            if (parsed < 0) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the system property " + name + " must be a whole number >= 0, was '"
                    + value + "'");
        }
    }

    /** The system property {@code name} as a fraction in (0, 1], or {@code fallback}. */
    static double fraction(String name, double fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            double parsed = Double.parseDouble(value.strip());
            if (!(parsed > 0 && parsed <= 1)) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the system property " + name + " must be a number in (0, 1], was '"
                    + value + "'");
        }
    }

    /** The system property {@code name} in seconds, or {@code fallback}. */
    static Duration seconds(String name, Duration fallback) {
        return Duration.ofSeconds(number(name, fallback.toSeconds()));
    }

    /** A writer of {@code target/long-tier/NAME.history} when {@code longtier.historyFiles} is true, else null. */
    static Writer historyFile(String name) throws IOException {
        if (!Boolean.getBoolean("longtier.historyFiles")) {
            return null;
        }
        return Files.newBufferedWriter(Files.createDirectories(OUTPUT).resolve(name + ".history"), UTF_8);
    }

    /** Prints {@code text} and writes it to {@code target/long-tier/FILE}. */
    static void report(String file, String text) throws IOException {
        System.out.println(text);
        Files.writeString(Files.createDirectories(OUTPUT).resolve(file), text + "\n", UTF_8);
    }
}
