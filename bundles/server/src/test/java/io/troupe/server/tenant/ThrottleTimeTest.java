package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The throttled time of a limit (overlapping holds count once) and the episodes the log reports (one
 * line when a limit starts throttling, one when it has been quiet for a second), on a clock the test
 * moves.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class ThrottleTimeTest {

    private static final long MS = 1_000_000L;

    @Test
    void overlappingHoldsOfSeveralSessionsCountOnce() {
        ThrottleTime time = new ThrottleTime();
        time.begin(0);
        time.begin(100 * MS);
        assertEquals(2, time.held());
        time.end(300 * MS);
        assertEquals(400 * MS, time.nanos(400 * MS), "still held by one session");
        time.end(500 * MS);
        assertEquals(500 * MS, time.nanos(900 * MS));
        time.begin(1000 * MS);
        time.end(1100 * MS);
        assertEquals(600 * MS, time.nanos(2000 * MS));
        assertThrows(IllegalStateException.class, () -> time.end(0));
    }

    @Test
    void aTenantPacedFrameByFrameMakesOneEpisodeNotOnePerFrame() {
        TenantThrottling throttling = new TenantThrottling();
        ThrottleTime requests = throttling.limit(ThrottleLimit.REQUESTS_PER_SECOND);
        long now = 0;
        List<TenantThrottling.Episode> episodes = new java.util.ArrayList<>();
        for (int frame = 0; frame < 40; frame++) { // 4 s of frames held 90 ms out of every 100
            requests.begin(now);
            now += 90 * MS;
            requests.end(now);
            now += 10 * MS;
            if (frame % 2 == 1) {
                episodes.addAll(throttling.watch(now)); // the watcher looks every 200 ms
            }
        }
        assertEquals(List.of(new TenantThrottling.Episode(ThrottleLimit.REQUESTS_PER_SECOND, true, 0, 0)), episodes);
        assertEquals(Set.of(ThrottleLimit.REQUESTS_PER_SECOND), throttling.throttledBy());

        assertEquals(List.of(), throttling.watch(now + 999 * MS), "not quiet for a second yet");
        List<TenantThrottling.Episode> ended = throttling.watch(now + 1000 * MS);
        assertEquals(1, ended.size());
        assertEquals(ThrottleLimit.REQUESTS_PER_SECOND, ended.get(0).limit());
        assertEquals(false, ended.get(0).started());
        assertEquals(3600 * MS, ended.get(0).throttledNanos(), "90 ms of each of 40 frames");
        long duration = ended.get(0).durationNanos();
        assertTrue(duration >= 3900 * MS && duration <= 4000 * MS,
                "from about the first hold (its start is estimated from the time throttled before the first look) to "
                + "the last look that saw one: " + duration);
        assertEquals(Set.of(), throttling.throttledBy());
        assertEquals(Map.of("bytesPerSecond", 0L, "requestsPerSecond", 3600 * MS, "queuedMessages", 0L,
                "pendingOutput", 0L), throttling.throttledNanos(now + 1000 * MS));
    }

    @Test
    void aHoldInProgressIsThrottlingNowBeforeTheWatcherLooks() {
        TenantThrottling throttling = new TenantThrottling();
        throttling.limit(ThrottleLimit.QUEUED_MESSAGES).begin(0);
        assertEquals(Set.of(ThrottleLimit.QUEUED_MESSAGES), throttling.throttledBy());
        assertEquals(5000 * MS, throttling.throttledNanos(5000 * MS).get("queuedMessages"));
    }
}
