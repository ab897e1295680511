package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** {@link LatencyStats#of} gives exactly HdrHistogram's own mean and percentiles, in one pass. */
class LatencyStatsTest {
    @Test
    void shouldEqualHdrHistogramsOwnFiguresOnRandomHistograms() {
        SplittableRandom random = new SplittableRandom(20261126L);
        for (int round = 0; round < 400; round++) {
            Histogram h = LatencyHistograms.create();
            int values = 1 + random.nextInt(round % 4 == 0 ? 3 : 5_000);
            for (int i = 0; i < values; i++) {
                // latencies from 1 us to the top of the range, most of them small, some counts above 1
                long v = (long) Math.min(LatencyHistograms.HIGHEST_TRACKABLE_MICROS,
                        Math.exp(random.nextDouble() * Math.log(LatencyHistograms.HIGHEST_TRACKABLE_MICROS)));
                h.recordValueWithCount(v, random.nextInt(10) == 0 ? 1 + random.nextInt(1_000) : 1);
            }
            assertSame(h, "round " + round);
        }
    }

    @Test
    void shouldEqualHdrHistogramsOwnFiguresAtTheEdges() {
        Histogram one = LatencyHistograms.create();
        one.recordValue(7);
        assertSame(one, "one value");
        Histogram top = LatencyHistograms.create();
        top.recordValueWithCount(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 3);
        top.recordValue(1);
        assertSame(top, "the top of the range");
        Histogram zero = LatencyHistograms.create();
        zero.recordValueWithCount(0, 10_000);
        zero.recordValue(2_000_000);
        assertSame(zero, "zeros and one outlier");
        // counts where a percentile's count falls exactly on a bucket boundary: 100 and 10,000 values
        for (int n : new int[] {100, 10_000}) {
            Histogram exact = LatencyHistograms.create();
            for (int i = 1; i <= n; i++) {
                exact.recordValue(i * 10L);
            }
            assertSame(exact, n + " distinct values");
        }
        assertEquals(LatencyStats.EMPTY, LatencyStats.of(LatencyHistograms.create()));
    }

    private static void assertSame(Histogram h, String what) {
        LatencyStats s = LatencyStats.of(h);
        assertEquals(h.getTotalCount(), s.count(), what);
        assertEquals(Math.round(h.getMean() * 10) / 10.0, s.mean(), what);
        assertEquals(h.getValueAtPercentile(50), s.p50(), what + " p50");
        assertEquals(h.getValueAtPercentile(75), s.p75(), what + " p75");
        assertEquals(h.getValueAtPercentile(95), s.p95(), what + " p95");
        assertEquals(h.getValueAtPercentile(99), s.p99(), what + " p99");
        assertEquals(h.getValueAtPercentile(99.9), s.p999(), what + " p99.9");
        assertEquals(h.getValueAtPercentile(99.99), s.p9999(), what + " p99.99");
        assertEquals(h.getMaxValue(), s.max(), what);
    }
}
