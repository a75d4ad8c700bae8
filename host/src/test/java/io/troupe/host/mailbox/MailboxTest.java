package io.troupe.host.mailbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class MailboxTest {

    @Test
    void pollsInOfferOrder() {
        Mailbox mailbox = new Mailbox(10);
        for (int i = 0; i < 5; i++) {
            assertTrue(mailbox.offer(new Envelope(i, null)));
        }
        for (int i = 0; i < 5; i++) {
            assertEquals(i, mailbox.poll().message());
        }
        assertNull(mailbox.poll());
        assertTrue(mailbox.isEmpty());
    }

    @Test
    void refusesOffersBeyondCapacityAndAcceptsAgainAfterAPoll() {
        Mailbox mailbox = new Mailbox(2);
        assertTrue(mailbox.offer(new Envelope("a", null)));
        assertTrue(mailbox.offer(new Envelope("b", null)));
        assertFalse(mailbox.offer(new Envelope("c", null)));
        assertEquals(2, mailbox.size());
        assertEquals("a", mailbox.poll().message());
        assertTrue(mailbox.offer(new Envelope("d", null)));
        assertEquals("b", mailbox.poll().message());
        assertEquals("d", mailbox.poll().message());
    }

    @Test
    void releasesTheLastMessageOnceProcessed() {
        Mailbox mailbox = new Mailbox(2);
        mailbox.offer(new Envelope("payload", null));
        Envelope envelope = mailbox.poll();
        mailbox.releaseLast();
        assertNull(envelope.message());
    }

    @Test
    void rejectsACapacityBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> new Mailbox(0));
    }

    @Test
    void keepsEachProducersOrderUnderConcurrentOffers() throws InterruptedException {
        int producers = 4;
        int perProducer = 50_000;
        Mailbox mailbox = new Mailbox(1024);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < perProducer; i++) {
                    Envelope envelope = new Envelope(new int[] {producer, i}, null);
                    while (!mailbox.offer(envelope)) {
                        Thread.onSpinWait();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        int[] next = new int[producers];
        int received = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received < producers * perProducer) {
            Envelope envelope = mailbox.poll();
            if (envelope == null) {
                assertTrue(System.nanoTime() < deadline, "producers stalled after " + received + " messages");
                Thread.onSpinWait();
                continue;
            }
            int[] message = (int[]) envelope.message();
            assertEquals(next[message[0]], message[1], "producer " + message[0] + " out of order");
            next[message[0]]++;
            received++;
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertNull(mailbox.poll());
        assertEquals(0, mailbox.size());
    }
}
