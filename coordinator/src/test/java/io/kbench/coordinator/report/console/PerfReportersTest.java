package io.kbench.coordinator.report.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.protocol.ClientMetricsDump;
import io.kbench.protocol.Counters;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The perf tools' line logic on made-up intervals: windows, warm-up, detailed rows, warnings, metrics. */
class PerfReportersTest {
    private static final long S = 1_000_000;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    private final PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);

    /** One second {@code i} with {@code acked} acks of 100 bytes at {@code latencyMicros}, and {@code received} reads. */
    private static MergedInterval second(int i, long acked, long latencyMicros, long received) {
        EnumMap<Metric, LatencyStats> stats = MergedInterval.noStats();
        stats.put(Metric.PUBLISH_LATENCY, acked == 0 ? LatencyStats.EMPTY
                : new LatencyStats(acked, latencyMicros, latencyMicros, latencyMicros, latencyMicros, latencyMicros,
                        latencyMicros, latencyMicros, latencyMicros));
        return new MergedInterval(i, i * S, (i + 1) * S, new Counters(acked, acked, 0, acked * 100, received,
                received * 100, 0, 0), stats, 1, List.of());
    }

    private static Summary summary(List<MergedInterval> intervals, long fromMicros, long latencyMicros, long count) {
        EnumMap<Metric, Histogram> h = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            h.put(m, LatencyHistograms.create());
        }
        h.get(Metric.PUBLISH_LATENCY).recordValueWithCount(latencyMicros, Math.max(1, count));
        return Summary.of(intervals, fromMicros, intervals.get(intervals.size() - 1).endMicros(), 10_000, h);
    }

    private List<String> lines() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void shouldPrintWholeWindowsOfTheReportingIntervalAndDropTheUnfinishedLastOne() {
        ProducerPerfReporter r = new ProducerPerfReporter(o, e, 2000, 0, false);
        List<MergedInterval> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(second(i, 1000, 2000 + i * 1000, 0));
            r.on(new RunEvent.Interval(all.get(i)));
        }
        r.on(new RunEvent.Summarized("t", summary(all, 0, 4000, 5000), 1));
        List<String> l = lines();
        assertEquals(3, l.size(), l.toString());
        assertEquals("2000 records sent, 1000.0 records/sec (0.10 MB/sec), 2.5 ms avg latency, 3.0 ms max latency.", l.get(0));
        assertEquals("2000 records sent, 1000.0 records/sec (0.10 MB/sec), 4.5 ms avg latency, 5.0 ms max latency.", l.get(1));
        assertTrue(l.get(2).startsWith("5000 records sent, 1000.000000 records/sec (0.10 MB/sec), 4.00 ms avg latency"), l.get(2));
    }

    @Test
    void shouldAnnounceTheWarmupMarkTheSteadyStateAndPrintBothTotals() {
        ProducerPerfReporter r = new ProducerPerfReporter(o, e, 1000, 1500, false);
        r.on(new RunEvent.Started(0, Long.MAX_VALUE));
        List<MergedInterval> all = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            all.add(second(i, 1000, 3000, 0));
            r.on(new RunEvent.Interval(all.get(i)));
            if (i == 1) {
                r.on(new RunEvent.Started(0, 2 * S)); // 2000 acked by the end of second 1: the warm-up of 1500 ended there
            }
        }
        r.on(new RunEvent.WholeRun("t", summary(all, 0, 3000, 4000)));
        r.on(new RunEvent.Summarized("t", summary(all, 2 * S, 3000, 2000), 1));
        List<String> l = lines();
        assertEquals("Warmup first 1500 records. Steady state results will print after the complete test summary.", l.get(0));
        assertTrue(l.get(1).startsWith("1000 records sent"), l.toString());
        assertTrue(l.get(2).startsWith("1000 records sent"), l.toString());
        assertEquals("In steady state.", l.get(3));
        assertTrue(l.get(4).startsWith("1000 records sent"), l.toString());
        assertTrue(l.get(6).startsWith("4000 records sent, 1000.000000 records/sec"), l.toString());
        assertTrue(l.get(7).startsWith("2000 steady state records sent, 1000.000000 records/sec"), l.toString());
        assertEquals(8, l.size(), l.toString());
    }

    @Test
    void shouldPrintOneMetricsBlockPerClientPaddedAsTheTool() {
        ProducerPerfReporter r = new ProducerPerfReporter(o, e, 1000, 0, true);
        List<MergedInterval> all = List.of(second(0, 10, 1000, 0));
        r.on(new RunEvent.ClientMetrics(List.of(new ClientMetricsDump("producer", 1, new TreeMap<>(Map.of("g:a:{client-id=p1}", "1.000"))),
                new ClientMetricsDump("producer", 0, new TreeMap<>(Map.of("g:long-name:{client-id=p0}", "x",
                        "g:b:{client-id=p0}", "2.500"))))));
        r.on(new RunEvent.Summarized("t", summary(all, 0, 1000, 10), 1));
        List<String> l = lines();
        assertEquals(List.of("", "Metric Name" + " ".repeat(18) + "Value", "g:b:{client-id=p0}         : 2.500",
                "g:long-name:{client-id=p0} : x", "", "Metric Name" + " ".repeat(10) + "Value", "g:a:{client-id=p1} : 1.000"),
                l.subList(1, l.size()), "producers in index order, each block padded to its longest name");
    }

    @Test
    void shouldPrintDetailedRowsPerReportingIntervalWithTheJoinInTheFirst() {
        ConsumerPerfReporter r = new ConsumerPerfReporter(o, e, true, "yyyy", 5000, 10_000, 2000, false);
        r.on(new RunEvent.Prepared(0, 0, 500_000)); // the consumers took 0.5 s to join
        r.on(new RunEvent.Started(0, 0));
        List<MergedInterval> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(second(i, 0, 0, 1000));
            r.on(new RunEvent.Interval(all.get(i)));
        }
        r.on(new RunEvent.Summarized("t", summary(all, 0, 1, 0), 1));
        List<String> l = lines();
        assertEquals(ConsumerPerfReporter.DETAILED_HEADER, l.get(0));
        // 2000 records of 100 B in 2 s, plus the 0.5 s join in the first row's span (not in its fetch time)
        assertTrue(l.get(1).endsWith(", 0, 0.1907, 0.0763, 2000, 800.0000, 500, 2000, 0.0954, 1000.0000"), l.get(1));
        assertTrue(l.get(2).endsWith(", 0, 0.3815, 0.0954, 4000, 1000.0000, 0, 2000, 0.0954, 1000.0000"), l.get(2));
        assertEquals(3, l.size(), "no total row with detailed stats, no unfinished window: " + l);
    }

    @Test
    void shouldWarnAsTheToolWhenFewerRecordsWereReadThanAskedFor() {
        ConsumerPerfReporter r = new ConsumerPerfReporter(o, e, false, "yyyy", 5000, 1500, 0, false);
        List<MergedInterval> all = List.of(second(0, 0, 0, 3000));
        r.on(new RunEvent.Summarized("t", summary(all, 0, 1, 0), 1));
        List<String> l = lines();
        assertEquals("WARNING: Exiting before consuming the expected number of records: timeout (1500 ms) exceeded. "
                + "You can use the --timeout option to increase the timeout.", l.get(0));
        assertTrue(l.get(1).contains(", 3000, "), l.toString());
    }

    /** One second {@code i} in which share consumers were delivered {@code delivered} records of 100 bytes. */
    private static MergedInterval shareSecond(int i, long delivered) {
        Counters share = new Counters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, delivered, delivered * 100, 0, delivered,
                0, 0);
        return new MergedInterval(i, i * S, (i + 1) * S, Counters.ZERO.withShare(share), MergedInterval.noStats(), 1,
                List.of());
    }

    @Test
    void shouldPrintTheShareToolsPerConsumerLinesWarningRowAndGroupRowsPerInterval() {
        ShareConsumerPerfReporter r = new ShareConsumerPerfReporter(o, e, true, "ss", 10_000, 3000, 2000, true, false);
        r.on(new RunEvent.Started(0, 0));
        List<MergedInterval> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(shareSecond(i, i == 0 ? 0 : 1000)); // joining takes the first second
            r.on(new RunEvent.Interval(all.get(i)));
        }
        // two workers' totals, one of them with a classic consumer that is not a share consumer's line
        r.on(new RunEvent.ConsumerTotals(List.of(new io.kbench.protocol.ConsumerTotal(3, true, 1500, 150_000, "s3"),
                new io.kbench.protocol.ConsumerTotal(0, false, 99, 9900, "c0"))));
        r.on(new RunEvent.ConsumerTotals(List.of(new io.kbench.protocol.ConsumerTotal(1, true, 2500, 250_000, "s1"))));
        r.on(new RunEvent.Summarized("t", summary(all, 0, 1, 0), 1));
        List<String> l = lines();
        assertEquals(ShareConsumerPerfReporter.HEADER, l.get(0));
        // a row once 2 s have passed with records in them: the first covers the join and 1,000 records
        assertEquals("00, 02, 0.0954, 0.0477, 500.0000, 1000, 2000 for share consumer 0", l.get(1));
        assertEquals("02, 04, 0.2861, 0.0954, 1000.0000, 3000, 2000 for share consumer 0", l.get(2));
        // per consumer, by index, over the group's span (start to the last delivery: 5 s)
        assertEquals("Share consumer 1 having client id s1 consumption metrics- 00, 05, 0.2384, 0.0477, 500.0000, 2500, "
                + "5000", l.get(3));
        assertEquals("Share consumer 2 having client id s3 consumption metrics- 00, 05, 0.1431, 0.0286, 300.0000, 1500, "
                + "5000", l.get(4));
        assertEquals("WARNING: Exiting before consuming the expected number of records: timeout (3000 ms) exceeded. "
                + "You can use the --timeout option to increase the timeout.", l.get(5));
        assertEquals("00, 05, 0.3815, 0.0763, 800.0000, 4000, 5000", l.get(6));
        assertEquals(7, l.size(), l.toString());
    }

    @Test
    void shouldPrintTheRoundTripsAsTheyComeThenTheToolsAverageAndWholeMillisecondPercentiles() {
        E2eLatencyReporter r = new E2eLatencyReporter(o, e);
        r.on(new RunEvent.RoundTrips("w1", List.of(new io.kbench.protocol.RoundTripSample(0, 39_673))));
        r.on(new RunEvent.RoundTrips("w1", List.of(new io.kbench.protocol.RoundTripSample(1000, 1_246),
                new io.kbench.protocol.RoundTripSample(2000, 910))));
        EnumMap<Metric, Histogram> h = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            h.put(m, LatencyHistograms.create());
        }
        h.get(Metric.END_TO_END).recordValueWithCount(1_500, 2_000); // 2,000 round trips of 1.5 ms (HdrHistogram: 1.5005)
        h.get(Metric.END_TO_END).recordValueWithCount(12_000, 1); // and one of 12 ms
        h.get(Metric.PUBLISH_LATENCY).recordValueWithCount(900, 2_001);
        List<MergedInterval> all = List.of(second(0, 2_001, 900, 2_001));
        r.on(new RunEvent.IntervalHistograms(all.get(0), h));
        r.on(new RunEvent.Summarized("t", Summary.of(all, 0, S, 10_000, h), 1));
        assertEquals(List.of("0\t39.673", "1000\t1.246", "2000\t0.91", "Avg latency: 1.5052 ms",
                "Percentiles: 50th = 1, 99th = 1, 99.9th = 1"), lines());
        String errors = err.toString(StandardCharsets.UTF_8);
        assertTrue(errors.contains("t: 2,001 round trips; end-to-end (send -> received) µs: mean 1505.2, p50 1500, p99 1500, "
                + "p99.9 1500, p99.99 12007, max 12007"), errors);
        assertTrue(errors.contains("t: send -> ack µs: mean 900.0"), errors);
        assertTrue(errors.contains("t: end-to-end distribution (ms):"), errors);
    }

    @Test
    void shouldPrintNoFiguresWithoutARoundTrip() {
        E2eLatencyReporter r = new E2eLatencyReporter(o, e);
        List<MergedInterval> all = List.of(second(0, 0, 0, 0));
        r.on(new RunEvent.Summarized("t", summary(all, 0, 1, 0), 1));
        assertEquals(List.of(), lines());
    }
    @Test
    void shouldNameTheToolsOwnFlagsWhereKbenchsLinesNameAWorkloadKey() {
        // the diagnosis's phrases, as it prints them (Diagnosis holds each one)
        String next = "    next: " + io.kbench.coordinator.diagnosis.Diagnosis.WARM_UP_OR_WORKERS + " that stay up between "
                + "runs (`kbench worker`, `--workers`); more producers "
                + io.kbench.coordinator.diagnosis.Diagnosis.PRODUCERS_KEY + "): each producer is one load thread";
        String unread = "    the brokers were not read " + io.kbench.coordinator.diagnosis.Diagnosis.BROKER_FLAGS
                + ": they may be the cause";
        String backlog = "    but … a longer warm-up " + io.kbench.coordinator.diagnosis.Diagnosis.WARMUP_KEYS
                + " keeps it out; more messages per transaction ("
                + io.kbench.coordinator.diagnosis.Diagnosis.TRANSACTION_MILLIS_KEY + ", now 10 ms)";
        ProducerPerfReporter p = new ProducerPerfReporter(o, e, 1000, 0, false);
        for (String l : List.of(next, unread, backlog)) {
            p.on(new RunEvent.Info(l));
        }
        String printed = err.toString(StandardCharsets.UTF_8);
        assertEquals(List.of("    next: a longer warm-up (--warmup-records), or workers that stay up between runs "
                        + "(`kbench worker`, `--workers`); more producers (--producers): each producer is one load thread",
                "    the brokers were not read (this command reads only an embedded broker; kbench run reads others "
                        + "with --broker-jmx or --broker-metrics): they may be the cause",
                "    but … a longer warm-up (--warmup-records) keeps it out; more messages per transaction "
                        + "(--transaction-duration-ms, now 10 ms)"), printed.lines().toList());
        err.reset();
        ConsumerPerfReporter c = new ConsumerPerfReporter(o, e, false, "yyyy", 5000, 1500, 0, false);
        c.on(new RunEvent.Info(next));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("    next: workers that stay up between runs"),
                "a consumer tool has no warm-up to lengthen: " + err);
    }
}
