package io.kbench.coordinator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.merge.ClientSample;
import io.kbench.coordinator.merge.IntervalSpool;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.files.HtmlReport;
import io.kbench.coordinator.report.files.IntervalsCsv;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;

/**
 * A week-long run's intervals through the coordinator's result path in a small heap: 604,800 merged intervals
 * (7 days of 1-s intervals, with producer and consumer client metrics) spooled as the run would spool them, then
 * the summary, result.json, intervals.csv and report.html made from the spool, as {@code kbench run} makes them.
 * It prints the heap in use after a full GC after each step and the files' sizes; run it with a small heap to
 * show the path does not keep the intervals:
 *
 * <pre>
 * java -Xmx256m -cp benchmarks/target/benchmarks.jar io.kbench.coordinator.LongRunResultPath [INTERVALS] [DIR]
 * </pre>
 *
 * DIR (default: a new temporary directory, removed afterwards) needs about 3 KB a interval of free space.
 */
public final class LongRunResultPath {
    private LongRunResultPath() { }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 604_800;
        Path dir = args.length > 1 ? Files.createDirectories(Path.of(args[1])) : Files.createTempDirectory("kbench-long-run");
        boolean remove = args.length <= 1;
        long t0 = System.nanoTime();
        Map<Metric, LatencyStats> stats = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            stats.put(m, new LatencyStats(5_000, 4_100.5, 3_900, 4_800, 7_200, 12_000, 31_000, 52_000, 55_000));
        }
        Map<String, Double> producer = new java.util.TreeMap<>();
        Map<String, Double> consumer = new java.util.TreeMap<>();
        for (int k = 0; k < 12; k++) {
            producer.put("producer-metric-" + k, k * 1.5);
            consumer.put("consumer-metric-" + k, k * 2.5);
        }
        IntervalSpool spool = new IntervalSpool(dir.resolve(".intervals.spool"));
        for (int i = 0; i < n; i++) {
            spool.append(new MergedInterval(i, i * 1_000_000L, (i + 1) * 1_000_000L,
                    new Counters(5_000, 5_000, 0, 5_120_000, 5_000, 5_120_000, 0, 0), stats, 3, List.of(), 120,
                    new ClientSample(6, producer), new ClientSample(6, consumer)));
        }
        spool.close();
        step("spooled " + String.format("%,d", n) + " intervals", t0, dir);
        List<MergedInterval> intervals = spool.list();
        EnumMap<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            histograms.put(m, LatencyHistograms.create());
        }
        Summary summary = Summary.of(intervals, 0, n * 1_000_000L, 10_000, histograms);
        step("summary: " + String.format("%,.1f msg/s over %,.0f s", summary.publishRate(), summary.measuredSeconds()), t0, dir);
        Path w = Files.writeString(dir.resolve("week.yaml"), "name: week\nproducerRate: 5000\ndurationSeconds: " + n + "\n");
        ResultFile.Run run = ResultDocument.build("week-run", "COMPLETED", null, Instant.EPOCH, Workload.load(w),
                Profile.defaults(), List.of(), List.of("t"), 0, 0, n * 1_000_000L, intervals, summary, null, 0, List.of(),
                List.of(), new FaultTimeline(), null, io.kbench.protocol.ShareSpread.NONE);
        ResultDocument.write(dir, run);
        step("result.json", t0, dir);
        IntervalsCsv.write(dir, run);
        step("intervals.csv", t0, dir);
        HtmlReport.write(dir.resolve("report.html"), "week", List.of(new HtmlReport.Named("week", run)));
        step("report.html", t0, dir);
        if (remove) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private static void step(String what, long t0, Path dir) throws Exception {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long size = 0;
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                size += Files.size(f);
            }
        }
        System.out.printf("%-40s at %6.1f s: heap after GC %6.1f MB (max %,d MB); files %,d MB%n", what,
                (System.nanoTime() - t0) / 1e9, (rt.totalMemory() - rt.freeMemory()) / 1048576.0, rt.maxMemory() >> 20,
                size >> 20);
    }
}
