package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.PoolStats;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantStats;
import io.troupe.api.monitor.ThreadStats;
import io.troupe.api.monitor.WorkerPoolStats;

/**
 * The stats command against a hand-made snapshot, and without the service.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class StatsCommandsTest {

    private static final RuntimeSnapshot SNAPSHOT = new RuntimeSnapshot(Instant.EPOCH,
            new WorkerPoolStats(3, 2, 8, 2, 1, 5, 0.414, List.of(
                    new ThreadStats("troupe-worker-1", 1.0, 2503, true),
                    new ThreadStats("troupe-worker-2", 0.2, 0, false),
                    new ThreadStats("troupe-worker-3", 0.03, 12, false))),
            List.of(new ThreadStats("troupe-acceptor", 0.0, 0, false), new ThreadStats("troupe-io-1", 0.06, 0, false)),
            0.03, 14, 3, 4, 0, 1,
            List.of(new HandlerStats("counter.add", 1, 0, 7, 0), new HandlerStats("echo", 2, 3, 120, 1)));

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void statsPrintsTheSummaryAndTheHandlers() {
        new StatsCommands(() -> SNAPSHOT, null).stats(out, false);

        assertEquals("""
                workers       3 (min 2, max 8)  busy 41%  in turns 2  stalled 1  queued 5
                loops         2  busy 3%
                actors        14  mailbox backlog 3
                dead letters  4
                log drops     0
                stalls        1

                HANDLER      ACTORS  QUEUED  PROCESSED  FAILURES
                counter.add  1       0       7          0
                echo         2       3       120        1
                """, printed());
    }

    @Test
    void statsListsTheActorPoolsOfPoolableHandlers() {
        RuntimeSnapshot withPools = new RuntimeSnapshot(SNAPSHOT.takenAt(), SNAPSHOT.workers(), SNAPSHOT.loops(),
                SNAPSHOT.loopsBusyRatio(), SNAPSHOT.actors(), SNAPSHOT.mailboxBacklog(), SNAPSHOT.deadLetters(),
                SNAPSHOT.logRecordsDropped(), SNAPSHOT.stalls(), List.of(),
                List.of(new PoolStats("thumbnail", "demo", 3, 1, 8, 12, 1)));
        new StatsCommands(() -> withPools, null).stats(out, false);

        String pools = printed().substring(printed().indexOf("POOL"));
        assertEquals("""
                POOL       TENANT  SIZE  MIN  MAX  QUEUED  STALLED
                thumbnail  demo    3     1    8    12      1
                """, pools);
    }

    @Test
    void statsListsTheTenantsWhenTheServerRuns() {
        ServerStats server = () -> List.of(new TenantStats("acme", 12, 1000, 48210, 812.44, 3, 0),
                new TenantStats("demo", 0, 50, 7, 0.0, 0, 100));
        new StatsCommands(() -> SNAPSHOT, server).stats(out, false);

        String tenants = printed().substring(printed().indexOf("TENANT"));
        assertEquals("""
                TENANT  CONNECTIONS  REQUESTS  REQ/S  ERRORS
                acme    12/1000      48210     812.4  3
                demo    0/50         7         0.0    0
                """, tenants);
    }

    @Test
    void statsWithThreadsListsEveryWorkerAndLoop() {
        new StatsCommands(() -> SNAPSHOT, null).stats(out, true);

        String threads = printed().substring(printed().indexOf("THREAD"));
        assertEquals("""
                THREAD           BUSY  CURRENT
                troupe-worker-1  100%  2503 ms STALLED
                troupe-worker-2  20%   -
                troupe-worker-3  3%    12 ms
                troupe-acceptor  0%    -
                troupe-io-1      6%    -
                """, threads);
    }

    @Test
    void statsWithoutTheServiceSaysTheRuntimeIsUnavailable() {
        new StatsCommands(null, null).stats(out, false);

        assertEquals(ReplyFormat.runtimeUnavailable() + "\n", printed());
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
