package io.kbench.coordinator.dashboard;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.protocol.Counters;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CoordinatorMetricsTest {
    private static MergedInterval interval(long index, long sent, Histogram latency, Histogram delay) {
        EnumMap<Metric, Histogram> h = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            h.put(m, LatencyHistograms.create());
        }
        h.put(Metric.PUBLISH_LATENCY, latency);
        h.put(Metric.PUBLISH_DELAY, delay);
        return new MergedInterval(index, 1_700_000_000_000_000L + index * 1_000_000L,
                1_700_000_000_000_000L + (index + 1) * 1_000_000L,
                new Counters(sent, sent, 0, sent * 100, sent, sent * 100, 0, 0), MergedInterval.statsOf(h), 2,
                List.of(), 7, io.kbench.coordinator.merge.ClientSample.NONE,
                io.kbench.coordinator.merge.ClientSample.NONE);
    }

    private static Histogram values(long... micros) {
        Histogram h = LatencyHistograms.create();
        for (long v : micros) {
            h.recordValue(v);
        }
        return h;
    }

    private static String scrape(CoordinatorMetrics m, long target) {
        return new String(m.families("r1", "wl", "measuring", target, false, 250, Map.of("w1", 0.25)).write(null)
                .body(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldExportTheWorkersProcessesAndHostsOfTheLastIntervalWhileTheRunGoesOn() {
        CoordinatorMetrics m = new CoordinatorMetrics();
        MergedInterval plain = interval(0, 3, values(1000), values(10));
        m.add(plain, false);
        assertFalse(scrape(m, 0).contains("kbench_workers_"), "workers that sent no host figures: none");
        io.kbench.coordinator.merge.HostFigures hosts = new io.kbench.coordinator.merge.HostFigures(2, 0.5, 0.9, "w2",
                25_000, 0.4, 14_000, 0.95, 0.02, 0.3);
        m.add(new MergedInterval(1, plain.startMicros() + 1_000_000, plain.endMicros() + 1_000_000, plain.counters(),
                plain.stats(), 2, List.of(), 7, io.kbench.coordinator.merge.ClientSample.NONE,
                io.kbench.coordinator.merge.ClientSample.NONE, hosts), false);
        String text = scrape(m, 0);
        String labels = "{run_id=\"r1\",workload=\"wl\"} ";
        for (String line : List.of("kbench_workers_cpu_max_ratio" + labels + "0.9",
                "kbench_workers_cpu_mean_ratio" + labels + "0.5", "kbench_workers_gc_pause_max_seconds" + labels + "0.025",
                "kbench_workers_jit_cpu_max_ratio" + labels + "0.3", "kbench_workers_heap_after_gc_max_ratio" + labels + "0.4",
                "kbench_workers_late_wakeup_max_seconds" + labels + "0.014",
                "kbench_workers_host_busy_max_ratio" + labels + "0.95", "kbench_workers_host_steal_max_ratio" + labels + "0.02")) {
            assertTrue(text.contains(line + "\n"), line + " in:\n" + text);
        }
        m.reset();
        m.add(plain, false);
        assertFalse(scrape(m, 0).contains("kbench_workers_"), "the next run starts from nothing");
    }

    /** A partition not served: how long its oldest send has waited, as of the last interval, for an alert to fire on. */
    @Test
    void shouldExportHowLongTheOldestUnacknowledgedSendHadWaited() {
        CoordinatorMetrics m = new CoordinatorMetrics();
        MergedInterval plain = interval(0, 3, values(1000), values(10));
        m.add(plain, false);
        assertFalse(scrape(m, 0).contains("kbench_unacked_send_age"), "producers that did not report it: none");
        m.add(new MergedInterval(1, plain.startMicros() + 1_000_000, plain.endMicros() + 1_000_000, plain.counters(),
                plain.stats(), 2, List.of(), 7, new io.kbench.coordinator.merge.ClientSample(2, Map.of(
                io.kbench.coordinator.capacity.TrialVerdict.UNACKED_AGE_METRIC, 7_900.0)),
                io.kbench.coordinator.merge.ClientSample.NONE), false);
        String text = scrape(m, 0);
        String line = "kbench_unacked_send_age_max_seconds{run_id=\"r1\",workload=\"wl\"} 7.9\n";
        assertTrue(text.contains(line), line + " in:\n" + text);
        m.reset();
        m.add(plain, false);
        assertFalse(scrape(m, 0).contains("kbench_unacked_send_age"), "the next run starts from nothing");
    }

    @Test
    void shouldExportRunTotalsAndTheLastIntervalsExactQuantilesWithoutTimestamps() {
        CoordinatorMetrics m = new CoordinatorMetrics();
        Histogram first = values(1000, 2000, 3000);
        Histogram second = values(10_000, 20_000);
        m.add(interval(0, 3, first, values(10, 10, 10)), false);
        m.addHistograms(Map.of(Metric.PUBLISH_LATENCY, first, Metric.PUBLISH_DELAY, values(10, 10, 10)));
        m.add(interval(1, 2, second, values(90_000, 90_000)), true);
        m.addHistograms(Map.of(Metric.PUBLISH_LATENCY, second, Metric.PUBLISH_DELAY, values(90_000, 90_000)));
        String text = scrape(m, 5000);
        String labels = "{run_id=\"r1\",workload=\"wl\"}";
        assertTrue(text.contains("kbench_messages_sent_total" + labels + " 5.0\n"), text);
        assertTrue(text.contains("kbench_acked_bytes_total" + labels + " 500.0\n"), text);
        assertTrue(text.contains("kbench_intervals_total" + labels + " 2.0\n"), text);
        assertTrue(text.contains("kbench_saturated_intervals_total" + labels + " 1.0\n"), text);
        assertTrue(text.contains("kbench_consumer_lag_messages" + labels + " 7.0\n"), text);
        assertTrue(text.contains("kbench_target_messages_per_second" + labels + " 5000.0\n"), text);
        assertTrue(text.contains("kbench_clock_bound_seconds" + labels + " 2.5E-4\n"), text);
        assertTrue(text.contains("kbench_snapshot_age_seconds{run_id=\"r1\",worker=\"w1\",workload=\"wl\"} 0.25\n"), text);
        // histograms: both intervals' samples (1, 2, 3 ms and 10, 20 ms) in buckets since the start, all workers
        String bucket = "kbench_publish_latency_seconds_bucket{run_id=\"r1\",workload=\"wl\",le=";
        assertTrue(text.contains(bucket + "\"0.001\"} 1\n") && text.contains(bucket + "\"0.0025\"} 2\n")
                && text.contains(bucket + "\"0.005\"} 3\n") && text.contains(bucket + "\"0.01\"} 4\n")
                && text.contains(bucket + "\"0.025\"} 5\n") && text.contains(bucket + "\"+Inf\"} 5\n"), text);
        assertTrue(text.contains("kbench_publish_latency_seconds_count" + labels + " 5\n"), text);
        double sum = (LatencyStats.of(first).mean() * 3 + LatencyStats.of(second).mean() * 2) / 1e6;
        assertTrue(text.contains("kbench_publish_latency_seconds_sum" + labels + " " + sum + "\n"), text);
        assertTrue(text.contains("kbench_end_to_end_latency_seconds_count" + labels + " 0\n"), "no sample: " + text);
        assertFalse(text.contains("quantile="), "histograms, not summaries: " + text);
        assertFalse(text.contains("verification"), "no verification counters for a run without verification");
        assertFalse(text.contains("1700000"), "no sample carries a timestamp (staleness works): " + text);
    }

    @Test
    void shouldLeaveOutTheTargetOfAnUnthrottledRunAndStartOverOnReset() {
        CoordinatorMetrics m = new CoordinatorMetrics();
        m.add(interval(0, 3, values(1000), values(10)), false);
        m.reset();
        String text = scrape(m, -1);
        assertFalse(text.contains("kbench_target_messages_per_second"), text);
        assertFalse(text.contains("kbench_messages_sent_total"), "no interval yet: no interval figures: " + text);
        assertTrue(text.contains("kbench_run_state{run_id=\"r1\",state=\"measuring\",workload=\"wl\"} 1"),
                text);
        assertFalse(text.contains("kbench_consumer_lag_messages"), "lag unknown: " + text);
    }
}
