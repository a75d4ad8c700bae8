package io.troupe.server;

import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.monitor.TenantStats;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.TenantMetrics;
import io.troupe.server.tenant.TenantThrottling;

/**
 * The thread that watches the tenants ({@code troupe-tenant-metrics}):
 * <ul>
 * <li>every {@value #WINDOW_SECONDS} s it ends each tenant's rate window ({@link TenantMetrics#sample});
 *     every {@value #SUMMARY_WINDOWS} windows it logs one INFO line per tenant that received requests in
 *     that time;</li>
 * <li>every {@value #WATCH_MILLIS} ms it looks at each tenant's throttling
 *     ({@link TenantThrottling#watch}) and logs one INFO line when a limit starts throttling a tenant and
 *     one when it stops, with how long it lasted: never one per message.</li>
 * </ul>
 * The figures themselves are served by {@link ServerStatistics} (the {@code ServerStats} service), which
 * the shell's {@code troupe:tenants} prints.
 *
 * <p><b>Threading:</b> {@link #sample()} and {@link #watchThrottling()} on the sampler's own thread
 * (never an IO loop), or a test's; {@link #start}/{@link #close} by SCR.
 */
final class TenantSampler {

    static final int WINDOW_SECONDS = 10;
    static final int SUMMARY_WINDOWS = 6;
    static final int WATCH_MILLIS = 250;

    private static final Logger LOG = LoggerFactory.getLogger(TenantSampler.class);

    private final TenantDirectory directory;
    private final ServerStatistics statistics;
    private final LongSupplier nanoClock;
    private final IntSupplier serverMaxFrameBytes;
    private ScheduledExecutorService sampler;
    /** Sampler thread only. */
    private int windows;
    /** Sampler thread only: each tenant's request total at the last summary. */
    private final Map<Tenant, Long> lastSummary = new WeakHashMap<>();

    TenantSampler(TenantDirectory directory, LongSupplier nanoClock, IntSupplier serverMaxFrameBytes) {
        this.directory = directory;
        this.statistics = new ServerStatistics(directory, serverMaxFrameBytes);
        this.nanoClock = nanoClock;
        this.serverMaxFrameBytes = serverMaxFrameBytes;
    }

    /** The tenants' figures, for the {@link io.troupe.api.monitor.ServerStats} service. */
    ServerStatistics statistics() {
        return statistics;
    }

    /** Ends every tenant's window now; logs the summary every {@value #SUMMARY_WINDOWS} windows. */
    void sample() {
        long now = nanoClock.getAsLong();
        boolean summary = ++windows % SUMMARY_WINDOWS == 0;
        for (Tenant tenant : directory.tenants()) {
            TenantMetrics metrics = tenant.metrics();
            metrics.sample(now);
            if (summary) {
                long total = metrics.requests();
                if (total != summarised(tenant, total)) {
                    LOG.info("Tenant {}", summary(ServerStatistics.of(tenant, serverMaxFrameBytes.getAsInt())));
                }
            }
        }
    }

    /** Logs the throttling episodes that started or ended since the last look. */
    void watchThrottling() {
        for (Tenant tenant : directory.tenants()) {
            for (TenantThrottling.Episode episode : tenant.throttling().watch(tenant.nanoTime())) {
                int limit = episode.limit().valueIn(tenant.config().limits());
                if (episode.started()) {
                    LOG.info("Tenant '{}' is throttled by {} ({}): its connections are read only as fast as the "
                            + "limit allows", tenant.id(), episode.limit().configKey(),
                            limit == 0 ? "now unlimited" : limit);
                } else {
                    LOG.info("Tenant '{}' is no longer throttled by {}: throttled {} s over {} s", tenant.id(),
                            episode.limit().configKey(), seconds(episode.throttledNanos()),
                            seconds(episode.durationNanos()));
                }
            }
        }
    }

    /** One tenant's figures on one line, for the summary. */
    static String summary(TenantStats tenant) {
        int limit = tenant.maxRequestsPerSecond();
        return String.format(Locale.ROOT, "%s connections %d/%d requests %d req/s %.1f errors %d bytes %d "
                + "rate limit %s", tenant.tenant(), tenant.connections(), tenant.maxConnections(), tenant.requests(),
                tenant.requestsPerSecond(), tenant.errors(), tenant.bytesReceived(),
                limit == 0 ? "unlimited" : limit + "/s");
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }

    private long summarised(Tenant tenant, long total) {
        Long previous = lastSummary.put(tenant, total);
        return previous == null ? 0 : previous;
    }

    /** Starts the sampler thread. */
    void start() {
        sampler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "troupe-tenant-metrics");
            thread.setDaemon(true);
            return thread;
        });
        sampler.scheduleAtFixedRate(() -> {
            try {
                sample();
            } catch (RuntimeException e) {
                LOG.warn("Sampling the tenants' metrics failed", e);
            }
        }, WINDOW_SECONDS, WINDOW_SECONDS, TimeUnit.SECONDS);
        sampler.scheduleAtFixedRate(() -> {
            try {
                watchThrottling();
            } catch (RuntimeException e) {
                LOG.warn("Watching the tenants' throttling failed", e);
            }
        }, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Stops the sampler thread. */
    void close() {
        if (sampler != null) {
            sampler.shutdownNow();
        }
    }
}
