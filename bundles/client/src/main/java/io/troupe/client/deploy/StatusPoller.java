package io.troupe.client.deploy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Waits for the host's outcome of a jar renamed into the deploy folder: reads
 * {@code deploy/.status/<file>} every {@value #INTERVAL_MILLIS} ms until it judges the renamed bytes
 * (same SHA-256, written at or after the rename, so that a stale status of the same bytes copied
 * earlier does not count), or until the time allowed is over.
 *
 * <p>The clock gives the instant taken before a rename and the deadline; the host stamps its status
 * from the same system clock. Tests pass a fixed clock and a pause that plays the host.
 *
 * <p><b>Threading:</b> immutable; {@link #await} blocks the calling thread, and any number of threads
 * may wait at once.
 */
public final class StatusPoller {

    /** How long a deploy waits for the host by default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    static final long INTERVAL_MILLIS = 100;
    private static final Duration INTERVAL = Duration.ofMillis(INTERVAL_MILLIS);

    /** Waits between two reads of the status file. */
    @FunctionalInterface
    public interface Pause {
        /** Returns after about {@code duration}; may return early. */
        void pause(Duration duration) throws InterruptedException;
    }

    private final Clock clock;
    private final Pause pause;

    /** Polls on the system clock, sleeping between reads. */
    public StatusPoller() {
        this(Clock.systemUTC(), duration -> Thread.sleep(Math.max(1, duration.toMillis())));
    }

    public StatusPoller(Clock clock, Pause pause) {
        this.clock = clock;
        this.pause = pause;
    }

    /** The current instant of this poller's clock: taken just before a rename, it is the {@code since} of a wait. */
    public Instant now() {
        return clock.instant();
    }

    /**
     * The host's judgement of the bytes {@code sha256} renamed to {@code deployDir/file} at {@code since}.
     *
     * @param shown how messages name the jar, such as {@code deploy/kv.jar}
     * @throws DeployException {@link DeployException#DEPLOY_TIMEOUT} when none came within {@code timeout};
     *                         {@link DeployException#BAD_STATUS} or {@link DeployException#IO_ERROR} when
     *                         the status file cannot be read
     */
    public DeployStatus await(Path deployDir, String file, String shown, String sha256, Instant since,
            Duration timeout) throws DeployException, InterruptedException {
        Path statusFile = DeployStatus.fileOf(deployDir, file);
        Instant deadline = clock.instant().plus(timeout);
        while (true) {
            Optional<DeployStatus> status = DeployStatus.read(statusFile);
            if (status.isPresent() && status.get().judges(sha256, since)) {
                return status.get();
            }
            Instant now = clock.instant();
            if (!now.isBefore(deadline)) {
                throw new DeployException(DeployException.DEPLOY_TIMEOUT, "the host reported no outcome for " + shown
                        + " within " + seconds(timeout) + " (is Troupe running, and is " + deployDir
                        + " its deploy folder?); the jar stays there");
            }
            Duration left = Duration.between(now, deadline);
            pause.pause(left.compareTo(INTERVAL) < 0 ? left : INTERVAL);
        }
    }

    private static String seconds(Duration timeout) {
        long millis = timeout.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
