package io.kbench.worker;

import java.util.concurrent.TimeUnit;

import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A worker's latency recorders, side by side: kbench's {@link LatencyRecorder} (a harvest moves and clears only the
 * index range written since the last one) against HdrHistogram's {@link SingleWriterRecorder} harvested as kbench
 * did before ({@code getIntervalHistogram(recycled)}, then {@code add} into the interval's histogram: every count of
 * the shape cleared and scanned).
 *
 * <ul>
 *   <li>{@code harvest*}: one interval's harvest of {@value #RECORDERS} recorders (50 producers × 4 metrics and 50
 *   consumers, as in a 50-topic workload), each holding {@link #samples} values spread over {@link #spreadMicros}
 *   (from 1 ms), recorded before each harvest (the recording is in the figure, the same for both);</li>
 *   <li>{@code record*}: one value recorded (the hot path of every acknowledgement and receipt).</li>
 * </ul>
 *
 * <pre>java -jar benchmarks/target/benchmarks.jar RecorderHarvest -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecorderHarvestBenchmark {
    static final int RECORDERS = 250;

    /** Values recorded per recorder per interval. */
    @Param({"100"})
    public int samples;

    /** The values' spread above 1 ms, µs: 10 ms (a quiet run), 1 s (a loaded one). */
    @Param({"10000", "1000000"})
    public long spreadMicros;

    private final LatencyRecorder[] kbench = new LatencyRecorder[RECORDERS];
    private final SingleWriterRecorder[] hdr = new SingleWriterRecorder[RECORDERS];
    private final Histogram[] recycled = new Histogram[RECORDERS];
    private final Histogram target = LatencyHistograms.create();
    private long[] values;
    private int next;

    @Setup
    public void setup() {
        for (int i = 0; i < RECORDERS; i++) {
            kbench[i] = new LatencyRecorder();
            hdr[i] = new SingleWriterRecorder(LatencyHistograms.LOWEST_DISCERNIBLE_MICROS,
                    LatencyHistograms.HIGHEST_TRACKABLE_MICROS, LatencyHistograms.SIGNIFICANT_DIGITS);
        }
        java.util.Random r = new java.util.Random(7);
        values = new long[4096];
        for (int i = 0; i < values.length; i++) {
            values[i] = 1_000 + (long) (r.nextDouble() * spreadMicros);
        }
    }

    private long nextValue() {
        long v = values[next];
        next = (next + 1) & (values.length - 1);
        return v;
    }

    @Benchmark
    public long harvestKbench() {
        for (LatencyRecorder r : kbench) {
            for (int k = 0; k < samples; k++) {
                r.record(nextValue());
            }
        }
        target.reset();
        for (LatencyRecorder r : kbench) {
            r.addIntervalTo(target);
        }
        return target.getTotalCount();
    }

    @Benchmark
    public long harvestHdrRecorder() {
        for (SingleWriterRecorder r : hdr) {
            for (int k = 0; k < samples; k++) {
                r.recordValue(nextValue());
            }
        }
        target.reset();
        for (int i = 0; i < RECORDERS; i++) {
            recycled[i] = hdr[i].getIntervalHistogram(recycled[i]);
            target.add(recycled[i]);
        }
        return target.getTotalCount();
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void recordKbench() {
        kbench[0].record(nextValue());
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void recordHdrRecorder() {
        hdr[0].recordValue(nextValue());
    }
}
