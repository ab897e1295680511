package io.kbench.coordinator.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumMap;
import java.util.List;

import io.kbench.coordinator.merge.HostFigures;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.merge.ClientSample;
import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;
import org.junit.jupiter.api.Test;

/** The worker hosts' figures the diagnosis reads, taken over the measured window. */
class WindowFiguresTest {
    private static final long S = 1_000_000;
    private static final long THRESHOLD = 10_000;

    /** An interval whose publish delay p99 is {@code delayP99} µs, with the hosts' figures given. */
    private static MergedInterval interval(long i, long delayP99, long stall, double hostBusy, double steal) {
        EnumMap<Metric, LatencyStats> stats = MergedInterval.noStats();
        stats.put(Metric.PUBLISH_DELAY, new LatencyStats(1_000, delayP99 / 2.0, 100, 200, 300, delayP99, delayP99,
                delayP99, delayP99));
        return new MergedInterval(i, i * S, (i + 1) * S, Counters.ZERO, stats, 1, List.of(), -1, ClientSample.NONE,
                ClientSample.NONE, new HostFigures(1, 0.3, 0.3, "w1", 0, 0.1, stall, hostBusy, steal, -1));
    }

    private static final List<ResultFile.Worker> WORKERS = List.of(new ResultFile.Worker("w1", "127.0.0.1:1", 0, 0, 0,
            0, 0, 1, 0, 1_000, 0, 0, 0, 0, new ResultFile.HostUse(4, 2, 0.3, 0.4, 0, 0, 0, 10, 100, null, 31_000L, 0.7,
            0.98, 0.01, 0.05, 0.06, 0.2)));

    @Test
    void shouldTakeTheHostsCpuOverTheIntervalsSaturatedByAStallOnly() {
        WindowFigures.Hosts h = WindowFigures.hosts(WORKERS, List.of(
                interval(0, 2_000, 4_000, 0.20, 0.00),     // on schedule
                interval(1, 15_000, 31_000, 0.98, 0.05),  // saturated, stalled
                interval(2, 12_000, 12_000, 0.90, 0.01),  // saturated, stalled
                interval(3, 20_000, 2_000, 1.00, 0.30),   // saturated by the loop's own work: not counted
                interval(4, 3_000, 25_000, 0.99, 0.20)),  // stalled but on schedule: not counted
                THRESHOLD);
        assertEquals(0.94, h.stalledHostBusy(), 1e-9, "the mean of 98% and 90%");
        assertEquals(0.05, h.stalledHostSteal(), 1e-9, "the most of those two");
        assertEquals(31_000, h.stallMaxMicros(), "the longest stall of the whole window");
    }

    @Test
    void shouldSayUnknownWithoutSuchIntervalsOrWithoutTheHostsFigures() {
        WindowFigures.Hosts none = WindowFigures.hosts(WORKERS, List.of(interval(0, 2_000, 4_000, 0.2, 0)), THRESHOLD);
        assertEquals(-1, none.stalledHostBusy(), "no interval saturated by a stall");
        assertEquals(-1, none.stalledHostSteal());
        WindowFigures.Hosts old = WindowFigures.hosts(WORKERS, List.of(interval(0, 15_000, 31_000, -1, -1)), THRESHOLD);
        assertEquals(-1, old.stalledHostBusy(), "workers that do not read their host's CPU");
        assertEquals(-1, old.stalledHostSteal());
    }

    /** A second of 1,000 messages acknowledged, none received, the consumers' sampled lag {@code lag}. */
    private static MergedInterval unread(long i, long lag) {
        return new MergedInterval(i, i * S, (i + 1) * S, new Counters(1_000, 1_000, 0, 100_000, 0, 0, 0, 0),
                MergedInterval.noStats(), 1, List.of(), lag, ClientSample.NONE, ClientSample.NONE, HostFigures.NONE);
    }

    @Test
    void shouldTakeTheRatesOverTheWindowToTheProducersStop() {
        // a record-count run at 1,000 msg/s whose producers stopped 5 ms into their tenth interval: 9,005 sent
        java.util.Map<String, Object> keys = java.util.Map.of("name", "w", "partitionsPerTopic", 6,
                "producersPerTopic", 1, "subscriptionsPerTopic", 0, "producerRate", 1_000, "numRecords", 9_005);
        List<MergedInterval> window = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            long n = i < 9 ? 1_000 : 5;
            window.add(new MergedInterval(i, i * S, (i + 1) * S, new Counters(n, n, 0, n * 100, 0, 0, 0, 0),
                    MergedInterval.noStats(), 1, List.of(), -1, ClientSample.NONE, ClientSample.NONE, HostFigures.NONE));
        }
        io.kbench.coordinator.workload.Workload w = io.kbench.coordinator.workload.Workload.of("w", keys);
        WindowFigures f = WindowFigures.of(w, null, window, 0, 9 * S + 5_000, null, List.of(), null, 1);
        assertEquals(9.005, f.load().seconds(), 1e-9, "the summary's window: to the stop, not to the interval's end");
        assertEquals(1_000, f.load().sentRate(), 1e-9);
        assertEquals(1_000, f.load().ackedRate(), 1e-9);
        org.junit.jupiter.api.Assertions.assertNotEquals("generator", Diagnosis.of(f).limit(),
                "the target was met: 9,005 in 9.005 s");
    }

    @Test
    void shouldNotNameTheConsumersOfABacklogRunThatHoldsThemByDesign() {
        java.util.Map<String, Object> keys = new java.util.LinkedHashMap<>(java.util.Map.of("name", "w",
                "partitionsPerTopic", 6, "producersPerTopic", 1, "subscriptionsPerTopic", 1, "consumersPerSubscription", 1,
                "producerRate", 1_000, "durationSeconds", 10));
        List<MergedInterval> window = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            window.add(unread(i, (i + 1) * 1_000L));
        }
        io.kbench.coordinator.workload.Workload reading = io.kbench.coordinator.workload.Workload.of("w", keys);
        ResultFile.Diagnosis d = Diagnosis.of(WindowFigures.of(reading, null, window, 0, 10 * S, null, List.of(), null, 1));
        assertEquals("consumers", d.limit(), "consumers that read nothing while 10 s of production piled up");
        keys.put("consumerBacklogRecords", 100_000);
        io.kbench.coordinator.workload.Workload backlog = io.kbench.coordinator.workload.Workload.of("w", keys);
        WindowFigures f = WindowFigures.of(backlog, null, window, 0, 10 * S, null, List.of(), null, 1);
        assertEquals(Double.NaN, f.consumers().unread());
        org.junit.jupiter.api.Assertions.assertNotEquals("consumers", Diagnosis.of(f).limit(),
                "held until the backlog is built: the catch-up line is their rate, not a limit");
    }

    @Test
    void shouldTakeTheCommitsOverTheWindowAndTheSaturatedIntervalsTheyExplain() {
        java.util.Map<String, Object> keys = new java.util.LinkedHashMap<>(java.util.Map.of("name", "w",
                "partitionsPerTopic", 6, "producersPerTopic", 2, "subscriptionsPerTopic", 0, "producerRate", 10_000,
                "durationSeconds", 4, "transactionRecords", 100));
        long[][] commits = { // count, mean µs, max µs, publish delay p99 µs
                {50, 4_000, 9_000, 15_000},   // saturated, but no commit of 10 ms: not the commits'
                {50, 8_000, 30_000, 25_000},  // saturated with a 30-ms commit
                {50, 6_000, 12_000, 3_000},   // a long commit, on schedule: not saturated
                {50, 2_000, 10_000, 11_000}}; // saturated, a commit of exactly the threshold
        List<MergedInterval> window = new java.util.ArrayList<>();
        for (int i = 0; i < commits.length; i++) {
            MergedInterval d = interval(i, commits[i][3], 0, -1, -1);
            EnumMap<Metric, LatencyStats> stats = new EnumMap<>(d.stats());
            long[] c = commits[i];
            stats.put(Metric.TRANSACTION_COMMIT, new LatencyStats(c[0], c[1], c[1], c[1], c[2], c[2], c[2], c[2], c[2]));
            window.add(new MergedInterval(i, i * S, (i + 1) * S, new Counters(10_000, 10_000, 0, 1_000_000, 0, 0, 0, 0),
                    stats, 1, List.of(), -1, ClientSample.NONE, ClientSample.NONE, d.hosts()));
        }
        io.kbench.coordinator.workload.Workload w = io.kbench.coordinator.workload.Workload.of("w", keys);
        WindowFigures.Commits c = WindowFigures.of(w, null, window, 0, 4 * S, null, WORKERS, null, 1).commits();
        assertEquals(200, c.count());
        assertEquals(5_000, c.meanMicros(), 1e-9, "(4 + 8 + 6 + 2) / 4 ms, each of 50 commits");
        assertEquals(30_000, c.maxMicros());
        assertEquals(0.125, c.blockedShare(), 1e-9, "1 s of commits over 2 producers x 4 s");
        assertEquals(2, c.saturatedByCommit(), "intervals 1 and 3");
        assertEquals(2, c.producers());
        assertEquals(100, c.transactionRecords());
        keys.remove("transactionRecords");
        io.kbench.coordinator.workload.Workload plain = io.kbench.coordinator.workload.Workload.of("w", keys);
        assertEquals(WindowFigures.Commits.NONE, WindowFigures.of(plain, null, window, 0, 4 * S, null, WORKERS, null, 1)
                .commits(), "not transactional");
    }
}
