package io.troupe.benchmarks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** Which runs of the network suite warm up longer: those of large frames only, by the documented factor. */
class LargeFrameWarmupTest {

    private final LoadGenerator load = new LoadGenerator(Path.of("troupe"), "demo", "token", "3s", "10s");

    @Test
    void smallFramesKeepTheSuitesWarmUp() {
        assertSame(load, NetworkSuite.forShape(load, new Shape(64, 1, 4096)));
        assertSame(load, NetworkSuite.forShape(load, new Shape(1, 1, NetworkSuite.LARGE_FRAME_BYTES - 1)));
    }

    @Test
    void largeFramesWarmUpFiveTimesLongerAndMeasureAsLong() {
        LoadGenerator large = NetworkSuite.forShape(load, new Shape(64, 4, NetworkSuite.LARGE_FRAME_BYTES));
        assertEquals("15000ms", large.warmup());
        assertEquals("10s", large.duration());
        assertEquals("2500ms", NetworkSuite.forShape(new LoadGenerator(Path.of("troupe"), "demo", "token", "500ms",
                "1s"), new Shape(1, 1, 1 << 20)).warmup());
    }
}
