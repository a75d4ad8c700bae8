package io.troupe.server.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live certificate rotation: looks at the files of a TLS configuration (keystore, trust store and their
 * password files) every period and, when their content changed, builds a new context and hands it to
 * {@code built}, which {@linkplain ServerTlsEngines#swap swaps} it in: new connections get the new
 * certificate, open ones keep theirs. A new store that cannot be used (corrupt, wrong password, half
 * written) is logged once at ERROR and the old context stays; the next change is tried again. Started
 * after a configuration whose context could not be built at all, it hands over the first one that can.
 *
 * <p><b>Threading:</b> one daemon thread of its own ({@value #THREAD_NAME}), started by the
 * constructor and stopped by {@link #close()}; builds happen there, never on an IO loop.
 */
public final class CertificateRotation implements AutoCloseable {

    static final String THREAD_NAME = "troupe-tls-rotation";

    private static final Logger LOG = LoggerFactory.getLogger(CertificateRotation.class);

    private final TlsSettings settings;
    private final Path home;
    private final List<Path> files;
    private final Consumer<ServerTlsContext> built;
    private final ScheduledExecutorService thread;
    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    /** What the files held at the last look; on the rotation thread only (first set before it starts). */
    private FileFingerprint seen;

    /**
     * Starts watching the files of {@code settings}; their content now is the baseline.
     *
     * @param settings the TLS configuration
     * @param home     the directory relative paths are resolved against, or {@code null}
     * @param built    receives each context built after a change, on the rotation thread
     * @param period   how often the files are looked at
     */
    public CertificateRotation(TlsSettings settings, Path home, Consumer<ServerTlsContext> built, Duration period) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.home = home;
        this.files = ServerTlsContext.files(settings, home);
        this.built = Objects.requireNonNull(built, "built");
        this.seen = FileFingerprint.of(files);
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread daemon = new Thread(task, THREAD_NAME);
            daemon.setDaemon(true);
            return daemon;
        });
        long millis = period.toMillis();
        thread.scheduleWithFixedDelay(this::look, millis, millis, TimeUnit.MILLISECONDS);
    }

    private void look() {
        try {
            FileFingerprint now = FileFingerprint.of(files);
            if (now.equals(seen)) {
                return;
            }
            seen = now;
            ServerTlsContext next = ServerTlsContext.build(settings, home);
            LOG.info("TLS certificate reloaded: new connections get {}", next.describe());
            built.accept(next);
            reloads.incrementAndGet();
        } catch (TlsConfigurationException e) {
            failures.incrementAndGet();
            LOG.error("TLS certificate not reloaded: {}; the certificate in use (if any) stays", e.getMessage());
        } catch (RuntimeException e) {
            failures.incrementAndGet();
            LOG.error("TLS certificate not reloaded; the current one stays", e);
        }
    }

    /** How many changes were loaded. */
    long reloads() {
        return reloads.get();
    }

    /** How many changes could not be loaded (the old context stayed). */
    long failures() {
        return failures.get();
    }

    /** Stops watching; waits (briefly) for a look under way. */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("{} did not stop within 5 s", THREAD_NAME);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
