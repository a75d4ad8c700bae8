package io.troupe.distribution.longtier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The trend verdict on series made by hand: flat noise, a leak within each life of the server, too few points. */
class TrendTest {

    @Test
    void noiseAroundALevelIsFlatAndOneOutlierDoesNotMakeATrend() {
        List<Trend.Point> points = new ArrayList<>();
        double[] noise = {0, 3, -2, 1, -3, 2, 0, -1, 2, -2};
        for (int i = 0; i < noise.length; i++) {
            points.add(new Trend.Point(i * 30, 1, 100 + noise[i] + (i == 9 ? 80 : 0)));
        }
        Trend trend = Trend.of("heap", points, 0.10, 0);
        assertEquals(Trend.Verdict.FLAT, trend.verdict(), trend::toString);
    }

    @Test
    void growthWithinEachLifeIsAnUpwardTrendThoughEveryRestartBeginsLowAgain() {
        List<Trend.Point> points = new ArrayList<>();
        for (int life = 0; life < 3; life++) {
            for (int i = 0; i < 5; i++) {
                points.add(new Trend.Point(life * 150 + i * 30, 100 + life, 50 + i * 4));
            }
        }
        Trend trend = Trend.of("threads", points, 0, 3);
        assertEquals(Trend.Verdict.UP, trend.verdict(), trend::toString);
    }

    @Test
    void aSawtoothOfRestartsWithoutGrowthWithinALifeIsFlat() {
        List<Trend.Point> points = new ArrayList<>();
        for (int life = 0; life < 3; life++) {
            for (int i = 0; i < 5; i++) {
                points.add(new Trend.Point(life * 150 + i * 30, 100 + life, 50 + life * 20));
            }
        }
        Trend trend = Trend.of("fds", points, 0, 5);
        assertEquals(Trend.Verdict.FLAT, trend.verdict(), trend::toString);
    }

    @Test
    void fewerThanSixSamplesAreTooFewToJudge() {
        List<Trend.Point> points = List.of(new Trend.Point(0, 1, 1), new Trend.Point(30, 1, 100));
        assertEquals(Trend.Verdict.TOO_FEW, Trend.of("heap", points, 0.1, 0).verdict());
    }
}
