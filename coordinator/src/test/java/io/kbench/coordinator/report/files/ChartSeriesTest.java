package io.kbench.coordinator.report.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.report.result.ResultFile;
import org.junit.jupiter.api.Test;

class ChartSeriesTest {
    private static final List<String> KEYS = List.of("batch-size-avg");

    /** Interval k: rate k, p99 k µs (a stall of 1 s at {@code stall}), batch-size-avg 2k, saturated when k % 7 == 0. */
    private static ResultFile.Interval interval(int k, int stall) {
        long p99 = k == stall ? 1_000_000 : k;
        LatencyStats s = new LatencyStats(10, k, k, k, k, p99, p99, p99, p99);
        return new ResultFile.Interval(k, 1000L * k, 1000L * (k + 1), false, k % 7 == 0, 1,
                new ResultFile.Publish(k, k, 0, k, k, 0, s, s, s),
                new ResultFile.Consume(k, k, k, 0, s, (long) k),
                null, 0, 0, new ResultFile.Client(Map.of("batch-size-avg", 2.0 * k), null), List.of(), List.of(), null, List.of());
    }

    private static PageData.Charts data(ChartSeries s) {
        return s.charts(100, Long.MAX_VALUE);
    }

    @Test
    void shouldKeepAtMostMaxPointsWhateverTheLengthAndMergeExactly() {
        ChartSeries growing = ChartSeries.growing(0, KEYS, 10);
        int n = 1_000;
        for (int k = 0; k < n; k++) {
            growing.add(interval(k, 777));
            assertTrue(growing.size() <= 10, "at most 10 points after " + (k + 1) + ": " + growing.size());
        }
        assertEquals(128, growing.intervalsPerPoint(), "doubled until 1,000 intervals fit in 10 points");
        // the same bucket size chosen up front gives the same figures: merging pairs is exact
        ChartSeries same = ChartSeries.fixed(0, KEYS, 8, 1024);
        for (int k = 0; k < n; k++) {
            same.add(interval(k, 777));
        }
        assertEquals(128, same.intervalsPerPoint());
        assertEquals(String.valueOf(data(same).latency()) + data(same).publishRate() + data(same).client()
                + data(same).lag() + data(same).t(), String.valueOf(data(growing).latency())
                + data(growing).publishRate() + data(growing).client() + data(growing).lag() + data(growing).t());
        PageData.Charts d = data(growing);
        List<Double> rate = d.publishRate();
        List<Double> t = d.t();
        assertEquals(8, rate.size(), "1,000 = 7 x 128 + 104");
        assertEquals((0 + 127) / 2.0, rate.get(0), 1e-9, "the average of intervals 0..127");
        assertEquals((896 + 999) / 2.0, rate.get(7), 1e-9, "the last, partial bucket averages its own 104");
        assertEquals(128.0, t.get(0), "a point sits at its bucket's end (s since the run's start)");
        assertEquals(1000.0, t.get(7));
        Map<String, Map<String, List<Double>>> latency = d.latency();
        assertEquals(1000.0, latency.get("publishLatencyMicros").get("p99").get(777 / 128), "a stall stays visible (ms)");
        assertEquals(0.767, latency.get("publishLatencyMicros").get("p99").get(5), 1e-9, "else the worst of the bucket");
        Map<String, List<Double>> client = d.client();
        assertEquals(2 * 63.5, client.get("batch-size-avg").get(0), 1e-9, "client figures averaged");
        List<Long> lag = d.lag();
        assertEquals(127L, lag.get(0), "lag at its worst");
        Map<String, List<double[]>> bands = d.bands();
        assertEquals(1, bands.get("saturated").size(), "every bucket holds a saturated interval: one band");
        assertEquals(0.0, bands.get("saturated").get(0)[0]);
        assertEquals(1000.0, bands.get("saturated").get(0)[1]);
    }

    @Test
    void shouldDrawTheTargetOnlyWhileTheProducersSendAndNothingWhenUnthrottled() {
        ChartSeries s = ChartSeries.fixed(0, KEYS, 100, 10);
        for (int k = 0; k < 10; k++) {
            s.add(interval(k, -1));
        }
        PageData.Charts d = s.charts(100, 8_000);
        assertEquals(java.util.Arrays.asList(100L, 100L, 100L, 100L, 100L, 100L, 100L, 100L, null, null), d.targetSeries());
        assertTrue(s.charts(-1, 8_000).targetSeries().stream().allMatch(java.util.Objects::isNull));
        Map<String, List<double[]>> bands = d.bands();
        assertEquals(2, bands.get("saturated").size(), "intervals 0 and 7, apart");
        assertEquals(1, bands.get("after").size(), "intervals 8 and 9, after the window");
        assertEquals(8.0, bands.get("after").get(0)[0]);
        assertEquals(10.0, bands.get("after").get(0)[1]);
        assertTrue(data(s).bands().get("after").isEmpty(), "a window without an end: no band");
    }

    /** An interval in which {@code acked} messages were acknowledged and {@code received} received, lag {@code lag}. */
    private static ResultFile.Interval counted(int k, long acked, long received, long lag) {
        LatencyStats s = new LatencyStats(10, 5, 5, 5, 5, 5, 5, 5, 5);
        return new ResultFile.Interval(k, 1000L * k, 1000L * (k + 1), false, false, 1,
                new ResultFile.Publish(acked, acked, 0, acked, acked, 0, s, s, s),
                new ResultFile.Consume(received, received, received, 0, s, lag), null, 0, 0, null, List.of(), List.of(),
                null, List.of());
    }

    @Test
    void shouldBandTheIntervalsInWhichTheClusterAcknowledgedNothingWhileMessagesWereOutstanding() {
        ChartSeries s = ChartSeries.fixed(0, KEYS, 100, 10);
        s.add(counted(0, 1_000, 1_000, 0));
        s.add(sentAcked(1, 400, 0));   // a broker freezes: sent, nothing acknowledged
        s.add(sentAcked(2, 0, 0));     // nothing sent either, 400 still outstanding
        s.add(sentAcked(3, 0, 400));   // it answers again
        s.add(sentAcked(4, 0, 0));     // the producers done, nothing outstanding: not a band
        List<double[]> bands = data(s).bands().get("unserved");
        assertEquals(1, bands.size());
        assertEquals(1.0, bands.get(0)[0]);
        assertEquals(3.0, bands.get(0)[1]);
        ChartSeries live = s.copy();
        live.add(sentAcked(5, 10, 0));
        assertEquals(2, data(live).bands().get("unserved").size(), "a copy keeps counting what is outstanding");
    }

    /**
     * A partition not served while the others are: the intervals whose oldest waiting send is older than the interval
     * and its slowest acknowledgement together get a band of their own; a queue merely slow does not.
     */
    @Test
    void shouldBandTheIntervalsThatLeftASendWaitingWhileYoungerOnesWereAcknowledged() {
        ChartSeries s = ChartSeries.fixed(0, KEYS, 100, 10);
        double[] ages = {0, 999, 1_006, 2_000, 3_000, 0};
        for (int k = 0; k < ages.length; k++) { // slowest acknowledgement: 5 µs; 999 ms is inside the interval
            ResultFile.Interval i = sentAcked(k, 1_000, 900);
            s.add(new ResultFile.Interval(i.index(), i.startMillis(), i.endMillis(), false, false, 1, i.publish(),
                    i.consume(), null, 0, 0, new ResultFile.Client(Map.of(
                    io.kbench.coordinator.capacity.TrialVerdict.UNACKED_AGE_METRIC, ages[k]), Map.of()), List.of(),
                    List.of(), null, List.of()));
        }
        List<double[]> bands = data(s).bands().get("leftWaiting");
        assertEquals(1, bands.size(), "intervals 2 to 4");
        assertEquals(2.0, bands.get(0)[0]);
        assertEquals(5.0, bands.get(0)[1]);
        assertTrue(data(s).bands().get("unserved").isEmpty());
    }

    /** An interval in which {@code sent} messages were sent and {@code acked} acknowledged. */
    private static ResultFile.Interval sentAcked(int k, long sent, long acked) {
        LatencyStats s = new LatencyStats(10, 5, 5, 5, 5, 5, 5, 5, 5);
        return new ResultFile.Interval(k, 1000L * k, 1000L * (k + 1), false, false, 1,
                new ResultFile.Publish(sent, acked, 0, acked, acked, 0, s, s, s),
                new ResultFile.Consume(acked, acked, acked, 0, s, 0L), null, 0, 0, null, List.of(), List.of(), null,
                List.of());
    }

    @Test
    void shouldChartTheExactUnreadCountBesideTheConsumersOwnLag() {
        // 3,000 msg/s acknowledged, two classic groups reading 1,000 msg/s each: 2,000 more unread every second, while
        // the consumers' own lag (as of their last fetch) reads near 0 between fetches; then the producers stop
        var workload = io.kbench.coordinator.report.result.ResultDocument.JSON.createObjectNode()
                .put("producersPerTopic", 1).put("subscriptionsPerTopic", 2).put("existingTopics", false);
        assertEquals(2, io.kbench.coordinator.report.UnreadCount.classicGroups(workload));
        ChartSeries s = ChartSeries.fixed(0, KEYS, 2, 4).countingUnread(io.kbench.coordinator.report.UnreadCount.classicGroups(workload));
        s.add(counted(0, 3_000, 2_000, 1_800));
        s.add(counted(1, 3_000, 2_000, 0));
        s.add(counted(2, 0, 2_000, 0));
        ChartSeries live = s.copy();
        s.add(counted(3, 0, 2_000, 0));
        assertEquals(java.util.Arrays.asList(4_000L, 3_000L), data(s).unread(), "the worst of each bucket of 2");
        assertEquals(java.util.Arrays.asList(1_800L, 0L), data(s).lag());
        live.add(counted(3, 0, 6_000, 0));
        assertEquals(java.util.Arrays.asList(4_000L, 3_000L), data(live).unread(), "a copy goes on from its own counts; "
                + "never below 0");
        // not counted: no producers, topics the run did not create, no classic group; or not asked
        assertEquals(0, io.kbench.coordinator.report.UnreadCount.classicGroups(workload.deepCopy().put("producersPerTopic", 0)));
        assertEquals(0, io.kbench.coordinator.report.UnreadCount.classicGroups(workload.deepCopy().put("existingTopics", true)));
        assertEquals(0, io.kbench.coordinator.report.UnreadCount.classicGroups(workload.deepCopy().put("subscriptionsPerTopic", 0)));
        assertEquals(0, io.kbench.coordinator.report.UnreadCount.classicGroups((com.fasterxml.jackson.databind.JsonNode) null));
        ChartSeries plain = ChartSeries.fixed(0, KEYS, 2, 4);
        plain.add(counted(0, 3_000, 2_000, 5));
        assertEquals(java.util.Collections.singletonList(null), data(plain).unread());
    }

    @Test
    void shouldDrawEachIntervalsCommitsWhereTheResultHasThem() {
        ChartSeries series = ChartSeries.fixed(0, KEYS, 8, 1);
        LatencyStats s = new LatencyStats(10, 5, 5, 5, 5, 5, 5, 5, 5);
        LatencyStats commit = new LatencyStats(3, 20_000, 18_000, 19_000, 30_000, 41_000, 41_000, 41_000, 41_000);
        series.add(new ResultFile.Interval(0, 0, 1000, false, false, 1, new ResultFile.Publish(1, 1, 0, 1, 1, 0, s, s, s,
                commit), new ResultFile.Consume(1, 1, 1, 0, s, 0L), null, 0, 0, null, List.of(), List.of(), null, List.of()));
        series.add(interval(1, -1)); // a result before schema 16, or an interval without a commit
        Map<String, List<Double>> c = data(series).latency().get("transactionCommitMicros");
        assertEquals(41.0, c.get("p99").get(0), 1e-9, "ms");
        assertEquals(18.0, c.get("p50").get(0), 1e-9);
    }
}
