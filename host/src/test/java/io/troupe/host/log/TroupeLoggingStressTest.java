package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMDCAdapter;

import io.troupe.api.log.Fatal;

/**
 * Many producers logging through SLF4J loggers into the real file while the logger thread runs on
 * its own timer and wake-ups, with a fatal record and flushes thrown in: below the cap nothing is
 * lost, every line is a whole record and each producer's records keep their order.
 */
class TroupeLoggingStressTest {

    private static final int PRODUCERS = 16;
    private static final int PER_PRODUCER = 10_000;

    @TempDir
    Path home;

    @Test
    void manyProducersBelowTheCapLoseNothingAndKeepTheirOrder() throws Exception {
        TroupeLogging logging = new TroupeLogging(Map.of(
                "troupe.home", home.toString(),
                "troupe.log.console", "false",
                "troupe.log.flushIntervalMillis", "10",
                "troupe.log.bufferCapBytes", "1048576",
                "troupe.log.fullWaitMillis", "30000"),
                Clock.systemUTC(), new BasicMDCAdapter(), false, () -> System.err);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int id = p;
            Logger log = logging.loggerFactory().getLogger("producer." + p);
            Thread producer = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                String pad = "x".repeat(id * 7);
                for (int i = 0; i < PER_PRODUCER; i++) {
                    log.info("{} {} {}", id, i, pad);
                    if (id == 0 && i == PER_PRODUCER / 2) {
                        Fatal.fatal(log, "{} {} {}", id, -1, pad);
                    } else if (id == 1 && i % 1000 == 0) {
                        logging.flush();
                    }
                }
            }, "stress-" + p);
            producers.add(producer);
            producer.start();
        }
        go.countDown();
        for (Thread producer : producers) {
            producer.join();
        }
        logging.stop();

        assertEquals(0, logging.droppedRecords());
        List<String> lines = Files.readAllLines(home.resolve("log/troupe.log"), StandardCharsets.UTF_8);
        assertEquals(PRODUCERS * PER_PRODUCER + 2, lines.size(), "all records, the fatal one and the stop line");
        int[] next = new int[PRODUCERS];
        for (String line : lines.subList(0, lines.size() - 1)) {
            String[] fields = line.substring(line.indexOf(" - ") + 3).split(" ", -1);
            int id = Integer.parseInt(fields[0]);
            int index = Integer.parseInt(fields[1]);
            assertEquals("x".repeat(id * 7), fields[2], "a whole record: " + line);
            assertTrue(line.contains("[stress-" + id + "] producer." + id + " - "), line);
            if (index == -1) {
                assertEquals(PER_PRODUCER / 2 + 1, next[id], "the fatal record right after the one before it");
                continue;
            }
            assertEquals(next[id], index, "in order: " + line);
            next[id]++;
        }
        for (int p = 0; p < PRODUCERS; p++) {
            assertEquals(PER_PRODUCER, next[p]);
        }
    }
}
