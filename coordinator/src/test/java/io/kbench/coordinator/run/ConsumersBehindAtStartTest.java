package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;
import org.junit.jupiter.api.Test;

/**
 * Consumers that began the measured window behind: 1 consumer with max.poll.records=1 at 40,000 msg/s, a 3-s
 * warm-up, began the window 65,219 messages behind and caught up 5 s into it — end-to-end p99 1,626 ms for the
 * window, and the diagnosis said `none`, nothing left unread. No line said why.
 */
class ConsumersBehindAtStartTest {
    private static final long S = 1_000_000;
    /** 1 producer, 40,000 msg/s, 3 s warm-up, 10 s measured, 1 group. */
    private static final Workload W = Workload.timed("w", 1, 2, 100, 1, 1, 1, 40_000, 3, 10);

    /** Intervals of 1 s with these lags at their ends and these end-to-end p99s (µs). */
    private static List<MergedInterval> lags(long[] lag, long[] p99) {
        List<MergedInterval> out = new ArrayList<>();
        for (int i = 0; i < lag.length; i++) {
            EnumMap<Metric, LatencyStats> stats = MergedInterval.noStats();
            stats.put(Metric.END_TO_END, new LatencyStats(1000, p99[i], p99[i], p99[i], p99[i], p99[i], p99[i], p99[i],
                    p99[i]));
            out.add(new MergedInterval(i, i * S, (i + 1) * S, Counters.ZERO, stats, 1, List.of(), lag[i], null, null));
        }
        return out;
    }

    @Test
    void shouldSayWhenTheConsumersBeganTheWindowBehindAndWhenTheyCaughtUp() {
        long[] p99 = {782_335, 1_303_551, 1_672_191, 0, 1_658_879, 1_580_031, 1_058_815, 235_519, 18_799, 23_071, 12_383,
            16_927, 12_367};
        long[] lag = {28_018, 49_726, 65_219, 75_040, 62_532, 45_255, 12_892, 38, 142, 86, 146, 124, 131};
        assertEquals("the consumers began the measured window 65,219 message(s) behind (1.6 s of their reading at the "
                + "target: they fell behind in the warm-up) and caught up 5 s into it (75,040 behind at most); the "
                + "end-to-end times of those seconds include that backlog (p99 up to 1,658.9 ms in them): a longer "
                + "warmupSeconds measures the steady state alone",
                ResultAssembly.consumersBehindAtStart(W, lags(lag, p99), 3 * S, 13 * S));
        // still catching up when the window ended
        long[] slow = {28_018, 49_726, 65_219, 75_040, 70_000, 60_000, 55_000, 50_000, 45_000, 40_000, 35_000, 30_000,
            25_000};
        assertEquals("the consumers began the measured window 65,219 message(s) behind (1.6 s of their reading at the "
                + "target: they fell behind in the warm-up) and were still catching up at its end (25,000 behind); the "
                + "window's end-to-end times include that backlog (p99 up to 1,672.2 ms per interval): a longer "
                + "warmupSeconds measures the steady state alone", ResultAssembly.consumersBehindAtStart(W,
                lags(slow, new long[] {0, 0, 0, 1_672_191, 0, 0, 0, 0, 0, 0, 0, 0, 0}), 3 * S, 13 * S));
        // falling further behind: the diagnosis names the consumers, not this line
        long[] growing = {28_018, 49_726, 65_219, 75_040, 80_000, 90_000, 100_000, 110_000, 120_000, 130_000, 140_000,
            150_000, 160_000};
        assertNull(ResultAssembly.consumersBehindAtStart(W, lags(growing, p99), 3 * S, 13 * S));
        // under a second of reading behind (39,999 of 40,000): a warm consumer's lag
        long[] warm = {100, 39_999, 39_999, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
        assertNull(ResultAssembly.consumersBehindAtStart(W, lags(warm, p99), 3 * S, 13 * S));
        // two groups read every message: 65,219 behind is 0.8 s of their reading
        Workload two = Workload.timed("w", 1, 2, 100, 1, 2, 1, 40_000, 3, 10);
        assertNull(ResultAssembly.consumersBehindAtStart(two, lags(lag, p99), 3 * S, 13 * S));
        // no classic group (a share group's backlog holds its locked records too): not judged
        assertNull(ResultAssembly.consumersBehindAtStart(Workload.timed("w", 1, 2, 100, 1, 0, 1, 40_000, 3, 10),
                lags(lag, p99), 3 * S, 13 * S));
        // no warm-up: nothing ended before the window
        assertNull(ResultAssembly.consumersBehindAtStart(W.withTiming(0, 13), lags(lag, p99), 0, 13 * S));
        // unthrottled: no target to measure the lag by
        assertNull(ResultAssembly.consumersBehindAtStart(W.withProducerRate(Workload.UNTHROTTLED), lags(lag, p99),
                3 * S, 13 * S));
    }
}
