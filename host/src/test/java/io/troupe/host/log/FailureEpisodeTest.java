package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link FailureEpisode} with a manual clock and a captured stderr; single-threaded. */
class FailureEpisodeTest {

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    private final AtomicLong now = new AtomicLong(1_000);
    private final FailureEpisode episode =
            new FailureEpisode("log file /x/troupe.log", "records go to stderr instead", () -> err, now::get);

    @Test
    void anEpisodeIsToldOnceWhenItStartsAndOnceWhenItEndsWithWhatItCost() {
        assertTrue(episode.failed("cannot write it", new IOException("No space left on device"), 3, 300));
        assertFalse(episode.failed("cannot write it", new IOException("No space left on device"), 2, 200));
        assertFalse(episode.failed("cannot open it", new IOException("Too many open files"), 0, 0));
        assertEquals(1, lines().size(), "one line for a failure going on: " + lines());
        assertTrue(lines().get(0).contains("log file /x/troupe.log fails (cannot write it: IOException: No space left"
                + " on device)"), lines().get(0));

        now.addAndGet(TimeUnit.SECONDS.toNanos(42));
        String summary = episode.succeeded();

        assertTrue(summary.contains("works again after failing for 42 s"), summary);
        assertTrue(summary.contains("5 records (500 bytes) could not be written to it"), summary);
        assertTrue(summary.contains("No space left on device"), "names the first reason: " + summary);
        assertEquals(List.of("troupe-log: " + summary), lines().subList(1, 2));
        assertNull(episode.succeeded(), "an episode ends once");
        assertEquals(2, lines().size());
    }

    @Test
    void aSinkThatWorksSaysNothing() {
        assertNull(episode.succeeded());
        assertNull(episode.succeeded());
        assertFalse(episode.failing());
        assertEquals("", stderr.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aNewEpisodeAfterARecoveryIsToldAgainAndCountsOnlyItsOwnLosses() {
        episode.failed("cannot write it", new IOException("No space left on device"), 7, 70);
        episode.succeeded();
        assertTrue(episode.failed("cannot open it", new IOException("Too many open files"), 1, 10));
        String second = episode.succeeded();

        assertEquals(2, episode.episodes());
        assertEquals(4, lines().size(), lines().toString());
        assertTrue(second.contains("1 records (10 bytes)") && second.contains("Too many open files"), second);
    }

    @Test
    void aBrokenStderrIsIgnored() {
        FailureEpisode silent = new FailureEpisode("sink", "dropped", () -> {
            throw new IllegalStateException("no stderr");
        }, now::get);

        assertTrue(silent.failed("cannot write it", null, 1, 1));
        assertTrue(silent.succeeded().contains("unknown cause"));
    }

    private List<String> lines() {
        return stderr.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
