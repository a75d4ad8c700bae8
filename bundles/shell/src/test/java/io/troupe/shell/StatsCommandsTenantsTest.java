package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.monitor.TenantStats;
import io.troupe.api.monitor.WorkerPoolStats;

/**
 * {@code troupe:tenants} against hand-made server and runtime statistics, and without them.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class StatsCommandsTenantsTest {

    private static final long SECOND = 1_000_000_000L;

    private static final TenantStats ACME = new TenantStats("acme", 3, 1000, 1520, 12.5, 2, 100, 99_000,
            Map.of("bytesPerSecond", 2_100_000_000L, "requestsPerSecond", 0L, "queuedMessages", SECOND / 2),
            Set.of("bytesPerSecond"), 65536, 65536, 3, 0, 100, Set.of("wordcount", "echo"));
    private static final TenantStats BETA = new TenantStats("beta", 0, 1000, 0, 0.0, 0, 0);

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void eachTenantWithItsRuntimeLoadItsThrottlingAndItsLimits() {
        RuntimeSnapshot snapshot = new RuntimeSnapshot(Instant.EPOCH, new WorkerPoolStats(2, 2, 8, 0, 0, 0, 0.5,
                List.of()), List.of(), 0.0, 4, 40, 0, 0, 0, List.of(), List.of(),
                List.of(new TenantLoad("acme", 3, 4, 0, 40, 100, 900, 5 * SECOND, 0.35)));
        new StatsCommands(() -> snapshot, () -> List.of(ACME, BETA)).tenants(out);

        String[] lines = printed().split("\n");
        assertEquals(6, lines.length, printed());
        assertEquals(List.of("TENANT", "CONNECTIONS", "REQUESTS", "REQ/S", "ERRORS", "QUEUED", "WORKERS", "THROTTLED",
                "NOW"), cells(lines[0]));
        assertEquals(List.of("acme", "3/1000", "1520", "12.5", "2", "40/100", "35%",
                "bytesPerSecond 2.1 s, queuedMessages 0.5 s", "bytesPerSecond"), cells(lines[1]));
        assertEquals(List.of("beta", "0/1000", "0", "0.0", "0", "-", "-", "-", "-"), cells(lines[2]));
        assertEquals(lines[0].indexOf("NOW"), lines[1].indexOf("bytesPerSecond", 70), "aligned columns");
        assertEquals("", lines[3]);
        assertEquals("acme: maxFrameBytes=65536, maxRequestsPerSecond=100, maxBytesPerSecond=65536, "
                + "maxQueuedMessages=100, weight=3, handlers=echo,wordcount", lines[4]);
        assertEquals("beta: maxFrameBytes=0", lines[5]);
    }

    @Test
    void withoutTheRuntimesStatisticsItsColumnsAreDashes() {
        new StatsCommands(null, () -> List.of(BETA)).tenants(out);
        assertEquals(List.of("beta", "0/1000", "0", "0.0", "0", "-", "-", "-", "-"), cells(printed().split("\n")[1]));
    }

    @Test
    void withoutTheServerItSaysSo() {
        new StatsCommands(null, null).tenants(out);
        assertEquals("(the message server is not running)\n", printed());
        ServerStats none = List::of;
        new StatsCommands(null, none).tenants(out);
        assertEquals("(the message server is not running)\n(no tenant configured)\n", printed());
    }

    /** The cells of a row: columns are at least two spaces apart, and a cell has no two spaces in a row. */
    private static List<String> cells(String line) {
        return List.of(line.split(" {2,}"));
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
