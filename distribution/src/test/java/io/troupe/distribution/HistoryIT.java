package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.ClientLoop;
import io.troupe.distribution.history.ChatChecker;
import io.troupe.distribution.history.ChatWorkload;
import io.troupe.distribution.history.CheckReport;
import io.troupe.distribution.history.CounterChecker;
import io.troupe.distribution.history.CounterWorkload;
import io.troupe.distribution.history.DurabilityPromise;
import io.troupe.distribution.history.History;
import io.troupe.distribution.history.Progress;
import io.troupe.distribution.history.TenantConnector;
import io.troupe.distribution.history.Tally;

/**
 * The durable {@code counter} and {@code chat} samples of the built distribution, under faults, checked as
 * Jepsen checks a database: two tenants' clients add to their counters and talk in their rooms, recording
 * every operation they invoke and how it ended in one {@link History}, while the test hot-swaps the counter
 * to 2.0.0 and back, and kills the server with SIGKILL twice (starting it again each time, and swapping the
 * counter once more right after the second start, while the clients reconnect). After the run, a
 * last read of each counter and room joins the history, and the checkers judge it against every-turn
 * durability, the samples' mode: every acknowledged add is in its counter and nothing else is, no value read
 * ever goes back, no chat message acknowledged is lost, none appears that was not said or appears twice, and
 * every room's history only grows, in an order true to real time. Zero violations; and no request fails or
 * ends unknown across the two swaps under steady load.
 *
 * <p>The history is kept in {@code target/histories/HistoryIT.history} (a {@code HistoryFile}).
 *
 * <p><b>Threading:</b> JUnit's thread drives the faults; the workloads have threads of their own.
 */
class HistoryIT {

    private static final List<String> TENANTS = List.of("alpha", "beta");
    private static final List<String> ROOMS = List.of("lobby");
    private static final Duration PROGRESS = Duration.ofSeconds(60);
    /** Acknowledged counter requests and chat requests between two faults: the load really runs through each. */
    private static final long COUNTER_STEP = 300;
    private static final long CHAT_STEP = 20;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedOperationSurvivesHotSwapsAndKillDashNineAndNothingElseAppears() throws Exception {
        Path file = Files.createDirectories(Path.of("target", "histories")).resolve("HistoryIT.history");
        CounterChecker counters = new CounterChecker(DurabilityPromise.everyTurn());
        ChatChecker rooms = new ChatChecker(ChatChecker.SAMPLE_CAP);
        List<CheckReport> reports;
        try (ServerUnderTest server = ServerUnderTest.install(dir, TENANTS);
             Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
             ClientLoop loop = ClientLoop.create("history-it", 1)) {
            History history = new History(List.of(counters, rooms), writer);
            server.start();
            TenantConnector connector = new TenantConnector(loop, List.of(server.address()), Duration.ofSeconds(40),
                    Duration.ofSeconds(60));
            try (CounterWorkload counter = CounterWorkload.start(history, connector, server.tenants(),
                    new CounterWorkload.Settings(2, 4, 150, 10), null);
                 ChatWorkload chat = ChatWorkload.start(history, connector, server.tenants(), ROOMS,
                    new ChatWorkload.Settings(2, 20, 5))) {
                progress(counter, chat, "before the first swap");
                swap(server, history, counter, chat, "2.0.0");
                server.kill(history);
                server.restart(history);
                progress(counter, chat, "after the first restart");
                swap(server, history, counter, chat, "1.0.0");
                server.kill(history);
                server.restart(history);
                // at once, while the clients reconnect: the swap races the creation of the tenants' counters,
                // which must start from their stored totals (a soak once saw one start from 0)
                server.swapCounterInPlace(history, "2.0.0");
                progress(counter, chat, "after the second restart and a swap at once");
                counter.stop();
                chat.stop();
                System.out.println("[history] " + counter + "; " + chat);
            }
            CounterWorkload.finalReads(history, connector, server.tenants());
            ChatWorkload.finalReads(history, connector, server.tenants(), ROOMS);
            reports = history.finish();
            server.stop();
        }
        reports.forEach(report -> System.out.println("[history] " + report));
        System.out.println("[history] kept in " + file.toAbsolutePath());
        for (CheckReport report : reports) {
            assertTrue(report.valid(), report::toString);
        }
    }

    /**
     * Hot-swaps the counter to {@code version} under the load, waits for as much load again, and checks that no
     * request of either workload failed or ended unknown meanwhile.
     */
    private static void swap(ServerUnderTest server, History history, CounterWorkload counter, ChatWorkload chat,
            String version) throws Exception {
        Tally counterBefore = counter.tally();
        Tally chatBefore = chat.tally();
        server.swapCounter(history, version);
        progress(counter, chat, "after the swap to " + version);
        Tally counterDuring = counter.tally().since(counterBefore);
        Tally chatDuring = chat.tally().since(chatBefore);
        System.out.println("[history] across the swap to " + version + ": counter " + counterDuring + "; chat "
                + chatDuring);
        assertEquals(0, counterDuring.problems() + chatDuring.problems(), () -> "requests failed across the swap to "
                + version + ": counter " + counterDuring + "; chat " + chatDuring + "\n" + server.logTail(40));
    }

    /** Waits until both workloads have made a step of progress (acknowledged requests). */
    private static void progress(CounterWorkload counter, ChatWorkload chat, String when) {
        Progress.await(when, counter, COUNTER_STEP, chat, CHAT_STEP, PROGRESS);
    }
}
