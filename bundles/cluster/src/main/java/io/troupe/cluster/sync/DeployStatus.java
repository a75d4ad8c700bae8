package io.troupe.cluster.sync;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Properties;

/**
 * What the host made of a plugin jar, read from {@code deploy/.status/<file>} (written by the host's deploy
 * watcher: {@code sha256} of the jar it judged, {@code outcome} {@value #RUNNING}, {@value #ROLLED_BACK} or
 * {@value #FAILED}, and a {@code reason} when refused).
 *
 * <p><b>Threading:</b> immutable; read on the sync thread.
 *
 * @param reason why the jar was refused; empty when it runs
 * @param time   when the host judged the jar; {@code null} when the file does not say
 */
record DeployStatus(String sha, String outcome, String reason, Instant time) {

    static final String FOLDER = ".status";
    static final String RUNNING = "running";
    static final String ROLLED_BACK = "rolled-back";
    static final String FAILED = "failed";

    /**
     * Whether this status can be about a jar put in place at {@code placedMillis}: the host judges a jar after
     * it is in place, so an older status is about an earlier file with the same bytes (the rule of
     * {@code DeployOutcomes}: a status whose time is not before the jar was put in place).
     */
    boolean judgedSince(long placedMillis) {
        return time == null || time.toEpochMilli() >= placedMillis;
    }

    /** Whether the jar was refused: nothing of it runs, or the previous revision runs instead. */
    boolean refused() {
        return FAILED.equals(outcome) || ROLLED_BACK.equals(outcome);
    }

    /** The status file of {@code deploy/<file>} in {@code deployFolder}. */
    static Path fileOf(Path deployFolder, String file) {
        return deployFolder.resolve(FOLDER).resolve(file);
    }

    /** The status in {@code statusFile}; {@code null} when missing or unreadable (the host writes it whole). */
    static DeployStatus read(Path statusFile) {
        Properties status = new Properties();
        try (InputStream in = Files.newInputStream(statusFile)) {
            status.load(in);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        Instant time;
        try {
            time = status.getProperty("time") == null ? null : Instant.parse(status.getProperty("time"));
        } catch (DateTimeParseException e) {
            time = null;
        }
        return new DeployStatus(status.getProperty("sha256", ""), status.getProperty("outcome", ""),
                status.getProperty("reason", ""), time);
    }
}
