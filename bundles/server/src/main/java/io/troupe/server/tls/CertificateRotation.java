package io.troupe.server.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live certificate rotation: looks at the files of the current {@link ServerTlsContext} (keystore,
 * trust store and their password files) every period and, when their content changed, builds a new
 * context and {@linkplain ServerTlsEngines#swap swaps} it in: new connections get the new certificate,
 * open ones keep theirs. A new store that cannot be used (corrupt, wrong password, half written) is
 * logged once at ERROR and the old context stays; the next change is tried again.
 *
 * <p><b>Threading:</b> one daemon thread of its own ({@value #THREAD_NAME}), started by the
 * constructor and stopped by {@link #close()}; builds happen there, never on an IO loop.
 */
public final class CertificateRotation implements AutoCloseable {

    static final String THREAD_NAME = "troupe-tls-rotation";

    private static final Logger LOG = LoggerFactory.getLogger(CertificateRotation.class);

    private final TlsSettings settings;
    private final Path home;
    private final ServerTlsEngines engines;
    private final ScheduledExecutorService thread;
    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    /** What the files held at the last look; on the rotation thread only (first set before it starts). */
    private FileFingerprint seen;

    /**
     * Starts watching the files of {@code engines}' current context.
     *
     * @param settings what {@code engines}' current context was built from
     * @param home     the directory relative paths are resolved against, or {@code null}
     * @param period   how often the files are looked at
     */
    public CertificateRotation(TlsSettings settings, Path home, ServerTlsEngines engines, Duration period) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.home = home;
        this.engines = Objects.requireNonNull(engines, "engines");
        this.seen = FileFingerprint.of(engines.current().files());
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
            FileFingerprint now = FileFingerprint.of(engines.current().files());
            if (now.equals(seen)) {
                return;
            }
            seen = now;
            ServerTlsContext next = ServerTlsContext.build(settings, home);
            engines.swap(next);
            reloads.incrementAndGet();
            LOG.info("TLS certificate reloaded: new connections get {}", next.describe());
        } catch (TlsConfigurationException e) {
            failures.incrementAndGet();
            LOG.error("TLS certificate not reloaded: {}; new connections keep getting {}", e.getMessage(),
                    engines.current().describe());
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
