package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.kbench.driver.DriverConfig;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class WorkerMetricsTest {
    private static RunSpec spec(String runId, long... rates) {
        List<RunSpec.Producer> producers = new java.util.ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            producers.add(new RunSpec.Producer(i, "t", rates[i], 0));
        }
        return new RunSpec(runId, "coord:1", "wl", 2_000, "kafka", new DriverConfig(Map.of(), Map.of(), Map.of(),
                Map.of()), List.of(), List.of(), producers, List.of(new RunSpec.Consumer(0, "t", "g")), 1_000_000,
                RunSpec.Values.generated(100, 0), RunSpec.KeyChoice.NONE, RunSpec.ConsumerStart.AT_END,
                RunSpec.Transactions.NONE, false, true, "d", false, List.of(), RunSpec.Share.NONE, RunSpec.ConsumerWork.NONE, false);
    }

    private static IntervalSnapshot snapshot(long seq, long sent, long... latencyMicros) {
        Histogram h = LatencyHistograms.create();
        for (long v : latencyMicros) {
            h.recordValue(v);
        }
        byte[] none = new byte[0];
        return new IntervalSnapshot("w1", seq, seq * 1_000_000, (seq + 1) * 1_000_000,
                new Counters(sent, h.getTotalCount(), 1, sent * 100, sent, sent * 100, 0, 0),
                IntervalSnapshot.histograms(LatencyHistograms.encode(h), none, none, none, none), false, 0, 0, false,
                "", 3, io.kbench.protocol.ClientMetricsSample.NONE, io.kbench.protocol.ClientMetricsSample.NONE);
    }

    private static String scrape(WorkerMetrics m) {
        return new String(m.families().write("text/plain").body(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldExportTheWorkersOwnRunTotalsStateAndLastIntervalLabelledWithRunWorkloadAndWorker() {
        WorkerMetrics m = new WorkerMetrics("w1");
        assertTrue(scrape(m).matches("(?s).*kbench_worker_run_state\\{[^}]*state=\"idle\"[^}]*} 1\\.0\\n.*"), "before any run: idle");
        RunSpec spec = spec("r1", 300, 200);
        java.util.concurrent.atomic.AtomicReference<Counters> live = new java.util.concurrent.atomic.AtomicReference<>(
                Counters.ZERO);
        m.prepared(spec, live::get);
        m.started(spec);
        m.snapshot(spec, snapshot(0, 10, 1000, 2000));
        m.snapshot(spec, snapshot(1, 5, 4000));
        m.clockOffset(spec, 3_000);
        live.set(new Counters(15, 3, 2, 300, 15, 1500, 0, 0));
        String text = scrape(m);
        String labels = "{run_id=\"r1\",worker=\"w1\",workload=\"wl\"}";
        // counters read live at the scrape; no timestamps: Prometheus stamps them with the scrape's time
        String at = "\n";
        assertTrue(text.contains("kbench_worker_run_state{run_id=\"r1\",state=\"running\",worker=\"w1\","
                + "workload=\"wl\"} 1.0\n"), text);
        assertTrue(text.contains("kbench_worker_messages_sent_total" + labels + " 15.0" + at), text);
        assertTrue(text.contains("kbench_worker_messages_acked_total" + labels + " 3.0" + at), text);
        assertTrue(text.contains("kbench_worker_messages_failed_total" + labels + " 2.0" + at), text);
        assertTrue(text.contains("kbench_worker_received_bytes_total" + labels + " 1500.0" + at), text);
        assertTrue(text.contains("kbench_worker_consumer_lag_messages" + labels + " 3.0" + at), text);
        assertTrue(text.contains("kbench_worker_target_messages_per_second" + labels + " 500.0\n"), text);
        assertTrue(text.contains("kbench_worker_producers" + labels + " 2.0\n"), text);
        assertTrue(text.contains("kbench_worker_clock_offset_seconds" + labels + " 0.003\n"), text);
        Histogram first = LatencyHistograms.create();
        first.recordValue(1000);
        first.recordValue(2000);
        Histogram second = LatencyHistograms.create();
        second.recordValue(4000);
        // a histogram: every interval's samples in buckets since the run started (1 ms, 2 ms, 4 ms), cumulative
        String bucket = "kbench_worker_publish_latency_seconds_bucket{run_id=\"r1\",worker=\"w1\",workload=\"wl\",le=";
        assertTrue(text.contains(bucket + "\"5.0E-4\"} 0\n") && text.contains(bucket + "\"0.001\"} 1\n")
                && text.contains(bucket + "\"0.0025\"} 2\n") && text.contains(bucket + "\"0.005\"} 3\n")
                && text.contains(bucket + "\"+Inf\"} 3\n"), "both intervals' samples in the buckets: " + text);
        assertTrue(!text.contains("quantile="), "no summaries: " + text);
        assertTrue(text.contains("kbench_worker_publish_latency_seconds_count" + labels + " 3" + at), text);
        double sum = (first.getMean() * 2) / 1e6 + second.getMean() / 1e6;
        assertTrue(text.contains("kbench_worker_publish_latency_seconds_sum" + labels + " " + sum + at), text);

        m.ended(spec, "lease expired");
        assertTrue(scrape(m).matches("(?s).*kbench_worker_run_state\\{[^}]*state=\"aborted\"[^}]*} 1\\.0\\n.*"), scrape(m));
    }

    @Test
    void shouldStartOverForTheNextRunAndIgnoreAStaleRunsEvents() {
        WorkerMetrics m = new WorkerMetrics("w1");
        RunSpec old = spec("r1", -1);
        m.prepared(old, () -> new Counters(10, 10, 0, 1000, 0, 0, 0, 0));
        m.snapshot(old, snapshot(0, 10, 1000));
        RunSpec next = spec("r2", 100);
        m.prepared(next, () -> Counters.ZERO);
        m.ended(old, null);
        m.snapshot(old, snapshot(1, 99, 1000));
        String text = scrape(m);
        assertTrue(text.contains("kbench_worker_messages_sent_total{run_id=\"r2\",worker=\"w1\",workload=\"wl\"} 0.0\n"),
                "the next run's counters, from zero: " + text);
        assertFalse(text.contains("kbench_worker_publish_latency_seconds"), "no snapshot of r2 yet: no summaries: " + text);
        assertTrue(text.contains("kbench_worker_producers{run_id=\"r2\",worker=\"w1\",workload=\"wl\"} 1.0\n"), text);
        assertTrue(text.matches("(?s).*kbench_worker_run_state\\{[^}]*state=\"prepared\"[^}]*} 1\\.0\\n.*"), text);
        m.prepared(spec("r3", -1, 100), () -> Counters.ZERO);
        assertFalse(scrape(m).contains("kbench_worker_target_messages_per_second"),
                "an unthrottled producer: no target rate: " + scrape(m));
    }

    private static IntervalSnapshot withHost(IntervalSnapshot s, io.kbench.protocol.HostSample host) {
        return new IntervalSnapshot(s.workerId(), s.sequence(), s.startMicros(), s.endMicros(), s.counters(),
                s.histograms(), false, 0, 0, false, "", 3, s.producerMetrics(), s.consumerMetrics(), List.of(), host,
                List.of());
    }

    @Test
    void shouldExportItsProcessAndHostSoThatAGeneratorShortOfCpuShowsInGrafanaWhileItRuns() {
        WorkerMetrics m = new WorkerMetrics("w1");
        RunSpec spec = spec("r1", 300);
        m.prepared(spec, () -> Counters.ZERO);
        m.started(spec);
        m.snapshot(spec, snapshot(0, 10, 1000));
        assertFalse(scrape(m).contains("kbench_worker_process_cpu"), "a worker that sent no host figures: none");
        // 2 processors, 1 s: 1.5 s of CPU (0.75 of them), 20 ms of GC, 0.4 s of JIT, 30% of the heap, a 12-ms late
        // wake-up, the host 80% busy with 1% stolen
        m.snapshot(spec, withHost(snapshot(1, 10, 1000), new io.kbench.protocol.HostSample(2, 1_000_000, 1_500_000,
                20_000, 2, 300, 1000, "", 12_000, 0.8, 0.01, 400_000)));
        m.snapshot(spec, withHost(snapshot(2, 10, 1000), new io.kbench.protocol.HostSample(2, 1_000_000, 500_000,
                10_000, 1, 200, 1000, "", -1, 0.3, 0.0, 100_000)));
        String text = scrape(m);
        String labels = "{run_id=\"r1\",worker=\"w1\",workload=\"wl\"}";
        for (String line : List.of("kbench_worker_processors" + labels + " 2.0",
                "kbench_worker_process_cpu_seconds_total" + labels + " 2.0",
                "kbench_worker_gc_pause_seconds_total" + labels + " 0.03",
                "kbench_worker_jit_cpu_seconds_total" + labels + " 0.5",
                "kbench_worker_heap_after_gc_ratio" + labels + " 0.2",
                "kbench_worker_host_busy_ratio" + labels + " 0.3",
                "kbench_worker_host_steal_ratio" + labels + " 0.0")) {
            assertTrue(text.contains(line + "\n"), line + " in:\n" + text);
        }
        assertFalse(text.contains("kbench_worker_late_wakeup_max_seconds"), "the last interval did not measure it");
        m.prepared(spec("r2", 300), () -> Counters.ZERO);
        m.snapshot(spec("r2", 300), snapshot(0, 10, 1000));
        assertFalse(scrape(m).contains("kbench_worker_process_cpu"), "the next run starts from nothing");
    }
}
