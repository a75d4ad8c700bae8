package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** {@link RecordQueue} driven by the test thread as producer and as logger thread. */
class RecordQueueTest {

    private static final int CAP = RecordQueue.MIN_CAP_BYTES;

    private final CapturingOutput out = new CapturingOutput();

    @Test
    void recordsOfOneThreadComeOutInTheOrderTheyWereOffered() {
        RecordQueue queue = new RecordQueue(8 * 1024 * 1024, 0);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            expected.add("record " + i);
            assertEquals(RecordQueue.Offer.QUEUED, queue.offer(bytes("record " + i + "\n")));
            if (i % 7_000 == 0) {
                queue.drain(out);
            }
        }
        queue.drain(out);

        assertEquals(expected, out.lines());
        assertEquals(0, queue.dropped());
    }

    @Test
    void theFirstSegmentIsAPageAndAFullSegmentGetsASuccessorTwiceItsSize() {
        RecordQueue queue = new RecordQueue(8 * 1024 * 1024, 0);
        assertEquals(RecordQueue.INITIAL_BYTES, queue.queuedBytes());

        queue.offer(new byte[RecordQueue.INITIAL_BYTES]);
        assertEquals(4096, queue.queuedBytes(), "an exactly full page needs no successor yet");
        queue.offer(new byte[1]);
        assertEquals(4096 + 8192, queue.queuedBytes());
        queue.offer(new byte[8192]);
        assertEquals(4096 + 8192 + 16384, queue.queuedBytes());

        queue.drain(out);
        assertEquals(4096 + 1 + 8192, out.text().length());
    }

    @Test
    void drainingHandsTheMemoryBackAndAQuietQueueShrinksToAPage() {
        RecordQueue queue = new RecordQueue(8 * 1024 * 1024, 0);
        for (int i = 0; i < 100; i++) {
            queue.offer(new byte[1000]);
        }
        queue.drain(out);
        for (int i = 0; i < 12; i++) {
            queue.offer(new byte[10]);
            queue.drain(out);
        }

        assertEquals(RecordQueue.INITIAL_BYTES, queue.queuedBytes());
        assertEquals(100 * 1000 + 12 * 10, out.text().length());
    }

    @Test
    void pastTheCapEveryRecordIsEitherWrittenOrCountedAsDropped() {
        RecordQueue queue = new RecordQueue(CAP, 0);
        int offered = 0;
        while (queue.dropped() < 10) {
            queue.offer(bytes(String.format("%0999d%n", offered)));
            offered++;
        }
        queue.drain(out);

        List<String> written = out.lines();
        assertEquals(offered, written.size() + queue.dropped());
        assertTrue(queue.queuedBytes() <= CAP, "memory stays under the cap: " + queue.queuedBytes());
        for (int i = 0; i < written.size(); i++) {
            assertEquals(i, Integer.parseInt(written.get(i)), "the records before the first drop, in order");
        }
    }

    @Test
    void onceTheBacklogIsWrittenRecordsAreQueuedAgain() {
        RecordQueue queue = new RecordQueue(CAP, 0);
        while (queue.offer(new byte[1000]) != RecordQueue.Offer.DROPPED) {
            // fill up to the cap
        }
        assertEquals(RecordQueue.Offer.DROPPED, queue.offer(new byte[10]), "dropping until the backlog is written");

        queue.drain(out);

        assertEquals(RecordQueue.Offer.QUEUED, queue.offer(bytes("back\n")));
        assertEquals(2, queue.dropped());
    }

    @Test
    void aRecordLargerThanTheCapIsDroppedAndCounted() {
        RecordQueue queue = new RecordQueue(CAP, TimeUnit.SECONDS.toNanos(10));

        assertEquals(RecordQueue.Offer.DROPPED, queue.offer(new byte[CAP + 1]));
        assertEquals(1, queue.dropped());
        assertEquals(RecordQueue.Offer.QUEUED, queue.offer(new byte[CAP / 2]), "a large record gets its own segment");
    }

    @Test
    void aProducerAtTheCapWaitsForTheLoggerThreadInsteadOfDropping() throws Exception {
        RecordQueue queue = new RecordQueue(CAP, TimeUnit.SECONDS.toNanos(30));
        int records = 500; // 500 KB through a 64 KiB cap
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < records; i++) {
                queue.offer(bytes(String.format("%0999d%n", i)));
            }
        });

        while (!producer.isDone()) {
            queue.drain(out);
            Thread.yield();
        }
        producer.get();
        queue.drain(out);

        assertEquals(0, queue.dropped());
        List<String> written = out.lines();
        assertEquals(records, written.size());
        for (int i = 0; i < records; i++) {
            assertEquals(i, Integer.parseInt(written.get(i)));
        }
    }

    @Test
    void aClosedQueueWritesWhatItHeldRefusesRecordsAndOpensAgain() {
        RecordQueue queue = new RecordQueue(CAP, 0);
        queue.offer(bytes("before\n"));

        queue.close(out);
        queue.close(out);

        assertEquals(List.of("before"), out.lines());
        assertEquals(RecordQueue.Offer.CLOSED, queue.offer(bytes("after\n")));

        queue.reopen();
        queue.offer(bytes("again\n"));
        queue.drain(out);
        assertEquals(List.of("before", "again"), out.lines());
    }

    @Test
    void drainingAnEmptyQueueWritesNothing() {
        RecordQueue queue = new RecordQueue(CAP, 0);

        queue.drain(out);
        queue.drain(out);

        assertEquals(0, out.writes.get());
        assertEquals(RecordQueue.INITIAL_BYTES, queue.queuedBytes());
    }

    @Test
    void aGrowingBacklogWakesTheLoggerThreadBeforeItsTimer() {
        RecordQueue queue = new RecordQueue(8 * 1024 * 1024, 0);
        queue.setWakeTarget(Thread.currentThread());
        for (int i = 0; i < 200; i++) {
            queue.offer(new byte[1024]);
        }

        long start = System.nanoTime();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(10));

        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "unparked by a producer");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
