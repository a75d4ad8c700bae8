package io.troupe.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** {@link FailingWrites} with a manual clock, its lines captured; single-threaded. */
class FailingWritesTest {

    private final List<String> errors = new ArrayList<>();
    private final List<String> recoveries = new ArrayList<>();
    private final AtomicLong now = new AtomicLong();
    private final FailingWrites writes = new FailingWrites("data/state.mv.db", errors::add, recoveries::add, now::get);

    @Test
    void anEpisodeOfFailingBatchesIsLoggedOnceAtItsStartAndOnceAtItsEnd() {
        writes.failed(3, new IOException("the state store data/state.mv.db could not write a batch of 3 changes: No"
                + " space left on device"));
        writes.failed(5, new IOException("could not write a batch of 5 changes: No space left on device"));
        writes.failed(1, new IOException("cannot be opened again"));
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("State store writes fail: the state store data/state.mv.db could not write"
                + " a batch of 3 changes: No space left on device; durable writes fail"), errors.get(0));
        assertTrue(recoveries.isEmpty());

        now.set(2_500_000_000L);
        writes.succeeded();
        writes.succeeded();

        assertEquals(List.of("State store data/state.mv.db writes again after failing for 2500 ms; 3 batches (9"
                + " changes) were refused meanwhile"), recoveries);
    }

    @Test
    void aStoreThatWritesLogsNothingAndALaterEpisodeIsLoggedAgain() {
        writes.succeeded();
        assertTrue(errors.isEmpty() && recoveries.isEmpty());

        writes.failed(1, new IOException("File too large"));
        writes.succeeded();
        writes.failed(2, new IOException("File too large"));
        writes.succeeded();

        assertEquals(2, errors.size());
        assertEquals(2, recoveries.size());
        assertTrue(recoveries.get(1).contains("1 batches (2 changes)"), recoveries.get(1));
    }
}
