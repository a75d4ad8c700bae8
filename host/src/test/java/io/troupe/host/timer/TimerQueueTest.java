package io.troupe.host.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class TimerQueueTest {

    private final TimerQueue queue = new TimerQueue();
    private final List<String> fired = new ArrayList<>();

    private Timeout at(long deadline, String name) {
        Timeout timeout = queue.newTimeout(deadline, () -> fired.add(name));
        queue.add(timeout);
        return timeout;
    }

    @Test
    void runsDueTimeoutsInDeadlineOrderThenCreationOrder() {
        at(30, "c");
        at(10, "a");
        at(20, "b1");
        at(20, "b2");
        at(40, "later");
        assertEquals(4, queue.runDue(30));
        assertEquals(List.of("a", "b1", "b2", "c"), fired);
        assertEquals(40, queue.nextDeadline());
    }

    @Test
    void neverRunsACancelledTimeout() {
        Timeout cancelled = at(10, "cancelled");
        at(10, "kept");
        cancelled.cancel();
        queue.runDue(10);
        assertEquals(List.of("kept"), fired);
    }

    @Test
    void purgesCancelledTimeoutsWhenTheyDominate() {
        List<Timeout> timeouts = new ArrayList<>();
        for (int i = 0; i < 4096; i++) {
            timeouts.add(at(1_000_000 + i, "t" + i));
        }
        timeouts.subList(0, 3000).forEach(Timeout::cancel);
        queue.runDue(0);
        assertEquals(1096, queue.size());
    }

    @Test
    void handlesDeadlinesAcrossTheLongOverflow() {
        long nearMax = Long.MAX_VALUE - 5;
        at(nearMax, "before");
        at(nearMax + 10, "after-overflow");
        queue.runDue(nearMax + 10);
        assertEquals(List.of("before", "after-overflow"), fired);
    }

    @Test
    void reportsNoDeadlineWhenEmpty() {
        assertEquals(Long.MAX_VALUE, queue.nextDeadline());
    }
}
