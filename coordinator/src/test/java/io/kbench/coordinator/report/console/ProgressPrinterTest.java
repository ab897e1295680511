package io.kbench.coordinator.report.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import org.junit.jupiter.api.Test;

/** Each progress line says how long the producers have left by plan, then that the run drains. */
class ProgressPrinterTest {
    private static final long S = 1_000_000;
    private static final long START = 1_800_000_000L * S;

    /** A printer into {@code out} of a run of {@code w} that started at {@link #START}. */
    private static ProgressPrinter started(ByteArrayOutputStream out, Workload w) {
        ProgressPrinter p = new ProgressPrinter(new PrintStream(out, true, StandardCharsets.UTF_8));
        p.on(new RunEvent.Begin("r", w));
        p.on(new RunEvent.Started(START, START + w.warmupSeconds() * S));
        return p;
    }

    private static List<String> lines(Workload w, int... endSeconds) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgressPrinter p = started(out, w);
        for (int end : endSeconds) {
            p.on(new RunEvent.Interval(new MergedInterval(end - 1, START + (end - 1) * S, START + end * S, Counters.ZERO,
                    MergedInterval.noStats(), 1, List.of())));
        }
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void shouldCountDownTheTimedRunThenSayItDrains() {
        List<String> l = lines(Workload.timed("t", 1, 1, 100, 1, 1, 1, 1000, 2, 10), 1, 11, 12, 13, 14);
        assertTrue(l.get(0).endsWith(" | 11 s left"), l.get(0));
        assertTrue(l.get(1).endsWith(" | 1 s left"), l.get(1));
        assertTrue(l.get(2).endsWith(" | 0 s left"), "the last second of sending: " + l.get(2));
        assertTrue(l.get(3).endsWith(" | draining"), l.get(3));
        assertTrue(l.get(4).endsWith(" | draining"), l.get(4));
    }

    /**
     * A generator behind its schedule sends every message the window intended, late: after the planned end its
     * intervals say it is still sending, not draining (a cold run at 790,000 msg/s sent for 14 s past its 20).
     */
    @Test
    void shouldSayTheProducersAreStillSendingAfterThePlannedEndWhenTheyAreBehind() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgressPrinter p = started(out, Workload.timed("t", 1, 1, 100, 1, 1, 1, 1000, 0, 2));
        for (long sent : new long[] {1000, 1000, 600, 11, 10, 0}) {
            long i = out.toString(StandardCharsets.UTF_8).lines().count();
            p.on(new RunEvent.Interval(new MergedInterval(i, START + i * S, START + (i + 1) * S,
                    new Counters(sent, sent, 0, sent * 100, sent, sent * 100, 0, 0), MergedInterval.noStats(), 1,
                    List.of())));
        }
        List<String> l = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(l.get(1).endsWith(" | 0 s left"), l.get(1));
        assertTrue(l.get(2).endsWith(" | still sending: the producers are behind their schedule"), l.get(2));
        assertTrue(l.get(3).endsWith(" | still sending: the producers are behind their schedule"), "11 of 1,000 msg/s "
                + "is more than 10 ms of the target: " + l.get(3));
        assertTrue(l.get(4).endsWith(" | draining"), "10 is 10 ms of it: the last sends at the boundary " + l.get(4));
        assertTrue(l.get(5).endsWith(" | draining"), l.get(5));
    }

    /**
     * A partition not served while the others are: its sends wait while younger ones are acknowledged, and no latency
     * figure holds them until they complete. The line says how long the oldest has waited once that is longer than the
     * interval and its slowest acknowledgement together; a queue that is merely slow is not marked.
     */
    @Test
    void shouldMarkAnIntervalThatLeftASendWaitingWhileYoungerOnesWereAcknowledged() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgressPrinter p = started(out, Workload.timed("t", 1, 1, 100, 1, 1, 1, 1000, 0, 10));
        double[] ages = {400, 1_100, 1_500, 57_012};
        for (int i = 0; i < ages.length; i++) {
            java.util.EnumMap<io.kbench.protocol.Metric, org.HdrHistogram.Histogram> hs =
                    new java.util.EnumMap<>(io.kbench.protocol.Metric.class);
            org.HdrHistogram.Histogram latency = io.kbench.protocol.LatencyHistograms.create();
            latency.recordValueWithCount(150_000, 900);
            hs.put(io.kbench.protocol.Metric.PUBLISH_LATENCY, latency);
            p.on(new RunEvent.Interval(new MergedInterval(i, START + i * S, START + (i + 1) * S,
                    new Counters(1000, 900, 0, 90_000, 900, 90_000, 0, 0), MergedInterval.statsOf(hs), 1, List.of(), 0,
                    new io.kbench.coordinator.merge.ClientSample(1, java.util.Map.of(
                            io.kbench.coordinator.capacity.TrialVerdict.UNACKED_AGE_METRIC, ages[i])),
                    io.kbench.coordinator.merge.ClientSample.NONE)));
        }
        List<String> l = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertFalse(l.get(0).contains("WAITING"), l.get(0));
        assertFalse(l.get(1).contains("WAITING"), "1.1 s: within the interval and its slowest acknowledgement " + l.get(1));
        assertTrue(l.get(2).contains(" | A SEND WAITING 1.5 s (younger ones acknowledged in at most 150.0 ms: a partition "
                + "not served?) | "), l.get(2));
        assertTrue(l.get(3).contains(" | A SEND WAITING 57.0 s ("), l.get(3));
    }

    @Test
    void shouldSayStoppedNotTimeLeftOnceTheRunFailed() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgressPrinter p = started(out, Workload.timed("t", 1, 1, 100, 1, 1, 1, 1000, 2, 10));
        p.on(new RunEvent.Interval(new MergedInterval(4, START + 4 * S, START + 5 * S, Counters.ZERO,
                MergedInterval.noStats(), 1, List.of())));
        p.on(new RunEvent.Info("run failed: interrupted (SIGINT/SIGTERM); stopping all workers"));
        p.on(new RunEvent.Interval(new MergedInterval(5, START + 5 * S, START + 5 * S + 300_000, Counters.ZERO,
                MergedInterval.noStats(), 1, List.of())));
        List<String> l = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(l.get(0).endsWith(" | 7 s left"), l.get(0));
        assertTrue(l.get(2).endsWith(" | stopped"), l.get(2));
    }

    @Test
    void shouldShowALatencyWithoutSamplesAsADashNotAsZero() {
        String l = lines(Workload.timed("t", 1, 1, 100, 1, 1, 1, 1000, 2, 10), 3).get(0);
        assertTrue(l.contains(" lat p50 - p99 - resp p99 - ms ") && l.contains(" e2e p50 - p99 - ms"), l);
    }

    @Test
    void shouldCountARecordRunAtItsRateAndSayNothingWhenUnthrottledOrWithoutProducers() {
        Workload records = Workload.of("t", java.util.Map.of("producerRate", 1000, "numRecords", 5000));
        assertTrue(lines(records, 1).get(0).endsWith(" | 4 s left"), "5,000 records at 1,000 msg/s");
        assertFalse(lines(records.withProducerRate(Workload.UNTHROTTLED), 1).get(0).contains("left"));
        Workload readers = Workload.of("t", java.util.Map.of("producersPerTopic", 0, "topicNames", List.of("t"),
                "existingTopics", true, "numRecords", 5000));
        assertFalse(lines(readers, 1).get(0).contains("left"), "no producers: no plan to count down");
    }

    @Test
    void shouldSayWhatTheGroupsHaveNotReadExactlyWhereTheCountsTellIt() {
        // 3,000 acknowledged a second, two groups reading 1,000 each: 2,000 more unread each second, while the
        // consumers' own lag (as of their last fetch) reads 10
        Workload two = Workload.of("t", java.util.Map.of("subscriptionsPerTopic", 2, "durationSeconds", 10));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(out, true, StandardCharsets.UTF_8));
        p.on(new RunEvent.Begin("r", two));
        p.on(new RunEvent.Started(START, START));
        for (int k = 0; k < 2; k++) {
            p.on(new RunEvent.Interval(new MergedInterval(k, START + k * S, START + (k + 1) * S,
                    new Counters(3_000, 3_000, 0, 0, 2_000, 0, 0, 0), MergedInterval.noStats(), 1, List.of(), 10,
                    io.kbench.coordinator.merge.ClientSample.NONE, io.kbench.coordinator.merge.ClientSample.NONE)));
        }
        List<String> l = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(l.get(0).contains(" unread 2,000 |") && !l.get(0).contains(" lag "), l.get(0));
        assertTrue(l.get(1).contains(" unread 4,000 |"), l.get(1));
        // a new run starts from nothing; a run on existing topics shows the consumers' lag
        p.on(new RunEvent.Begin("r2", two));
        p.on(new RunEvent.Interval(new MergedInterval(0, START, START + S, new Counters(1_000, 1_000, 0, 0, 2_000, 0, 0,
                0), MergedInterval.noStats(), 1, List.of(), 10, io.kbench.coordinator.merge.ClientSample.NONE,
                io.kbench.coordinator.merge.ClientSample.NONE)));
        assertFalse(out.toString(StandardCharsets.UTF_8).lines().toList().get(2).contains("unread"), "all read");
        Workload existing = Workload.of("t", java.util.Map.of("topicNames", List.of("t"), "existingTopics", true,
                "durationSeconds", 10));
        p.on(new RunEvent.Begin("r3", existing));
        p.on(new RunEvent.Interval(new MergedInterval(0, START, START + S, new Counters(1_000, 1_000, 0, 0, 0, 0, 0, 0),
                MergedInterval.noStats(), 1, List.of(), 10, io.kbench.coordinator.merge.ClientSample.NONE,
                io.kbench.coordinator.merge.ClientSample.NONE)));
        assertTrue(out.toString(StandardCharsets.UTF_8).lines().toList().get(3).contains(" lag 10 |"),
                out.toString(StandardCharsets.UTF_8));
    }

    private static List<String> summary(long received, int subscriptionsPerTopic) {
        java.util.EnumMap<io.kbench.protocol.Metric, org.HdrHistogram.Histogram> h =
                new java.util.EnumMap<>(io.kbench.protocol.Metric.class);
        for (io.kbench.protocol.Metric m : io.kbench.protocol.Metric.values()) {
            h.put(m, io.kbench.protocol.LatencyHistograms.create());
        }
        // 125,000 sent over a 25-s run, 100,000 of them in its 20-s window: the rate is the window's
        io.kbench.coordinator.merge.Summary s = new io.kbench.coordinator.merge.Summary(125_000, 125_000, 0, received,
                0, 0, 20, 100_000, received * 4 / 5, received * 80, 5000, 0.48, received * 4 / 5 / 20.0, 0.38, h, null, 0, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(out, true, StandardCharsets.UTF_8));
        p.on(new RunEvent.Summarized("kbench t r: COMPLETED", s, subscriptionsPerTopic));
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void shouldSayTheRatesAreTheWindowsAndTheCountsTheWholeRuns() {
        List<String> l = summary(125_000, 1);
        assertEquals("  publish : 5,000.0 msg/s, 0.48 MB/s acked over the 20.0-s measured window; whole run: 125,000 sent, "
                + "125,000 acked, 0 failed", l.get(2));
        assertEquals("  consume : 5,000.0 msg/s, 0.38 MB/s over the window; whole run: 125,000 received "
                + "(1 subscription(s) per topic)", l.get(3));
        assertTrue(l.stream().anyMatch(x -> x.startsWith("  end-to-end ")), String.join("\n", l));
    }

    /**
     * 50 topics at 5,000 msg/s on the embedded default, a 10-s window: 50,676 acknowledged in it for 50,000 sent in it
     * (5,067.6 msg/s against the target) — acknowledgements of the warm-up's last sends counted in it, its own last
     * ones after it. The line says what was sent in the window when the two differ by more than 0.5%.
     */
    @Test
    void shouldSayWhatTheWindowSentWhenItsAcknowledgementsDifferByMoreThanAHalfPercent() {
        java.util.function.LongFunction<io.kbench.coordinator.merge.Summary> with = acked -> {
            io.kbench.protocol.Counters window = new io.kbench.protocol.Counters(50_000, acked, 0, acked * 512, 0, 0, 0, 0);
            return new io.kbench.coordinator.merge.Summary(65_000, 65_000, 0, 0, 0, 0, 10, acked, 0, 0, acked / 10.0,
                    2.47, 0, 0, new java.util.EnumMap<>(io.kbench.protocol.Metric.class), null, 0, 0,
                    io.kbench.protocol.Counters.ZERO, window);
        };
        assertEquals(" (50,000 sent in it: acknowledgements of messages sent before it count in it, of its last ones "
                + "after it)", ProgressPrinter.sentInWindow(with.apply(50_676)));
        assertEquals(" (50,000 sent in it: its last messages were acknowledged after it)",
                ProgressPrinter.sentInWindow(with.apply(49_000)));
        assertEquals("", ProgressPrinter.sentInWindow(with.apply(50_250)), "within 0.5%");
        assertEquals("", ProgressPrinter.sentInWindow(with.apply(49_750)), "within 0.5%");
        assertEquals("", ProgressPrinter.sentInWindow(summaryOf(0)), "no window counters (a result read back)");
        // the cluster stopped answering before the window's end: its last sends were never acknowledged
        io.kbench.protocol.Counters window = new io.kbench.protocol.Counters(88_600, 88_070, 0, 88_070 * 1024, 0, 0, 0, 0);
        assertEquals(" (88,600 sent in it: its last messages were acknowledged after it, or never: 533 of the run's "
                + "sends were not acknowledged, 533 of them failed)", ProgressPrinter.sentInWindow(
                        new io.kbench.coordinator.merge.Summary(113_603, 113_070, 533, 0, 0, 0, 40, 88_070, 0, 0, 2_201.75,
                                2.15, 0, 0, new java.util.EnumMap<>(io.kbench.protocol.Metric.class), null, 0, 0,
                                io.kbench.protocol.Counters.ZERO, window)));
    }

    private static io.kbench.coordinator.merge.Summary summaryOf(long acked) {
        return new io.kbench.coordinator.merge.Summary(0, 0, 0, 0, 0, 0, 10, acked, 0, 0, 0, 0, 0, 0,
                new java.util.EnumMap<>(io.kbench.protocol.Metric.class), null, 0, 0);
    }

    @Test
    void shouldLeaveOutTheClassicConsumersLinesOfARunWithout() {
        List<String> l = summary(0, 0); // producers only, or share groups only
        assertTrue(l.get(2).startsWith("  publish : "), l.get(2));
        assertFalse(l.stream().anyMatch(x -> x.startsWith("  consume :") || x.startsWith("  end-to-end ")),
                String.join("\n", l));
        assertTrue(summary(0, 1).stream().anyMatch(x -> x.startsWith("  consume :")),
                "a subscription that received nothing still says so");
    }

    @Test
    void shouldPrintNoPublishLinesOfZerosForAConsumerOnlyRunAndADashForAMetricWithoutSamples() {
        java.util.EnumMap<io.kbench.protocol.Metric, org.HdrHistogram.Histogram> h =
                new java.util.EnumMap<>(io.kbench.protocol.Metric.class);
        for (io.kbench.protocol.Metric m : io.kbench.protocol.Metric.values()) {
            h.put(m, io.kbench.protocol.LatencyHistograms.create());
        }
        h.get(io.kbench.protocol.Metric.END_TO_END).recordValue(6_000_000);
        // a catch-up read of an existing topic: 1,000,000 received in a 1.5-s window, nothing sent
        io.kbench.coordinator.merge.Summary s = new io.kbench.coordinator.merge.Summary(0, 0, 0, 1_000_000, 0, 0, 1.5, 0,
                1_000_000, 100_000_000, 0, 0, 674_238.8, 64.3, h, null, 0, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(out, true, StandardCharsets.UTF_8));
        p.on(new RunEvent.Begin("r", io.kbench.coordinator.workload.Workload.of("c", java.util.Map.of(
                "producersPerTopic", 0, "subscriptionsPerTopic", 1, "numRecords", 1_000_000, "existingTopics", true,
                "topicNames", List.of("t")))));
        p.on(new RunEvent.Summarized("kbench c r: COMPLETED", s, 1));
        List<String> l = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(l.contains("  publish : none (no producers); the 1.5-s measured window is the consumers'"),
                String.join("\n", l));
        assertFalse(l.stream().anyMatch(x -> x.startsWith("  publish latency") || x.startsWith("  publish delay")),
                String.join("\n", l));
        assertTrue(l.stream().anyMatch(x -> x.startsWith("  end-to-end ") && x.contains("6000")), String.join("\n", l));
        // a run with producers whose delay had no samples (unthrottled: no schedule): dashes, not a delay of 0.00 ms
        List<String> unthrottled = summary(125_000, 1);
        String delay = unthrottled.stream().filter(x -> x.startsWith("  publish delay")).findFirst().orElseThrow();
        assertTrue(delay.matches("  publish delay +0( +-){8}"), delay);
    }
}
