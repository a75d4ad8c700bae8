package io.troupe.ops.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.troupe.api.cluster.ClusterMember;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.cluster.Migration;
import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.PoolStats;
import io.troupe.api.monitor.RequestLatency;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.monitor.TenantStats;
import io.troupe.api.monitor.ThreadStats;
import io.troupe.api.monitor.WorkerPoolStats;
import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;
import io.troupe.api.state.StoreStats;
import io.troupe.api.state.StoredState;
import io.troupe.testsupport.PrometheusText;
import io.troupe.testsupport.PrometheusText.Format;
import io.troupe.testsupport.PrometheusText.Scrape;

/**
 * {@link TroupeCollector} over the runtime's real records, written by the Prometheus library's writers in both
 * formats and read back by a strict parser ({@link PrometheusText}): names, types, units, labels and values;
 * absent parts absent; the {@code node} label on a cluster node only; counters that do not go back between
 * scrapes.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class TroupeCollectorTest {

    /** The server's buckets: 1, 2, 5 per decade from 10 µs to 50 s. */
    private static final List<Long> BOUNDS = bounds();

    private final Sources sources = new Sources();
    private final TroupeCollector collector = new TroupeCollector(sources);

    @Test
    void theRuntimesCountersBecomeTypedFamiliesWithBaseUnitsAndBoundedLabels() throws IOException {
        sources.runtime = () -> runtime(1520, 3, 2);
        sources.server = () -> List.of(tenant("acme", 1520, 2, latency(100, 7), 3), tenant("beta", 0, 0,
                latency(0, 0), 0));

        Scrape scrape = scrape(Format.TEXT);

        assertEquals("counter", scrape.family("troupe_messages_processed_total").type());
        assertEquals(1520, scrape.value("troupe_messages_processed_total", "handler", "echo"));
        assertEquals(20, scrape.value("troupe_messages_processed_total", "handler", "wordcount"));
        assertEquals(1, scrape.value("troupe_messages_failed_total", "handler", "wordcount"));
        assertEquals(7, scrape.value("troupe_dead_letters_total"));
        assertEquals("gauge", scrape.family("troupe_mailbox_backlog_messages").type());
        assertEquals(12, scrape.value("troupe_mailbox_backlog_messages"));
        assertEquals(9, scrape.value("troupe_actors"));
        assertEquals(1, scrape.value("troupe_workers", "state", "busy"));
        assertEquals(3, scrape.value("troupe_workers", "state", "idle"));
        assertEquals(4, scrape.value("troupe_worker_pool_size"));
        assertEquals(8, scrape.value("troupe_worker_pool_max_size"));
        assertEquals(0.25, scrape.value("troupe_worker_busy_ratio"));
        assertEquals(0.5, scrape.value("troupe_io_loop_busy_ratio", "loop", "troupe-io-1"));
        assertEquals(0.0, scrape.value("troupe_io_loop_busy_ratio", "loop", "troupe-acceptor"));
        assertEquals(1.5, scrape.value("troupe_tenant_worker_seconds_total", "tenant", "acme"));
        assertEquals(3, scrape.value("troupe_plugin_swaps_total"));
        assertEquals(2, scrape.value("troupe_plugin_rollbacks_total"));
        assertEquals(8192, scrape.value("troupe_log_queue_bytes"));
        assertEquals(4, scrape.value("troupe_log_records_dropped_total"));

        assertEquals(2, scrape.value("troupe_connections", "tenant", "acme"));
        assertEquals(1520, scrape.value("troupe_requests_total", "tenant", "acme"));
        assertEquals(0, scrape.value("troupe_requests_total", "tenant", "beta"));
        assertEquals(2, scrape.value("troupe_errors_total", "tenant", "acme", "code", "no.handler"));
        assertEquals(1, scrape.value("troupe_errors_total", "tenant", "acme", "code", TenantStats.OTHER_ERRORS));
        assertFalse(scrape.has("troupe_errors_total", "tenant", "beta", "code", "no.handler"),
                "no point for a code that never happened");
        assertEquals(4096, scrape.value("troupe_received_bytes_total", "tenant", "acme"));
        assertEquals(1.5, scrape.value("troupe_throttled_seconds_total", "tenant", "acme", "limit",
                TenantStats.REQUESTS_PER_SECOND));

        assertEquals("histogram", scrape.family("troupe_request_duration_seconds").type());
        assertEquals(107, scrape.value("troupe_request_duration_seconds_count", "tenant", "acme"));
        assertEquals(100, scrape.value("troupe_request_duration_seconds_bucket", "tenant", "acme", "le", "0.002"),
                "100 requests in (1 ms, 2 ms]");
        assertEquals(107, scrape.value("troupe_request_duration_seconds_bucket", "tenant", "acme", "le", "0.1"));
        assertEquals(107, scrape.value("troupe_request_duration_seconds_bucket", "tenant", "acme", "le", "+Inf"));
        assertEquals(0.1 * 1.5 + 7 * 0.08, scrape.value("troupe_request_duration_seconds_sum", "tenant", "acme"),
                1e-9);
        assertEquals(0, scrape.value("troupe_request_duration_seconds_count", "tenant", "beta"));
        assertEquals(22, scrape.family("troupe_request_duration_seconds").samples().stream()
                .filter(s -> s.name().endsWith("_bucket") && "acme".equals(s.labels().get("tenant"))).count());

        Set<String> labelNames = new TreeSet<>();
        scrape.samples().forEach(sample -> labelNames.addAll(sample.labels().keySet()));
        assertEquals(Set.of("code", "handler", "le", "limit", "loop", "state", "tenant"), labelNames,
                "only bounded labels, and no node on a single node");
    }

    @Test
    void openMetricsCarriesTheSameFamiliesWithUnitsAndEof() throws IOException {
        sources.runtime = () -> runtime(10, 0, 0);
        sources.server = () -> List.of(tenant("acme", 10, 1, latency(10, 0), 0));

        Scrape text = scrape(Format.TEXT);
        Scrape open = scrape(Format.OPENMETRICS);

        assertEquals("counter", open.family("troupe_requests").type(), "OpenMetrics names a counter without _total");
        assertEquals(10, open.value("troupe_requests_total", "tenant", "acme"));
        assertEquals("seconds", open.family("troupe_request_duration_seconds").unit());
        assertEquals("bytes", open.family("troupe_log_queue_bytes").unit());
        assertEquals(text.samples().stream().filter(s -> !s.name().endsWith("_created")).count(),
                open.samples().stream().filter(s -> !s.name().endsWith("_created")).count());
    }

    @Test
    void anAbsentPartHasNoMetricsRatherThanZeros() throws IOException {
        Scrape nothing = scrape(Format.TEXT);
        assertTrue(nothing.families().isEmpty(), "no service, no family: " + nothing.families().keySet());

        sources.runtime = () -> runtime(1, 0, 0);
        Scrape hostOnly = scrape(Format.TEXT);
        assertTrue(hostOnly.families().containsKey("troupe_actors"));
        assertFalse(hostOnly.families().containsKey("troupe_requests_total"), "no server");
        assertFalse(hostOnly.families().containsKey("troupe_store_writes_total"), "no store");
        assertFalse(hostOnly.families().containsKey("troupe_cluster_members"), "no cluster");

        sources.store = new Store(new StoreStats(40, 4000, 8, 2_500_000, 12, 1200));
        Scrape withStore = scrape(Format.TEXT);
        assertEquals(40, withStore.value("troupe_store_writes_total"));
        assertEquals(4000, withStore.value("troupe_store_written_bytes_total"));
        assertEquals(8, withStore.value("troupe_store_syncs_total"));
        assertEquals(12, withStore.value("troupe_store_states"));
        assertEquals(1200, withStore.value("troupe_store_stored_bytes"));
        assertEquals(0.0025, withStore.value("troupe_store_write_p99_seconds"), 1e-12);
    }

    @Test
    void onAClusterNodeEveryPointCarriesTheNodesAddressAndEndedMigrationsAreCountedOnce() throws IOException {
        Instant start = Instant.parse("2026-12-02T10:00:00Z");
        Cluster cluster = new Cluster();
        cluster.migrations = List.of(
                new Migration("acme", "n1", "n2", Migration.Cause.JOIN, start, Duration.ofSeconds(2), true),
                new Migration("beta", "n2", "", Migration.Cause.LEAVE, start.plusSeconds(5), Duration.ZERO, false));
        sources.cluster = cluster;
        sources.runtime = () -> runtime(5, 0, 0);
        sources.server = () -> List.of(tenant("acme", 5, 1, latency(5, 0), 0));

        Scrape first = scrape(Format.TEXT);
        for (PrometheusText.Sample sample : first.samples()) {
            assertEquals("10.0.0.2:5701", sample.labels().get("node"), "every point has the node label: " + sample);
        }
        assertEquals(3, first.value("troupe_cluster_members", "node", "10.0.0.2:5701"));
        assertEquals(1, first.value("troupe_cluster_missing_members", "node", "10.0.0.2:5701"));
        assertEquals(1, first.value("troupe_cluster_migrations_in_progress", "node", "10.0.0.2:5701"));
        assertEquals(1, first.value("troupe_cluster_migrations_total", "node", "10.0.0.2:5701", "cause", "join"));
        assertEquals(0, first.value("troupe_cluster_migrations_total", "node", "10.0.0.2:5701", "cause", "leave"));
        assertEquals(5, first.value("troupe_requests_total", "node", "10.0.0.2:5701", "tenant", "acme"));

        cluster.migrations = List.of(
                new Migration("beta", "n2", "n3", Migration.Cause.LEAVE, start.plusSeconds(5), Duration.ofSeconds(1),
                        true),
                new Migration("acme", "n1", "n2", Migration.Cause.JOIN, start, Duration.ofSeconds(2), true));
        Scrape second = scrape(Format.TEXT);
        assertEquals(1, second.value("troupe_cluster_migrations_total", "node", "10.0.0.2:5701", "cause", "join"),
                "listed again, not counted again");
        assertEquals(1, second.value("troupe_cluster_migrations_total", "node", "10.0.0.2:5701", "cause", "leave"));
        assertEquals(0, second.value("troupe_cluster_migrations_in_progress", "node", "10.0.0.2:5701"));
    }

    @Test
    void noCounterGoesBackBetweenTwoScrapesWhileTheRuntimeCounts() throws IOException {
        sources.runtime = () -> runtime(100, 1, 0);
        sources.server = () -> List.of(tenant("acme", 100, 1, latency(100, 0), 1));
        Scrape before = scrape(Format.TEXT);
        sources.runtime = () -> runtime(250, 2, 1);
        sources.server = () -> List.of(tenant("acme", 250, 1, latency(240, 10), 4));
        Scrape after = scrape(Format.TEXT);

        List<String> checked = new ArrayList<>();
        for (PrometheusText.Family family : before.families().values()) {
            boolean counting = family.type().equals("counter") || family.type().equals("histogram");
            if (!counting) {
                continue;
            }
            for (PrometheusText.Sample sample : family.samples()) {
                String[] labels = sample.labels().entrySet().stream()
                        .flatMap(label -> Stream.of(label.getKey(), label.getValue()))
                        .toArray(String[]::new);
                double later = after.value(sample.name(), labels);
                assertTrue(later >= sample.value(), sample + " went back to " + later);
                checked.add(sample.name());
            }
        }
        assertTrue(checked.contains("troupe_requests_total") && checked.contains("troupe_plugin_swaps_total")
                && checked.contains("troupe_request_duration_seconds_bucket"), "checked " + checked);
        assertEquals(250, after.value("troupe_requests_total", "tenant", "acme"));
    }

    // ---------------------------------------------------------------- the runtime's records

    /** A host with two handlers, two loops, one tenant's load, and counts that grow with {@code processed}. */
    private static RuntimeSnapshot runtime(long processed, long swaps, long rollbacks) {
        ThreadStats worker = new ThreadStats("troupe-worker-1", 0.25, 0, false);
        WorkerPoolStats workers = new WorkerPoolStats(4, 4, 8, 1, 0, 2, 0.25, List.of(worker));
        List<ThreadStats> loops = List.of(new ThreadStats("troupe-acceptor", 0.0, 0, false),
                new ThreadStats("troupe-io-1", 0.5, 0, false));
        List<HandlerStats> handlers = List.of(new HandlerStats("echo", 2, 10, processed, 0),
                new HandlerStats("wordcount", 1, 2, 20, 1));
        List<TenantLoad> loads = List.of(new TenantLoad("acme", 1, 3, 0, 12, 0, processed, 1_500_000_000L, 0.2));
        return new RuntimeSnapshot(Instant.EPOCH, workers, loops, 0.25, 9, 12, 7, 4, 1, handlers,
                List.<PoolStats>of(), loads, swaps, rollbacks, 8192);
    }

    /** A tenant of the server with {@code errors} ERROR frames: two thirds no.handler, the rest its own codes. */
    private static TenantStats tenant(String id, long requests, int connections, RequestLatency latency,
                                      long errors) {
        Map<String, Long> byCode = errors == 0 ? Map.of()
                : Map.of("no.handler", errors - errors / 3, TenantStats.OTHER_ERRORS, errors / 3);
        return new TenantStats(id, connections, 1000, requests, 0.0, errors, 0, requests == 0 ? 0 : 4096,
                Map.of(TenantStats.REQUESTS_PER_SECOND, 1_500_000_000L, TenantStats.BYTES_PER_SECOND, 0L), Set.of(),
                0, 65536, 1, 0, 0, Set.of(), byCode, latency);
    }

    /** {@code fast} requests of 1.5 ms and {@code slow} ones of 80 ms. */
    private static RequestLatency latency(long fast, long slow) {
        Long[] counts = new Long[BOUNDS.size() + 1];
        Arrays.fill(counts, 0L);
        counts[BOUNDS.indexOf(2_000_000L)] = fast;
        counts[BOUNDS.indexOf(100_000_000L)] = slow;
        return new RequestLatency(BOUNDS, List.of(counts), fast * 1_500_000L + slow * 80_000_000L);
    }

    private static List<Long> bounds() {
        List<Long> bounds = new ArrayList<>();
        for (long decade = 10_000L; decade <= 10_000_000_000L; decade *= 10) {
            bounds.addAll(List.of(decade, 2 * decade, 5 * decade));
        }
        return bounds;
    }

    private Scrape scrape(Format format) throws IOException {
        ExpositionFormat exposition = format == Format.TEXT ? ExpositionFormat.TEXT : ExpositionFormat.OPENMETRICS;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        exposition.writer().write(out, collector.collect());
        return PrometheusText.parse(out.toString(UTF_8), format);
    }

    // ---------------------------------------------------------------- the services, as registered

    /** The services a test has registered; null for an absent part. */
    private static final class Sources implements MetricSources {
        RuntimeStats runtime;
        ServerStats server;
        StateStore store;
        ClusterView cluster;

        @Override
        public RuntimeStats runtime() {
            return runtime;
        }

        @Override
        public ServerStats server() {
            return server;
        }

        @Override
        public StateStore store() {
            return store;
        }

        @Override
        public ClusterView cluster() {
            return cluster;
        }
    }

    /** A store that only reports its counters; the collector calls nothing else. */
    private record Store(StoreStats stats) implements StateStore {
        @Override
        public CompletionStage<Void> write(StateKey key, byte[] snapshot) {
            throw new UnsupportedOperationException("the collector only reads stats()");
        }

        @Override
        public Optional<byte[]> read(StateKey key) {
            throw new UnsupportedOperationException("the collector only reads stats()");
        }

        @Override
        public CompletionStage<Void> delete(StateKey key) {
            throw new UnsupportedOperationException("the collector only reads stats()");
        }

        @Override
        public List<StoredState> list(String tenant) {
            throw new UnsupportedOperationException("the collector only reads stats()");
        }

        @Override
        public int purge(String tenant) {
            throw new UnsupportedOperationException("the collector only reads stats()");
        }
    }

    /** Three members, this one at 10.0.0.2:5701, one configured member missing. */
    private static final class Cluster implements ClusterView {
        volatile List<Migration> migrations = List.of();

        @Override
        public String clusterName() {
            return "test";
        }

        @Override
        public String localNode() {
            return "n2";
        }

        @Override
        public List<ClusterMember> members() {
            return List.of(new ClusterMember("n1", "10.0.0.1:5701", "10.0.0.1:7878", false, List.of(), 1, 1.0),
                    new ClusterMember("n2", "10.0.0.2:5701", "10.0.0.2:7878", true, List.of("acme"), 1, 1.0),
                    new ClusterMember("n3", "10.0.0.3:5701", "10.0.0.3:7878", false, List.of(), 0, 0.0));
        }

        @Override
        public List<String> missingMembers() {
            return List.of("10.0.0.4:5701");
        }

        @Override
        public List<Migration> migrations() {
            return migrations;
        }
    }
}
