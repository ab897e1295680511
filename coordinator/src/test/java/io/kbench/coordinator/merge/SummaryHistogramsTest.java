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

    /**
     * A backlog of 2,500 built at 1,000 msg/s and released at 2.5 s: read in intervals 2-4 (received 500, 1,000,
     * 1,200: 2,700 by the end of interval 4 >= 2,500), so the end-to-end latency after the catch-up is intervals 5 on.
     * Interval i's end-to-end sample is (i + 1) s: the backlog's messages waited seconds, the live ones do not.
     */
    @Test
    void shouldKeepTheEndToEndLatencyAfterABacklogsCatchUpApart() {
        SummaryHistograms s = SummaryHistograms.from(0);
        long[] acked = {1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000};
        long[] received = {0, 0, 500, 1_000, 1_200, 1_000, 1_000};
        for (int i = 0; i < acked.length; i++) {
            if (i == 2) {
                s.catchUpFrom(2_500_000, 2_400, 1); // the live count, a little short: the interpolated 2,500 wins
            }
            MergedInterval m = new MergedInterval(i, i * 1_000_000L, (i + 1) * 1_000_000L,
                    new Counters(acked[i], acked[i], 0, 0, received[i], 0, 0, 0), MergedInterval.noStats(), 1, List.of());
            EnumMap<Metric, Histogram> h = MergedInterval.emptyHistograms();
            if (received[i] > 0) {
                h.get(Metric.END_TO_END).recordValue((i + 1) * 1_000_000L);
            }
            s.add(m, h);
            if (i < 4) {
                assertEquals(null, s.afterCatchUp(), "still reading the backlog after interval " + i);
            }
        }
        SummaryHistograms.AfterCatchUp after = s.afterCatchUp();
        assertEquals(5_000_000, after.fromMicros());
        assertEquals(2, after.endToEnd().getTotalCount());
        assertEquals(6_000_000, after.endToEnd().getMinValue(), 6_000);
        assertEquals(5, s.copy().get(Metric.END_TO_END).getTotalCount(), "the run's own histogram keeps everything");
        CatchUp c = CatchUp.of(java.util.stream.IntStream.range(0, acked.length).mapToObj(i -> new MergedInterval(i,
                i * 1_000_000L, (i + 1) * 1_000_000L, new Counters(acked[i], acked[i], 0, 0, received[i], 0, 0, 0),
                MergedInterval.noStats(), 1, List.of())).toList(), 2_500_000, 2_400, 1).withAfter(after);
        assertEquals(2_500, c.backlogRecords(), "the same backlog as the catch-up's");
        assertEquals(5_000, c.afterMillis());
        assertEquals(2, c.endToEndAfterMicros().count());

        // two subscriptions read the backlog twice: not caught up by interval 4's end
        SummaryHistograms two = SummaryHistograms.from(0);
        two.catchUpFrom(2_500_000, 2_500, 2);
        for (int i = 0; i < acked.length; i++) {
            two.add(new MergedInterval(i, i * 1_000_000L, (i + 1) * 1_000_000L, new Counters(acked[i], acked[i], 0, 0,
                    received[i], 0, 0, 0), MergedInterval.noStats(), 1, List.of()), MergedInterval.emptyHistograms());
        }
        assertEquals(null, two.afterCatchUp(), "4,700 received of 5,000");

        // a warm-up that lasts past the catch-up: the measured intervals after it only, as the run's own figures
        SummaryHistograms warm = SummaryHistograms.from(6_000_000);
        warm.catchUpFrom(2_500_000, 2_500, 1);
        for (int i = 0; i < acked.length; i++) {
            EnumMap<Metric, Histogram> h = MergedInterval.emptyHistograms();
            h.get(Metric.END_TO_END).recordValue((i + 1) * 1_000_000L);
            warm.add(new MergedInterval(i, i * 1_000_000L, (i + 1) * 1_000_000L, new Counters(acked[i], acked[i], 0, 0,
                    received[i], 0, 0, 0), MergedInterval.noStats(), 1, List.of()), h);
        }
        assertEquals(6_000_000, warm.afterCatchUp().fromMicros());
        assertEquals(1, warm.afterCatchUp().endToEnd().getTotalCount());
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
