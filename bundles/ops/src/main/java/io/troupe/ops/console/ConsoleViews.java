package io.troupe.ops.console;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import io.troupe.api.TroupeRuntime;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantStats;

/**
 * The console's read side: each view of {@code GET /console/api/...} as a {@link JsonDocument} built from the
 * runtime's snapshots, the server's statistics and what the console keeps itself (plugin history, dead
 * letters, chart points), and the {@code update} event that bundles the live ones.
 *
 * <pre>
 *   overview     RuntimeStats.snapshot() + NodeIdentity        OverviewDocument
 *   actors       TroupeRuntime.actors() + PluginCatalog.origins()   ActorsDocument
 *   plugins      PluginCatalog.rows() + PluginHistory          PluginsDocument
 *   tenants      ServerStats.tenants() + snapshot's tenants    TenantsDocument
 *   deadletters  DeadLetterLog                                 (its document)
 *   log          LogTail                                       {"file", "exists", "lines"}
 *   history      ChartHistory                                  (its document)
 * </pre>
 *
 * <p><b>Threading:</b> any thread (servlet threads and the publisher). It holds no state of its own; the
 * services and the kept state are thread-safe.
 */
final class ConsoleViews {

    /** The most actors an {@code update} event lists; the actors view fetches the rest on demand. */
    static final int UPDATE_ACTOR_LIMIT = 1000;

    private final TroupeRuntime runtime;
    private final RuntimeStats stats;
    private final Supplier<ServerStats> server;
    private final Supplier<NodeIdentity> node;
    private final PluginCatalog catalog;
    private final PluginHistory history;
    private final TenantWindows windows;
    private final DeadLetterLog deadLetters;
    private final ChartHistory chart;
    private final LogTail log;

    ConsoleViews(TroupeRuntime runtime, RuntimeStats stats, Supplier<ServerStats> server, Supplier<NodeIdentity> node,
                 PluginCatalog catalog, PluginHistory history, TenantWindows windows, DeadLetterLog deadLetters,
                 ChartHistory chart, LogTail log) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.stats = Objects.requireNonNull(stats, "stats");
        this.server = Objects.requireNonNull(server, "server");
        this.node = Objects.requireNonNull(node, "node");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.history = Objects.requireNonNull(history, "history");
        this.windows = Objects.requireNonNull(windows, "windows");
        this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
        this.chart = Objects.requireNonNull(chart, "chart");
        this.log = Objects.requireNonNull(log, "log");
    }

    JsonDocument overview() {
        return overview(stats.snapshot());
    }

    JsonDocument actors(String tenant, int limit) {
        return new ActorsDocument(runtime.actors(), catalog.origins(), tenant, limit);
    }

    JsonDocument plugins() {
        String folder = catalog.folder().map(deploy -> deploy.dir().toString()).orElse(null);
        return new PluginsDocument(folder, catalog.rows(), history.entries());
    }

    JsonDocument tenants() {
        return tenants(stats.snapshot(), serverTenants());
    }

    JsonDocument deadLetters() {
        return deadLetters.document();
    }

    JsonDocument history() {
        return chart.document();
    }

    /**
     * The last {@code lines} lines of the log.
     *
     * @throws IllegalArgumentException when {@code lines} is out of range
     * @throws IOException              when the log exists but cannot be read
     */
    JsonDocument log(int lines) throws IOException {
        List<String> tail = log.lines(lines);
        String file = log.file() == null ? null : log.file().toString();
        boolean exists = log.file() != null && java.nio.file.Files.isRegularFile(log.file());
        return json -> {
            json.writeStartObject();
            JsonDocument.string(json, "file", file);
            json.writeBooleanField("exists", exists);
            json.writeArrayFieldStart("lines");
            for (String line : tail) {
                json.writeString(line);
            }
            json.writeEndArray();
            json.writeEndObject();
        };
    }

    /** The server's tenants now; empty when it does not run. */
    List<TenantStats> serverTenants() {
        ServerStats current = server.get();
        return current == null ? List.of() : current.tenants();
    }

    /**
     * The {@code update} event: the live views in one document, from one snapshot.
     *
     * <pre>
     * {"overview": {..}, "tenants": {..}, "actors": {.. at most 1000 ..}, "plugins": {..},
     *  "point": {.. the chart's newest ..} | null, "deadLetters": {"seen", "latest"}}
     * </pre>
     *
     * {@code deadLetters.latest} is the sequence of the newest letter kept: the page fetches the dead letters
     * view when it changes.
     */
    JsonDocument update(RuntimeSnapshot snapshot, List<TenantStats> tenants, ChartHistory.Point point) {
        JsonDocument overview = overview(snapshot);
        JsonDocument tenantsView = tenants(snapshot, tenants);
        JsonDocument actors = actors(null, UPDATE_ACTOR_LIMIT);
        JsonDocument plugins = plugins();
        List<DeadLetterLog.Letter> letters = deadLetters.latest();
        long seen = deadLetters.seen();
        return json -> {
            json.writeStartObject();
            json.writeFieldName("overview");
            overview.write(json);
            json.writeFieldName("tenants");
            tenantsView.write(json);
            json.writeFieldName("actors");
            actors.write(json);
            json.writeFieldName("plugins");
            plugins.write(json);
            json.writeFieldName("point");
            if (point == null) {
                json.writeNull();
            } else {
                point.write(json);
            }
            json.writeObjectFieldStart("deadLetters");
            json.writeNumberField("seen", seen);
            json.writeNumberField("latest", letters.isEmpty() ? 0 : letters.get(0).sequence());
            json.writeEndObject();
            json.writeEndObject();
        };
    }

    private JsonDocument overview(RuntimeSnapshot snapshot) {
        return new OverviewDocument(node.get(), snapshot);
    }

    private JsonDocument tenants(RuntimeSnapshot snapshot, List<TenantStats> tenants) {
        return new TenantsDocument(server.get() != null, tenants, snapshot.tenants(), windows);
    }
}
