package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class RateLimiterTest {

    private static final long SECOND = 1_000_000_000L;

    /** A clock that moves only when told; starts far from zero so that wrap-around logic is exercised. */
    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - 3 * SECOND);

    @Test
    void aNewBucketHoldsExactlyOneSecondsWorth() {
        RateLimiter limiter = new RateLimiter(5, now::get);
        assertEquals(5, drain(limiter));
    }

    @Test
    void tokensComeBackAtTheConfiguredRate() {
        RateLimiter limiter = new RateLimiter(10, now::get);
        drain(limiter);
        now.addAndGet(SECOND / 10 - 1);
        assertFalse(limiter.tryAcquire(), "a token takes a tenth of a second to come back");
        now.addAndGet(1);
        assertTrue(limiter.tryAcquire());
        assertFalse(limiter.tryAcquire());
        now.addAndGet(SECOND / 2);
        assertEquals(5, drain(limiter));
    }

    @Test
    void anIdleBucketNeverHoldsMoreThanOneSecondsWorth() {
        RateLimiter limiter = new RateLimiter(3, now::get);
        now.addAndGet(60 * SECOND);
        assertEquals(3, drain(limiter));
    }

    @Test
    void ratesThatDoNotDivideASecondStillAllowTheirFullBurst() {
        for (int rate : new int[] {1, 3, 7, 999, 31_623, 999_999, 1_000_000}) {
            RateLimiter limiter = new RateLimiter(rate, now::get);
            assertEquals(rate, drain(limiter), "rate " + rate);
        }
    }

    @Test
    void sustainedUseIsHeldToTheRate() {
        RateLimiter limiter = new RateLimiter(100, now::get);
        int granted = 0;
        for (int step = 0; step < 10_000; step++) { // ten seconds in steps of a millisecond
            now.addAndGet(SECOND / 1000);
            while (limiter.tryAcquire()) {
                granted++;
            }
        }
        assertTrue(granted >= 100 * 10 && granted <= 100 * 11, "granted " + granted);
    }

    @Test
    void concurrentCallersNeverGetMoreThanTheBucketHolds() throws Exception {
        RateLimiter limiter = new RateLimiter(1000, now::get);
        AtomicInteger granted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 1000; i++) {
                    if (limiter.tryAcquire()) {
                        granted.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(thread.isAlive());
        }
        assertEquals(1000, granted.get());
    }

    @Test
    void bytesAreTakenManyAtATimeWhileThereIsRoomForOne() {
        RateLimiter bytes = new RateLimiter(1000, now::get);
        assertTrue(bytes.tryAcquire(999));
        assertEquals(0, bytes.nanosUntilAvailable(), "room for one byte");
        assertTrue(bytes.tryAcquire(500), "the frame passes and leaves the bucket in debt");
        assertFalse(bytes.tryAcquire(1));
        assertEquals(500 * SECOND / 1000, bytes.nanosUntilAvailable(), "the debt of 499 bytes, then one byte's room");
        now.addAndGet(500 * SECOND / 1000);
        assertTrue(bytes.tryAcquire(1));
    }

    @Test
    void sustainedBytesAreHeldToTheRateWhateverTheFrameSize() {
        RateLimiter bytes = new RateLimiter(100_000, now::get);
        long taken = 0;
        for (int step = 0; step < 10_000; step++) { // ten seconds in steps of a millisecond
            now.addAndGet(SECOND / 1000);
            while (bytes.tryAcquire(4096)) {
                taken += 4096;
            }
        }
        assertTrue(taken >= 100_000 * 10 && taken <= 100_000 * 11 + 4096, "taken " + taken);
    }

    @Test
    void aGrantOfNoTokensOrMoreThanAFrameCanHoldIsRefused() {
        RateLimiter bytes = new RateLimiter(1000, now::get);
        assertThrows(IllegalArgumentException.class, () -> bytes.tryAcquire(0));
        assertThrows(IllegalArgumentException.class, () -> bytes.tryAcquire(RateLimiter.MAX_TOKENS + 1));
    }

    @Test
    void ratesOutsideTheRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(0, now::get));
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(-1, now::get));
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(RateLimiter.MAX_RATE + 1, now::get));
    }

    private static int drain(RateLimiter limiter) {
        int count = 0;
        while (limiter.tryAcquire()) {
            count++;
            if (count > 10_000_000) {
                throw new AssertionError("bucket never empties");
            }
        }
        return count;
    }
}
