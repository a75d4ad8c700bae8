package io.troupe.server;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.monitor.TenantStats;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.TenantMetrics;

/**
 * The Gogo command {@code troupe:tenants} (registered as a plain service with the properties
 * {@code osgi.command.scope=troupe} and {@code osgi.command.function=tenants}, so that this bundle
 * imports nothing of Gogo's), and the sampler behind its rates.
 *
 * <p>Every {@value #WINDOW_SECONDS} s the sampler ends each tenant's rate window
 * ({@link TenantMetrics#sample}); every {@value #SUMMARY_WINDOWS} windows it logs one INFO line per
 * tenant that received requests in that time.
 *
 * <p><b>Threading:</b> {@link #tenants()} on the shell's thread; {@link #sample()} on the sampler's
 * own thread (never an IO loop); {@link #start}/{@link #close} by SCR.
 */
public final class TenantCommands {

    static final int WINDOW_SECONDS = 10;
    static final int SUMMARY_WINDOWS = 6;

    private static final Logger LOG = LoggerFactory.getLogger(TenantCommands.class);

    private final TenantDirectory directory;
    private final ServerStatistics statistics;
    private final LongSupplier nanoClock;
    private ScheduledExecutorService sampler;
    /** Sampler thread only. */
    private int windows;
    /** Sampler thread only: each tenant's request total at the last summary. */
    private final Map<Tenant, Long> lastSummary = new WeakHashMap<>();

    TenantCommands(TenantDirectory directory, LongSupplier nanoClock) {
        this.directory = directory;
        this.statistics = new ServerStatistics(directory);
        this.nanoClock = nanoClock;
    }

    /** The tenants' figures this command prints, for the {@link io.troupe.api.monitor.ServerStats} service. */
    ServerStatistics statistics() {
        return statistics;
    }

    /** {@code troupe:tenants}: one line per tenant, sorted by id. */
    public String tenants() {
        List<TenantStats> sorted = statistics.tenants();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-20s %11s %12s %10s %10s %10s%n",
                "TENANT", "CONNECTIONS", "REQUESTS", "REQ/S", "ERRORS", "RATE LIMIT"));
        for (TenantStats tenant : sorted) {
            out.append(line(tenant)).append(System.lineSeparator());
        }
        if (sorted.isEmpty()) {
            out.append("(no tenant configured)").append(System.lineSeparator());
        }
        return out.toString();
    }

    static String line(TenantStats tenant) {
        int limit = tenant.maxRequestsPerSecond();
        return String.format(Locale.ROOT, "%-20s %11s %12d %10.1f %10d %10s", tenant.tenant(),
                tenant.connections() + "/" + tenant.maxConnections(), tenant.requests(),
                tenant.requestsPerSecond(), tenant.errors(), limit == 0 ? "unlimited" : limit + "/s");
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
                    LOG.info("Tenant {}", line(ServerStatistics.of(tenant)).replaceAll(" +", " "));
                }
            }
        }
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
    }

    /** Stops the sampler thread. */
    void close() {
        if (sampler != null) {
            sampler.shutdownNow();
        }
    }
}
