package io.kbench.coordinator;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.kbench.protocol.HistogramDecoder;
import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Adding one received histogram (a worker's interval, compressed as on the wire: 2,000 samples) into the
 * interval's sum, side by side: decoding it with HdrHistogram and adding the result (what the merger did), and
 * {@link HistogramDecoder}'s in-place add (what it does). The coordinator does this 5 times per worker per
 * interval.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class HistogramAddBenchmark {
    private byte[] encoded;
    private final Histogram sum = LatencyHistograms.create();
    private final HistogramDecoder decoder = new HistogramDecoder();

    @Setup
    public void setUp() {
        Random random = new Random(7);
        Histogram h = LatencyHistograms.create();
        for (int i = 0; i < 2_000; i++) {
            h.recordValue((long) (5_000 * Math.exp(random.nextGaussian())));
        }
        encoded = LatencyHistograms.encode(h);
    }

    @Benchmark
    public Histogram decodeThenAdd() {
        sum.add(LatencyHistograms.decode(encoded));
        return sum;
    }

    @Benchmark
    public Histogram addInPlace() {
        decoder.addInto(sum, encoded);
        return sum;
    }
}
