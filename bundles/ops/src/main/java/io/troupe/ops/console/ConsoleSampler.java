package io.troupe.ops.console;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.TenantStats;

/**
 * The console's one thread, {@value #THREAD_NAME}: once a second it takes a runtime snapshot and the server's
 * tenants, adds a {@link ChartHistory.Point} (messages and requests per second since the last tick, the p99
 * of the requests answered in that second), moves the tenants' latency windows on, takes in the host's new
 * deploy outcomes, and, while browsers listen, publishes the {@code update} event to them.
 *
 * <pre>
 *   every 1 s:  RuntimeStats.snapshot()  ServerStats.tenants()
 *                  │                         │
 *                  ├── ChartHistory.add(point) ◄── TenantWindows.sample(...)
 *                  ├── PluginCatalog.pollOutcomes()   (history, kept revisions)
 *                  └── EventStream.publish("update", ConsoleViews.update(...))   when clients &gt; 0
 * </pre>
 *
 * A tick that fails is logged and the next one runs; ticks never overlap.
 *
 * <p><b>Threading:</b> {@link #start} and {@link #close} on the component's thread; {@link #tick} on
 * {@value #THREAD_NAME} only (or a test's thread, when not started), so the counters of the last tick need no
 * lock.
 */
final class ConsoleSampler implements AutoCloseable {

    static final String THREAD_NAME = "troupe-console";
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleSampler.class);
    private static final double NANOS_PER_SECOND = 1_000_000_000.0;

    private final RuntimeStats stats;
    private final ConsoleViews views;
    private final TenantWindows windows;
    private final ChartHistory chart;
    private final PluginCatalog catalog;
    private final EventStream events;
    private final LongSupplier nanoClock;
    private ScheduledExecutorService executor;
    private long lastNanos;
    private long lastProcessed = -1;
    private long lastRequests = -1;
    private boolean failing;

    ConsoleSampler(RuntimeStats stats, ConsoleViews views, TenantWindows windows, ChartHistory chart,
                   PluginCatalog catalog, EventStream events, LongSupplier nanoClock) {
        this.stats = Objects.requireNonNull(stats, "stats");
        this.views = Objects.requireNonNull(views, "views");
        this.windows = Objects.requireNonNull(windows, "windows");
        this.chart = Objects.requireNonNull(chart, "chart");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.events = Objects.requireNonNull(events, "events");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** Ticks once a second from now on. */
    void start() {
        executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, THREAD_NAME);
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::safeTick, 0, 1, TimeUnit.SECONDS);
    }

    /** Stops ticking and waits (at most 5 s) for a tick in progress; an interrupt is kept for the caller. */
    @Override
    public void close() {
        if (executor == null) {
            return;
        }
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("The console's thread {} did not end within 5 s", THREAD_NAME);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void safeTick() {
        try {
            tick();
            if (failing) {
                LOG.info("The console's sampling works again");
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warn("The console's sampling failed; it goes on every second", e);
                failing = true;
            }
        }
    }

    /** One sample, and one event to the listening browsers. */
    void tick() {
        RuntimeSnapshot snapshot = stats.snapshot();
        List<TenantStats> tenants = views.serverTenants();
        long now = nanoClock.getAsLong();
        windows.sample(tenants, now);
        ChartHistory.Point point = point(snapshot, tenants, now);
        if (point != null) {
            chart.add(point);
        }
        catalog.pollOutcomes();
        if (events.clients() > 0) {
            events.publish("update", views.update(snapshot, tenants, point).bytes());
        }
    }

    /** The point since the last tick; null at the first, which has nothing to compare with. */
    private ChartHistory.Point point(RuntimeSnapshot snapshot, List<TenantStats> tenants, long now) {
        long processed = 0;
        for (HandlerStats handler : snapshot.handlers()) {
            processed += handler.processed();
        }
        long requests = 0;
        for (TenantStats tenant : tenants) {
            requests += tenant.requests();
        }
        ChartHistory.Point point = null;
        if (lastProcessed >= 0 && now > lastNanos) {
            double seconds = (now - lastNanos) / NANOS_PER_SECOND;
            // handlers that went (an undeploy) or tenants removed lower the sums: no negative rates
            double messages = Math.max(0, processed - lastProcessed) / seconds;
            double requestRate = Math.max(0, requests - lastRequests) / seconds;
            point = new ChartHistory.Point(snapshot.takenAt(), messages, requestRate,
                    windows.lastSecond().quantileSeconds(0.99));
        }
        lastNanos = now;
        lastProcessed = processed;
        lastRequests = requests;
        return point;
    }
}
