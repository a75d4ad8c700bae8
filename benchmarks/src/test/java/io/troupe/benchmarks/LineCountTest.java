package io.troupe.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The line a logger fork prints reads back as what was printed, and anything else as nothing. */
class LineCountTest {

    @Test
    void printedCountsParseBackWithWhatWasLost() {
        LineCount count = new LineCount("io.troupe.benchmarks.LoggerBenchmark.throughput2Threads", "log4j2",
                17_712_091, 3_009_833, 0);

        LineCount read = LineCount.parse(count.toString());

        assertEquals(count, read);
        assertEquals(14_702_258, read.lost());
        assertEquals("[log4j2] calls=17712091 lines=3009833 dropped=0 lost=14702258 benchmark="
                + "io.troupe.benchmarks.LoggerBenchmark.throughput2Threads", count.toString());
    }

    @Test
    void otherLinesAreNotCounts() {
        assertNull(LineCount.parse("# Run progress: 40.00% complete"));
    }
}
