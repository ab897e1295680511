package io.kbench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ClockEstimatorTest {

    @Test
    void shouldKeepTheLowestRoundTripSample() {
        // worker is 50,000 µs ahead; the 2nd sample has the shortest round trip (100 µs), symmetric
        List<ClockEstimator.Sample> samples = List.of(
                new ClockEstimator.Sample(1_000, 1_000 + 50_000 + 900, 3_000),
                new ClockEstimator.Sample(10_000, 10_050 + 50_000, 10_100),
                new ClockEstimator.Sample(20_000, 20_000 + 50_000 + 10, 21_000));
        ClockEstimator.Estimate e = ClockEstimator.estimate(samples);
        assertEquals(50_000, e.offsetMicros());
        assertEquals(50, e.uncertaintyMicros());
    }

    @Test
    void shouldBoundTheErrorByHalfTheRoundTripWhenPathsAreAsymmetric() {
        // request took 900 µs, response 100 µs: the true offset is -20,000
        long t0 = 5_000;
        long tw = t0 + 900 - 20_000;
        long t1 = t0 + 1_000;
        ClockEstimator.Estimate e = ClockEstimator.estimate(List.of(new ClockEstimator.Sample(t0, tw, t1)));
        assertTrue(Math.abs(e.offsetMicros() - (-20_000)) <= e.uncertaintyMicros(), e.toString());
        assertEquals(500, e.uncertaintyMicros());
    }
}
