package io.kbench.coordinator.report.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistogramLogsTest {
    @TempDir
    Path dir;

    private static IntervalSnapshot snapshot(String worker, long seq, long... latencies) {
        Histogram h = LatencyHistograms.create();
        for (long v : latencies) {
            h.recordValue(v);
        }
        byte[] empty = LatencyHistograms.encode(LatencyHistograms.create());
        long start = 1_000_000_000L + seq * 1_000_000;
        return new IntervalSnapshot(worker, seq, start, start + 1_000_000, Counters.ZERO, LatencyHistograms.encode(h),
                empty, empty, empty, empty, false, 0, 0, false, "");
    }

    @Test
    void shouldWriteOneLogPerMetricWithEachWorkerTaggedAndTheClusterUntagged() throws IOException {
        IntervalSnapshot[] snapshots = {snapshot("w:1", 0, 100, 200, 300), snapshot("w 2", 0, 7),
            snapshot("w:1", 1, 5_000), snapshot("w 2", 1)};
        io.kbench.coordinator.merge.IntervalMerger merger = new io.kbench.coordinator.merge.IntervalMerger(List.of("w:1", "w 2"));
        try (HistogramLogs logs = new HistogramLogs(dir, 1_000_000_000L, false)) {
            merger.onMerged((m, h) -> logs.addMerged(m.startMicros(), m.endMicros(), h));
            for (IntervalSnapshot s : snapshots) {
                long[] maxima = new long[Metric.values().length];
                merger.add(s, maxima);
                logs.add(s, maxima);
            }
        }
        Path file = dir.resolve(HistogramLogs.fileName(Metric.PUBLISH_LATENCY));
        assertEquals("publishLatencyMicros.hlog", file.getFileName().toString());
        // HistogramLogReader as HistogramLogProcessor uses it: untagged lines by default, one worker's by its tag
        List<Histogram> cluster = read(file, null);
        assertEquals(2, cluster.size(), "one cluster-wide histogram per interval");
        assertEquals(4, cluster.get(0).getTotalCount(), "interval 0: both workers' values added");
        assertEquals(1, cluster.get(1).getTotalCount());
        assertNull(cluster.get(0).getTag());
        assertEquals(1_000_000_000L / 1000 + 1000, cluster.get(1).getStartTimeStamp(), "absolute start of interval 1, ms");
        List<Histogram> w1 = read(file, "w:1");
        assertEquals(List.of(3L, 1L), w1.stream().map(Histogram::getTotalCount).toList());
        assertTrue(w1.get(0).valuesAreEquivalent(300, w1.get(0).getMaxValue()));
        assertEquals(List.of(1L, 0L), read(file, "w_2").stream().map(Histogram::getTotalCount).toList(),
                "a tag holds no white space: 'w 2' is tagged w_2");
        assertFalse(Files.exists(dir.resolve(HistogramLogs.fileName(Metric.TRANSACTION_COMMIT))));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(4, files.count(), "one file per metric, whatever the number of workers");
        }
    }

    private static List<Histogram> read(Path file, String tag) throws IOException {
        HistogramLogReader reader = new HistogramLogReader(file.toFile());
        List<Histogram> out = new java.util.ArrayList<>();
        org.HdrHistogram.EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            if (java.util.Objects.equals(tag, h.getTag())) {
                out.add((Histogram) h);
            }
        }
        return out;
    }

    @Test
    void shouldRecordALogThatCannotBeWrittenAndNotThrowIntoTheSnapshotPath() throws IOException {
        // a directory where a log file goes: opening it fails, as a full disk or a file in the way would
        Files.createDirectories(dir.resolve(HistogramLogs.fileName(Metric.PUBLISH_RESPONSE)));
        Written written = new Written();
        try (HistogramLogs logs = new HistogramLogs(dir, 1_000_000_000L, false, written)) {
            logs.add(snapshot("w1", 0, 100));
            logs.add(snapshot("w2", 0, 100));
            logs.add(snapshot("w1", 1, 100)); // after a failure the logs stop; nothing throws
        }
        assertFalse(written.complete());
        String problem = written.problem();
        org.junit.jupiter.api.Assertions.assertTrue(problem.startsWith("not written: histogram logs (.hlog) in " + dir
                + ", cut short ("), problem);
        org.junit.jupiter.api.Assertions.assertTrue(problem.endsWith("; written: nothing"), problem);
    }

    @Test
    void shouldWriteTheLinesHistogramLogWriterWritesWithTheMaximaTheMergerRead() throws IOException {
        IntervalSnapshot[] snapshots = {snapshot("w", 0, 100, 200, 300), snapshot("w", 1, 5_000, 3_599_999_999L),
            snapshot("w", 2)};
        io.kbench.coordinator.merge.IntervalMerger merger = new io.kbench.coordinator.merge.IntervalMerger(List.of("w"));
        java.io.ByteArrayOutputStream reference = new java.io.ByteArrayOutputStream();
        org.HdrHistogram.HistogramLogWriter writer = new org.HdrHistogram.HistogramLogWriter(
                new java.io.PrintStream(reference, true, java.nio.charset.StandardCharsets.US_ASCII));
        try (HistogramLogs logs = new HistogramLogs(dir, 1_000_000_000L, false)) {
            for (IntervalSnapshot s : snapshots) {
                long[] maxima = new long[Metric.values().length];
                merger.add(s, maxima);
                logs.add(s, maxima);
                writer.outputIntervalHistogram((s.startMicros() - 1_000_000_000L) / 1e6,
                        (s.endMicros() - 1_000_000_000L) / 1e6, LatencyHistograms.decode(s.histogram(Metric.PUBLISH_LATENCY)),
                        1.0);
            }
        }
        List<String> ours = Files.readAllLines(dir.resolve(HistogramLogs.fileName(Metric.PUBLISH_LATENCY))).stream()
                .filter(l -> l.startsWith("Tag=w,")).map(l -> l.substring("Tag=w,".length())).toList();
        List<String> theirs = reference.toString(java.nio.charset.StandardCharsets.US_ASCII).lines().toList();
        assertEquals(3, ours.size(), ours.toString());
        for (int i = 0; i < 3; i++) {
            String[] a = ours.get(i).split(",");
            String[] b = theirs.get(i).split(",");
            assertEquals(List.of(b[0], b[1], b[2]), List.of(a[0], a[1], a[2]), "line " + i);
            // the bytes differ (the library compresses harder), the histogram does not
            assertEquals(LatencyHistograms.decode(java.util.Base64.getDecoder().decode(b[3])),
                    LatencyHistograms.decode(java.util.Base64.getDecoder().decode(a[3])));
        }
    }
}
