package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.List;

import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class SummaryHistogramsTest {
    /** Interval i spans [i s, i+1 s), acknowledges {@code acked} messages and has one latency sample of i+1 ms. */
    private static void feed(SummaryHistograms s, long... acked) {
        for (int i = 0; i < acked.length; i++) {
            MergedInterval m = new MergedInterval(i, i * 1_000_000L, (i + 1) * 1_000_000L,
                    new Counters(acked[i], acked[i], 0, 0, 0, 0, 0, 0), MergedInterval.noStats(), 1, List.of());
            EnumMap<Metric, Histogram> h = MergedInterval.emptyHistograms();
            h.get(Metric.PUBLISH_LATENCY).recordValue((i + 1) * 1000L);
            s.add(m, h);
        }
    }

    private static long count(SummaryHistograms s) {
        return s.copy().get(Metric.PUBLISH_LATENCY).getTotalCount();
    }

    @Test
    void shouldAddTheIntervalsThatStartAtOrAfterAKnownMeasurementStart() {
        SummaryHistograms s = SummaryHistograms.from(2_000_000);
        feed(s, 10, 10, 10, 10);
        assertEquals(2, count(s));
        assertEquals(3000, s.copy().get(Metric.PUBLISH_LATENCY).getMinValue(), 3);
        assertEquals(2_000_000, s.measureStartMicros());
        assertTrue(s.warmedUp());
    }

    @Test
    void shouldEndAWarmupByCountWithTheIntervalThatCompletesIt() {
        for (long records : new long[] {500, 800}) {
            SummaryHistograms s = SummaryHistograms.afterRecords(records, 0);
            feed(s, 400, 400, 400);
            assertEquals(2_000_000, s.measureStartMicros(), "warm-up of " + records);
            assertEquals(1, count(s), "only the interval after the one that completed the warm-up");
            assertTrue(s.warmedUp());
        }
    }

    @Test
    void shouldFallBackToTheWholeRunWhenTheWarmupCountIsNeverReached() {
        SummaryHistograms s = SummaryHistograms.afterRecords(5_000, 0);
        feed(s, 400, 400, 400);
        assertEquals(0, s.measureStartMicros());
        assertEquals(3, count(s));
        assertFalse(s.warmedUp());
    }

    @Test
    void shouldHandOutCopiesThatLaterIntervalsDoNotChange() {
        SummaryHistograms s = SummaryHistograms.from(0);
        feed(s, 1);
        EnumMap<Metric, Histogram> before = s.copy();
        feed(s, 1, 1);
        assertEquals(1, before.get(Metric.PUBLISH_LATENCY).getTotalCount());
        assertEquals(3, count(s));
    }
}
