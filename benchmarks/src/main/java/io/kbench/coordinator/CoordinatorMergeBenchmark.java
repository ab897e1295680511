package io.kbench.coordinator;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.kbench.coordinator.merge.IntervalMerger;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.SummaryHistograms;
import io.kbench.protocol.ClientMetricsSample;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.SnapshotMessages;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The coordinator's work for one reporting interval of a large run: {@code workers} simulated workers each
 * send a snapshot with 5 histograms (as the wire carries them: a protobuf message with HdrHistogram's
 * compressed encodings), and the coordinator parses each, decodes its histograms, adds them into the
 * interval's and hands out the merged interval, whose histograms are then added into the run's summary —
 * exactly {@code kbench run}'s path from the gRPC stream to the console line
 * ({@link SnapshotMessages#fromProto}, {@link IntervalMerger#add}); the second benchmark also appends every
 * snapshot to its worker's histogram logs, as a run does.
 *
 * <p>One operation = one interval of every worker. With 1-second intervals the coordinator's share of one
 * core is (time per operation) / 1 s: 1,000 workers must merge in under 250 ms for the 25% target. The
 * merger is the same instance across operations (a run that goes on), so a leak shows as a growing
 * {@code gc.alloc.rate.norm} or heap — run with {@code -prof gc}.
 *
 * <p>Each worker's histograms hold a realistic spread: 2,000 samples per metric per interval, log-normal
 * around 5 ms with a tail to seconds, so the encodings are of the size real ones are (a few hundred bytes
 * to a few KB each).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 4)
public class CoordinatorMergeBenchmark {
    @Param({"1000"})
    int workers;

    /** Distinct encoded snapshots reused round-robin (workers' figures differ; generating 1,000 is slow). */
    private static final int VARIANTS = 50;

    private List<String> ids;
    private byte[][] wire;
    private IntervalMerger merger;
    private long interval;

    @Setup(Level.Trial)
    public void setUp() {
        ids = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            ids.add("worker-" + w);
        }
        Random random = new Random(7);
        wire = new byte[VARIANTS][];
        long totalBytes = 0;
        // the client metrics a worker's producers send along (kbench's selection of the client's own)
        java.util.Map<String, Double> values = new java.util.TreeMap<>();
        for (String k : List.of("batch-size-avg", "batch-size-max", "bufferpool-wait-ratio", "compression-rate-avg",
                "record-queue-time-avg", "record-queue-time-max", "request-latency-avg", "request-latency-max",
                "records-per-request-avg", "produce-throttle-time-avg")) {
            values.put(k, random.nextDouble() * 1000);
        }
        ClientMetricsSample producerMetrics = new ClientMetricsSample(2, values);
        for (int v = 0; v < VARIANTS; v++) {
            EnumMap<Metric, byte[]> hs = new EnumMap<>(Metric.class);
            for (Metric m : Metric.values()) {
                Histogram h = LatencyHistograms.create();
                for (int i = 0; i < 2_000; i++) {
                    h.recordValue(Math.min(h.getHighestTrackableValue(), (long) (5_000 * Math.exp(random.nextGaussian()))));
                }
                h.recordValue(1_000_000 + random.nextInt(2_000_000));
                hs.put(m, LatencyHistograms.encode(h));
            }
            IntervalSnapshot s = new IntervalSnapshot("placeholder", 0, 0, 1_000_000,
                    new Counters(50_000, 50_000, 0, 5_000_000, 50_000, 5_000_000, 0, 0), hs, false, 0, 0, false,
                    "", 1_000, producerMetrics, ClientMetricsSample.NONE);
            wire[v] = SnapshotMessages.toProto(s).toByteArray();
            totalBytes += wire[v].length;
        }
        System.out.printf("%n%d workers; a snapshot is %,d bytes on the wire on average%n", workers, totalBytes / VARIANTS);
        merger = new IntervalMerger(ids, SummaryHistograms.from(0));
        interval = 0;
    }

    private java.nio.file.Path logDir;
    private io.kbench.coordinator.report.files.HistogramLogs logs;

    /** Fresh histogram logs per iteration, removed after it (1,000 workers write ~7 MB a second). */
    @Setup(Level.Iteration)
    public void openLogs() throws java.io.IOException {
        logDir = java.nio.file.Files.createTempDirectory("kbench-jmh-hlog");
        logs = new io.kbench.coordinator.report.files.HistogramLogs(logDir, 0, false);
    }

    /** Whether the merger hands merged intervals to the logs (set by the benchmark method that runs). */
    private boolean logging;

    @org.openjdk.jmh.annotations.TearDown(Level.Iteration)
    public void closeLogs() throws java.io.IOException {
        logs.close();
        try (var files = java.nio.file.Files.list(logDir)) {
            for (java.nio.file.Path f : files.toList()) {
                java.nio.file.Files.delete(f);
            }
        }
        java.nio.file.Files.delete(logDir);
        // memory must stay flat however many intervals have been merged: the heap left after a full GC
        System.gc();
        Runtime rt = Runtime.getRuntime();
        System.out.printf(" [%,d intervals merged; heap after GC %.1f MB]", interval,
                (rt.totalMemory() - rt.freeMemory()) / 1048576.0);
    }

    /** The merger alone. */
    @Benchmark
    public List<MergedInterval> mergeOneIntervalOfEveryWorker() throws Exception {
        return oneInterval(false);
    }

    /** What kbench run does per snapshot: merge, and append to the metric's histogram logs (tagged with the worker). */
    @Benchmark
    public List<MergedInterval> mergeAndLogOneIntervalOfEveryWorker() throws Exception {
        return oneInterval(true);
    }

    private List<MergedInterval> oneInterval(boolean log) throws Exception {
        if (log != logging) { // as LiveRun does: each merged interval's cluster-wide histograms go to the logs too
            logging = log;
            merger.onMerged(log ? (m, h) -> logs.addMerged(m.startMicros(), m.endMicros(), h) : null);
        }
        long seq = interval++;
        long start = seq * 1_000_000;
        List<MergedInterval> out = null;
        for (int w = 0; w < workers; w++) {
            Snapshot proto = Snapshot.parseFrom(wire[w % VARIANTS]);
            IntervalSnapshot s = SnapshotMessages.fromProto(proto);
            IntervalSnapshot mine = new IntervalSnapshot(ids.get(w), seq, start, start + 1_000_000, s.counters(),
                    s.histograms(), false, 0, 0, false, "", s.consumerLag(), s.producerMetrics(), s.consumerMetrics());
            long[] maxima = new long[Metric.values().length];
            List<MergedInterval> done = merger.add(mine, maxima);
            if (log) {
                logs.add(mine, maxima);
            }
            if (!done.isEmpty()) {
                out = done;
            }
        }
        if (out == null || out.size() != 1) {
            throw new IllegalStateException("interval " + seq + " was not merged once");
        }
        return out;
    }
}
