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

    @Test
    void shouldReplaceAnEstimateOnlyWhenTighterOrContradicted() {
        ClockEstimator.WorkerClock wc = ClockEstimator.WorkerClock.estimated(new ClockEstimator.Estimate(50_000, 400));
        assertTrue(!wc.offer(new ClockEstimator.Estimate(50_300, 900)), "looser and consistent: kept");
        assertEquals(50_000, wc.offset());
        assertTrue(wc.offer(new ClockEstimator.Estimate(50_100, 200)), "tighter: taken");
        assertEquals(50_100, wc.offset());
        // the clocks drifted 2 ms apart: the intervals no longer overlap, so the looser new one is taken
        assertTrue(wc.offer(new ClockEstimator.Estimate(52_100, 600)));
        assertEquals(52_100, wc.offset());
        assertEquals(4, wc.estimates());
        assertEquals(2, wc.corrections());
        assertEquals(2_000, wc.maxStep());
        assertEquals(600 + 2_000, wc.uncertainty(), "largest ± in effect plus largest correction");
    }

    @Test
    void shouldNeverReestimateTheCoordinatorsOwnClock() {
        ClockEstimator.WorkerClock same = ClockEstimator.WorkerClock.same();
        assertTrue(!same.offer(new ClockEstimator.Estimate(300, 100)));
        assertEquals(0, same.offset());
        assertEquals(0, same.uncertainty());
    }

    @Test
    void shouldBoundEndToEndErrorByTheWorstProducerConsumerPair() {
        ClockEstimator.WorkerClock a = ClockEstimator.WorkerClock.estimated(new ClockEstimator.Estimate(0, 300));
        ClockEstimator.WorkerClock b = ClockEstimator.WorkerClock.estimated(new ClockEstimator.Estimate(50_000, 500));
        ClockEstimator.WorkerClock c = ClockEstimator.WorkerClock.same();
        // a produces, b and c consume
        assertEquals(800, ClockEstimator.endToEndBound(List.of(a, b, c), List.of(true, false, false),
                List.of(false, true, true)));
        // one worker doing both: its offset error cancels
        assertEquals(0, ClockEstimator.endToEndBound(List.of(b), List.of(true), List.of(true)));
        // ... except for a correction made while messages were in flight
        b.offer(new ClockEstimator.Estimate(50_120, 100));
        assertEquals(120, ClockEstimator.endToEndBound(List.of(b), List.of(true), List.of(true)));
    }
}
