package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class IntervalMergerTest {
    private static final double[] PERCENTILES = {0, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100};

    @Test
    void shouldKeepErrorsBoundedWhen1000WorkersSend2KbErrorsEverySecond() {
        int workers = 1_000;
        int intervals = 600;
        List<String> ids = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            ids.add("w" + w);
        }
        IntervalMerger merger = new IntervalMerger(ids);
        byte[] none = new byte[0];
        String common = "Expiring 12 record(s) for t-0: 120001 ms has passed since batch creation " + "x".repeat(2_000);
        List<MergedInterval> kept = new ArrayList<>(); // as the run keeps every interval's figures
        for (int i = 0; i < intervals; i++) {
            for (int w = 0; w < workers; w++) {
                // most workers report the same error; every tenth its own (a text of 2 KB that differs)
                String error = w % 10 == 0 ? "worker-specific failure " + w + " " + "y".repeat(2_000) : common;
                kept.addAll(merger.add(new IntervalSnapshot("w" + w, i, i * 1_000_000L, (i + 1) * 1_000_000L,
                        new Counters(1, 1, 0, 100, 0, 0, 0, 0), none, none, none, none, none, true, 0, 0,
                        i == intervals - 1, error)));
            }
        }
        assertEquals(intervals, kept.size());
        long chars = 0;
        for (MergedInterval m : kept) {
            assertTrue(m.errors().size() <= IntervalErrors.MAX_DISTINCT + 1, m.errors().toString());
            for (String e : m.errors()) {
                chars += e.length();
            }
        }
        List<String> first = kept.get(0).errors();
        assertEquals("w0: worker-specific failure 0 ", first.get(0).substring(0, 30));
        assertTrue(first.get(1).startsWith("w1 and 899 more worker(s): Expiring 12 record(s) for t-0"), first.get(1));
        assertTrue(first.get(1).endsWith("... (cut at 300 of " + common.length() + " characters)"), first.get(1));
        assertEquals("98 more worker(s) reported other errors (1000 in all)", first.get(3));
        // 1,000 x 2 KB a second would be 1.2 GB over 600 intervals; kept: a few lines of at most ~350 characters
        assertTrue(chars < (long) intervals * 4 * 400, chars + " characters of errors kept");
    }

    @RepeatedTest(5)
    void shouldGiveTheSamePercentilesAsOneHistogramOverAllValues() {
        Random random = new Random();
        int workers = 1 + random.nextInt(5);
        int intervals = 1 + random.nextInt(6);
        List<String> ids = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            ids.add("w" + w);
        }
        IntervalMerger merger = new IntervalMerger(ids);
        Histogram truth = LatencyHistograms.create();
        List<Histogram> truthPerInterval = new ArrayList<>();
        List<MergedInterval> emitted = new ArrayList<>();
        for (int i = 0; i < intervals; i++) {
            Histogram intervalTruth = LatencyHistograms.create();
            for (int w = 0; w < workers; w++) {
                Histogram h = LatencyHistograms.create();
                int n = random.nextInt(5_000);
                for (int k = 0; k < n; k++) {
                    // log-uniform over 1 µs .. 100 s, plus occasional values beyond the range, clamped
                    long v = (long) Math.exp(random.nextDouble() * Math.log(1e8));
                    h.recordValue(LatencyHistograms.clamp(v));
                    truth.recordValue(LatencyHistograms.clamp(v));
                    intervalTruth.recordValue(LatencyHistograms.clamp(v));
                }
                emitted.addAll(merger.add(snapshot("w" + w, i, h, n, i == intervals - 1)));
            }
            truthPerInterval.add(intervalTruth);
        }
        assertEquals(intervals, emitted.size());
        for (int i = 0; i < intervals; i++) {
            MergedInterval m = emitted.get(i);
            assertEquals(i, m.index());
            assertEquals(LatencyStats.of(truthPerInterval.get(i)), m.stats(Metric.PUBLISH_LATENCY));
        }
        Summary s = Summary.of(emitted, 0, Long.MAX_VALUE, 10_000, merger.summaryHistograms());
        assertSamePercentiles(truth, s.histograms().get(Metric.PUBLISH_LATENCY));
        assertEquals(truth.getTotalCount(), s.acked());
        assertTrue(merger.issues().isEmpty(), merger.issues().toString());
    }

    private static void assertSamePercentiles(Histogram want, Histogram got) {
        assertEquals(want.getTotalCount(), got.getTotalCount());
        for (double p : PERCENTILES) {
            assertEquals(want.getValueAtPercentile(p), got.getValueAtPercentile(p), "p" + p);
        }
        assertEquals(want.getMaxValue(), got.getMaxValue());
    }

    @Test
    void shouldReportMissingAndRepeatedSequenceNumbers() {
        IntervalMerger merger = new IntervalMerger(List.of("a", "b"));
        Histogram empty = LatencyHistograms.create();
        merger.add(snapshot("a", 0, empty, 1, false));
        merger.add(snapshot("b", 0, empty, 1, false));
        merger.add(snapshot("a", 0, empty, 1, false));   // repeat
        merger.add(snapshot("a", 3, empty, 1, true));    // 1 and 2 missing
        merger.add(snapshot("b", 1, empty, 1, true));
        List<String> issues = merger.issues();
        assertTrue(issues.contains("worker a: snapshot 0 repeated (ignored)"), issues.toString());
        assertTrue(issues.contains("worker a: snapshots 1 to 2 missing"), issues.toString());
        merger.finish();
        assertEquals(4, merger.totals().acked(), "the repeat must not be counted twice");
        assertTrue(merger.issues().stream().anyMatch(i -> i.startsWith("interval 1: no snapshot from a")),
                merger.issues().toString());
    }

    @Test
    void shouldWaitForEveryWorkerBeforeEmittingAnInterval() {
        IntervalMerger merger = new IntervalMerger(List.of("a", "b"));
        Histogram h = LatencyHistograms.create();
        assertTrue(merger.add(snapshot("a", 0, h, 1, false)).isEmpty());
        assertTrue(merger.add(snapshot("a", 1, h, 1, false)).isEmpty());
        assertEquals(1, merger.add(snapshot("b", 0, h, 1, false)).size());
        // b ends at 0..1; a's later interval completes as soon as b's last snapshot closed its stream
        assertEquals(1, merger.add(snapshot("b", 1, h, 1, true)).size());
        assertEquals(1, merger.add(snapshot("a", 2, h, 1, true)).size());
        assertTrue(merger.issues().isEmpty(), merger.issues().toString());
    }

    @Test
    void shouldStopWaitingForALostWorkerAndSayWhichIntervalsLackIt() {
        IntervalMerger merger = new IntervalMerger(List.of("a", "b"));
        Histogram h = LatencyHistograms.create();
        h.recordValue(100);
        merger.add(snapshot("a", 0, h, 5, false));
        merger.add(snapshot("b", 0, h, 7, false));
        merger.add(snapshot("a", 1, h, 5, false));
        assertTrue(merger.add(snapshot("a", 2, h, 5, false)).isEmpty(), "waits for b");
        List<MergedInterval> released = merger.workerLost("b");
        assertEquals(List.of(1L, 2L), released.stream().map(MergedInterval::index).toList());
        assertEquals(1, released.get(0).workers(), "only a reported interval 1");
        assertEquals(5, released.get(0).counters().acked());
        assertEquals(1, merger.add(snapshot("a", 3, h, 5, true)).size(), "a alone completes the next ones");
        assertEquals(1, merger.received("b"));
        assertEquals(List.of("worker b: lost after interval 0; later intervals lack its figures"), merger.issues());
        assertTrue(merger.finish().isEmpty());
        assertEquals(List.of("worker b: lost after interval 0; later intervals lack its figures"), merger.issues(),
                "a lost worker is not reported again as ending without its last snapshot");
        assertEquals(4 * 5 + 7, merger.totals().acked());
    }

    @Test
    void shouldKeepEachWorkersLatestShareSpreadAndCombineThem() {
        IntervalMerger m = new IntervalMerger(List.of("a", "b"));
        assertEquals(io.kbench.protocol.ShareSpread.NONE, m.shareSpread(), "no share consumers yet");
        Histogram none = LatencyHistograms.create();
        m.add(snapshot("a", 0, none, 0, false).withShareSpread(new io.kbench.protocol.ShareSpread(2, 10, 30)));
        m.add(snapshot("b", 0, none, 0, false).withShareSpread(new io.kbench.protocol.ShareSpread(1, 5, 5)));
        assertEquals(new io.kbench.protocol.ShareSpread(3, 5, 30), m.shareSpread());
        // running totals: a worker's later report replaces its earlier one
        m.add(snapshot("a", 1, none, 0, false).withShareSpread(new io.kbench.protocol.ShareSpread(2, 40, 60)));
        assertEquals(new io.kbench.protocol.ShareSpread(3, 5, 60), m.shareSpread());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> m.add(
                snapshot("x-unknown", 0, none, 0, false).withShareSpread(new io.kbench.protocol.ShareSpread(9, 0, 1))));
        assertEquals(new io.kbench.protocol.ShareSpread(3, 5, 60), m.shareSpread(), "an unknown worker counts for nothing");
    }

    @Test
    void shouldAddTheShareBacklogOfTheWorkersThatReadItAndKnowNoneWhenNoneDid() {
        IntervalMerger m = new IntervalMerger(List.of("a", "b"));
        Histogram none = LatencyHistograms.create();
        // interval 0: only a reads it; interval 1: a's read failed (-1); interval 2: nobody reads it
        m.add(snapshot("a", 0, none, 0, false).withShareBacklog(1_200));
        List<MergedInterval> first = m.add(snapshot("b", 0, none, 0, false));
        assertEquals(1_200, first.get(0).shareBacklog());
        assertEquals(1_200, first.get(0).unread(), "no classic lag known: the backlog alone");
        m.add(snapshot("a", 1, none, 0, false).withShareBacklog(-1));
        assertEquals(-1, m.add(snapshot("b", 1, none, 0, false)).get(0).shareBacklog(), "not known, not 0");
        m.add(snapshot("a", 2, none, 0, false).withShareBacklog(0));
        List<MergedInterval> third = m.add(snapshot("b", 2, none, 0, false).withShareBacklog(5));
        assertEquals(5, third.get(0).shareBacklog(), "two readers (not what the coordinator plans): their sum");
    }

    static IntervalSnapshot snapshot(String worker, long seq, Histogram latency, long acked, boolean last) {
        byte[] e = LatencyHistograms.encode(latency);
        byte[] empty = LatencyHistograms.encode(LatencyHistograms.create());
        return new IntervalSnapshot(worker, seq, seq * 1_000_000, (seq + 1) * 1_000_000,
                new Counters(acked, acked, 0, acked * 100, 0, 0, 0, 0), e, empty, empty, empty, empty, true, 0, 0, last, "");
    }
}
