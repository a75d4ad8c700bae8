package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * {@link PendingOutput}: the total is the sum of the shares' latest figures, whatever threads update
 * them; a share that leaves takes its bytes with it; the bound shuts above the limit and opens at half
 * of it; a recount re-reads every connection at most once per {@link PendingOutput#RECOUNT}.
 *
 * <p><b>Threading:</b> JUnit's thread, and a pool for the concurrent updates.
 */
class PendingOutputTest {

    private static final long START = 1_000_000_000L;

    private final PendingOutput output = new PendingOutput(START);

    @Test
    void theTotalIsTheSumOfEachConnectionsLastUpdate() {
        AtomicLong a = new AtomicLong(300);
        AtomicLong b = new AtomicLong(200);
        PendingOutput.Share first = output.join(a::get);
        PendingOutput.Share second = output.join(b::get);
        assertEquals(0, output.bytes(), "a share counts from its first update");
        first.update();
        second.update();
        assertEquals(500, output.bytes());

        a.set(100);
        assertEquals(500, output.bytes(), "a drain is seen at the next update");
        first.update();
        assertEquals(300, output.bytes());
        assertEquals(100, first.bytes());
        assertEquals(2, output.connections());
    }

    @Test
    void aShareThatLeavesTakesItsBytesAndIsNotCountedAgain() {
        AtomicLong a = new AtomicLong(700);
        PendingOutput.Share share = output.join(a::get);
        share.update();
        share.leave();
        assertEquals(0, output.bytes());
        assertEquals(0, output.connections());
        share.update();
        output.recount(START + PendingOutput.RECOUNT.toNanos());
        assertEquals(0, output.bytes(), "a closed connection's late update adds nothing");
    }

    @Test
    void theBoundShutsAboveTheLimitAndOpensAtHalfOfIt() {
        AtomicLong a = new AtomicLong(1000);
        PendingOutput.Share share = output.join(a::get);
        share.update();
        assertFalse(output.isOver(1000), "at the limit is not over it");
        a.set(1001);
        share.update();
        assertTrue(output.isOver(1000));
        a.set(501);
        share.update();
        assertTrue(output.isOver(1000), "still above half");
        a.set(500);
        share.update();
        assertFalse(output.isOver(1000));
        a.set(900);
        share.update();
        assertFalse(output.isOver(1000), "open until the limit is passed again");
        a.set(Long.MAX_VALUE / 4);
        share.update();
        assertFalse(output.isOver(0), "0: no bound");
    }

    @Test
    void aRecountReadsEveryConnectionAtMostOncePerInterval() {
        AtomicLong reads = new AtomicLong();
        AtomicLong a = new AtomicLong(100);
        output.join(() -> {
            reads.incrementAndGet();
            return a.get();
        });
        long interval = PendingOutput.RECOUNT.toNanos();
        output.recount(START);
        assertEquals(1, reads.get());
        assertEquals(100, output.bytes());

        a.set(0);
        output.recount(START + interval - 1);
        assertEquals(1, reads.get(), "within the interval: not again");
        assertEquals(100, output.bytes());
        output.recount(START + interval);
        assertEquals(2, reads.get());
        assertEquals(0, output.bytes());
    }

    @Test
    void concurrentUpdatesAndRecountsLeaveTheExactSum() throws Exception {
        int connections = 8;
        int rounds = 20_000;
        List<AtomicLong> pending = new ArrayList<>();
        List<PendingOutput.Share> shares = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            AtomicLong bytes = new AtomicLong();
            pending.add(bytes);
            shares.add(output.join(bytes::get));
        }
        ExecutorService pool = Executors.newFixedThreadPool(connections + 1);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                int index = i;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        pending.get(index).set((r * 7919L + index) % 65_536);
                        shares.get(index).update();
                    }
                    return null;
                }));
            }
            done.add(pool.submit(() -> {
                start.await();
                for (int r = 0; r < rounds; r++) {
                    output.recount(START + (r + 1) * PendingOutput.RECOUNT.toNanos());
                }
                return null;
            }));
            start.countDown();
            for (Future<?> future : done) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        long expected = 0;
        for (int i = 0; i < connections; i++) {
            shares.get(i).update(); // each share's last figure is its connection's final one
            expected += pending.get(i).get();
        }
        assertEquals(expected, output.bytes());
        for (PendingOutput.Share share : shares) {
            share.leave();
        }
        assertEquals(0, output.bytes());
    }
}
