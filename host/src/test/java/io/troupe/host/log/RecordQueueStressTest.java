package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Many producers against one draining thread, as in production: nothing is lost, duplicated,
 * interleaved or reordered within a producer, and at a small cap every record is either written or
 * counted as dropped.
 */
class RecordQueueStressTest {

    private static final int PRODUCERS = 8;
    private static final int PER_PRODUCER = 50_000;

    @Test
    void manyProducersBelowTheCapLoseNothingAndKeepTheirOrder() throws Exception {
        RecordQueue queue = new RecordQueue(8 * 1024 * 1024, TimeUnit.SECONDS.toNanos(30));
        CapturingOutput out = run(queue);

        assertEquals(0, queue.dropped());
        int[] next = check(out.lines());
        for (int p = 0; p < PRODUCERS; p++) {
            assertEquals(PER_PRODUCER, next[p], "producer " + p);
        }
    }

    @Test
    void manyProducersAtASmallCapCountEveryRecordTheyLose() throws Exception {
        RecordQueue queue = new RecordQueue(RecordQueue.MIN_CAP_BYTES, 0);
        CapturingOutput out = run(queue);

        List<String> lines = out.lines();
        check(lines);
        assertEquals((long) PRODUCERS * PER_PRODUCER, lines.size() + queue.dropped());
    }

    /** Producers offer "p i" records while this thread drains; returns what was written. */
    private static CapturingOutput run(RecordQueue queue) throws Exception {
        CapturingOutput out = new CapturingOutput();
        ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean failed = new AtomicBoolean();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int producer = p;
                done.add(pool.submit(() -> {
                    go.await();
                    String pad = "x".repeat(producer * 13 % 90); // records of many sizes
                    for (int i = 0; i < PER_PRODUCER; i++) {
                        if (queue.offer((producer + " " + i + " " + pad + "\n").getBytes(StandardCharsets.UTF_8))
                                == RecordQueue.Offer.CLOSED) {
                            failed.set(true);
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            while (!allDone(done)) {
                queue.drain(out);
                Thread.yield();
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        queue.close(out);
        assertTrue(!failed.get(), "no offer saw a closed queue");
        return out;
    }

    /** Checks that each producer's records are whole and in increasing order; returns their counts. */
    private static int[] check(List<String> lines) {
        int[] last = new int[PRODUCERS];
        int[] count = new int[PRODUCERS];
        java.util.Arrays.fill(last, -1);
        for (String line : lines) {
            String[] parts = line.split(" ");
            int producer = Integer.parseInt(parts[0]);
            int index = Integer.parseInt(parts[1]);
            String pad = parts.length > 2 ? parts[2] : "";
            assertEquals("x".repeat(producer * 13 % 90), pad, "a whole record: " + line);
            assertTrue(index > last[producer], "in order: " + line + " after " + last[producer]);
            last[producer] = index;
            count[producer]++;
        }
        return count;
    }

    private static boolean allDone(List<Future<?>> futures) {
        for (Future<?> f : futures) {
            if (!f.isDone()) {
                return false;
            }
        }
        return true;
    }
}
