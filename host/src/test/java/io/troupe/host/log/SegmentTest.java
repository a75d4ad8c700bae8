package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** {@link Segment}: contiguous claims, one sealer, and completion only once every claimed range is published. */
class SegmentTest {

    @Test
    void claimsAreContiguousAndAClaimThatDoesNotFitFailsWithoutMovingOn() {
        Segment segment = new Segment(new byte[100], Integer.MAX_VALUE);

        assertEquals(0, segment.claim(60));
        assertEquals(-1, segment.claim(41));
        assertEquals(60, segment.claim(40));
        assertEquals(100, segment.length());
    }

    @Test
    void onlyTheFirstSealLearnsTheLengthAndNoClaimSucceedsAfter() {
        Segment segment = new Segment(new byte[100], Integer.MAX_VALUE);
        segment.claim(30);

        assertEquals(30, segment.seal());
        assertEquals(-1, segment.seal());
        assertEquals(-1, segment.claim(1));
        assertEquals(30, segment.length());
    }

    @Test
    void aSegmentIsCompleteOnlyWhenSealedAndEveryClaimIsPublished() throws Exception {
        int threads = 16;
        int each = 7;
        Segment segment = new Segment(new byte[threads * each], Integer.MAX_VALUE);
        CountDownLatch claimed = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch published = new CountDownLatch(threads - 1);
        CountDownLatch lastMayPublish = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            boolean last = i == threads - 1;
            Thread thread = new Thread(() -> {
                segment.claim(each);
                claimed.countDown();
                try {
                    go.await(10, TimeUnit.SECONDS);
                    if (last) {
                        lastMayPublish.await(10, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                segment.publish(each);
                if (!last) {
                    published.countDown();
                }
            }, "segment-producer-" + i);
            thread.start();
            started.add(thread);
        }
        assertTrue(claimed.await(10, TimeUnit.SECONDS));
        assertFalse(segment.isComplete(), "not sealed yet");
        assertEquals(threads * each, segment.seal());
        go.countDown();
        assertTrue(published.await(10, TimeUnit.SECONDS));
        // every producer but the last has published: one claim is still being copied
        for (Thread thread : started.subList(0, threads - 1)) {
            thread.join(10_000);
        }
        assertFalse(segment.isComplete(), "one claimed range not published");
        lastMayPublish.countDown();
        started.get(threads - 1).join(10_000);
        assertTrue(segment.isComplete());
    }

    @Test
    void aMarkerIsSealedEmptyAndComplete() {
        Segment marker = Segment.marker(Segment.Kind.DROPPING);

        assertTrue(marker.isSealed());
        assertEquals(0, marker.length());
        assertTrue(marker.isComplete());
        assertEquals(-1, marker.claim(1));
    }
}
