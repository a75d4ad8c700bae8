package io.troupe.client.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * What the host did with a jar of the deploy folder, as its deploy watcher writes it to
 * {@code deploy/.status/<file>}: a Java properties file replaced atomically after every judgement
 * (keys {@code file}, {@code sha256}, {@code outcome}, {@code symbolicName}, {@code version},
 * {@code runningVersion}, {@code reason}, {@code time}).
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param file           the jar's file name in the folder, such as {@code kv.jar}
 * @param sha256         lowercase hex SHA-256 of the bytes the host judged
 * @param outcome        what came of them
 * @param symbolicName   the judged jar's Bundle-SymbolicName; empty when the jar was unreadable
 * @param version        the judged jar's Bundle-Version; empty when the jar was unreadable
 * @param runningVersion the version of the bundle running from this file now; empty when none runs
 * @param reason         why the jar was refused; empty for {@link Outcome#RUNNING}
 * @param time           when the host wrote the outcome
 */
public record DeployStatus(String file, String sha256, Outcome outcome, Optional<String> symbolicName,
        Optional<String> version, Optional<String> runningVersion, Optional<String> reason, Instant time) {

    /** The hidden folder of the deploy folder holding one status file per jar. */
    public static final String FOLDER = ".status";
    /** The extension of the marker the host writes beside a refused jar: {@code kv.jar.failed}. */
    public static final String FAILED_MARKER = ".failed";

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    /** The host's judgement of a jar. */
    public enum Outcome {
        /** This jar is what runs now. */
        RUNNING("running"),
        /** An update was refused; the previous revision was put back and runs. */
        ROLLED_BACK("rolled-back"),
        /** Nothing from this jar runs: not a bundle, not installed, not started, or no rollback possible. */
        FAILED("failed");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }

        /** As the status file spells it: {@code running}, {@code rolled-back}, {@code failed}. */
        @Override
        public String toString() {
            return text;
        }

        static Optional<Outcome> of(String text) {
            for (Outcome outcome : values()) {
                if (outcome.text.equals(text)) {
                    return Optional.of(outcome);
                }
            }
            return Optional.empty();
        }
    }

    /** The status file of the jar {@code file} of the deploy folder {@code deployDir}. */
    public static Path fileOf(Path deployDir, String file) {
        return deployDir.resolve(FOLDER).resolve(file);
    }

    /**
     * Reads the status file {@code statusFile}.
     *
     * @return empty when there is no such file (the host has not judged the jar yet)
     * @throws DeployException {@link DeployException#IO_ERROR} when it cannot be read,
     *                         {@link DeployException#BAD_STATUS} naming the file, the key and the
     *                         reason when a key is missing or has a bad value
     */
    public static Optional<DeployStatus> read(Path statusFile) throws DeployException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(statusFile)) {
            properties.load(in);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            throw new DeployException(DeployException.IO_ERROR, "cannot read the host's status " + statusFile + ": "
                    + e.getMessage(), e);
        }
        String file = required(properties, "file", statusFile);
        String sha256 = required(properties, "sha256", statusFile);
        if (!SHA256.matcher(sha256).matches()) {
            throw badKey(statusFile, "sha256", sha256, "not 64 lowercase hex digits");
        }
        String outcomeText = required(properties, "outcome", statusFile);
        Outcome outcome = Outcome.of(outcomeText).orElseThrow(
                () -> badKey(statusFile, "outcome", outcomeText, "not running, rolled-back or failed"));
        String timeText = required(properties, "time", statusFile);
        Instant time;
        try {
            time = Instant.parse(timeText);
        } catch (DateTimeParseException e) {
            throw badKey(statusFile, "time", timeText, "not an ISO-8601 instant such as 2026-12-01T21:00:00Z");
        }
        return Optional.of(new DeployStatus(file, sha256, outcome, optional(properties, "symbolicName"),
                optional(properties, "version"), optional(properties, "runningVersion"),
                optional(properties, "reason"), time));
    }

    /** Whether this is the host's judgement of the bytes {@code sha256} renamed into place at {@code since} or later. */
    public boolean judges(String sha256, Instant since) {
        return this.sha256.equals(sha256.toLowerCase(Locale.ROOT)) && !time.isBefore(since);
    }

    /** What runs from the file now: {@code io.troupe.sample.counter 1.0.0}, or {@code nothing}. */
    public String running() {
        if (runningVersion.isEmpty()) {
            return "nothing";
        }
        return symbolicName.map(name -> name + " ").orElse("") + runningVersion.get();
    }

    /** The judged jar: {@code io.troupe.sample.counter 2.0.0}, or {@code an unreadable jar}. */
    public String judged() {
        return symbolicName.isEmpty() ? "an unreadable jar" : symbolicName.get() + version.map(v -> " " + v).orElse("");
    }

    private static String required(Properties properties, String key, Path statusFile) throws DeployException {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new DeployException(DeployException.BAD_STATUS, "the host's status " + statusFile + " has no "
                    + key);
        }
        return value.strip();
    }

    private static Optional<String> optional(Properties properties, String key) {
        String value = properties.getProperty(key);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    private static DeployException badKey(Path statusFile, String key, String value, String why) {
        return new DeployException(DeployException.BAD_STATUS, "the host's status " + statusFile + " has " + key
                + " '" + value + "': " + why);
    }
}
