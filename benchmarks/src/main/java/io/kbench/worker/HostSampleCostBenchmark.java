package io.kbench.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a worker's host figures cost it once an interval: the whole sample ({@link HostSampler#sample}: process CPU,
 * GC beans, heap after GC, /proc/stat, the JIT compiler threads) and the JIT part alone ({@link JitCpu#nanos}: a
 * listing of /proc/self/task and the compilers' schedstat), in a JVM with {@code threads} idle threads besides JMH's
 * (the embedded default's process, broker and clients in it, runs about 150-250). Linux only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HostSampleCostBenchmark {
    @Param({"50", "200"})
    int threads;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final List<Thread> idle = new ArrayList<>();
    private JitCpu jit;
    private HostSampler sampler;

    @Setup
    public void setUp() {
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    stop.await();
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }, "idle-" + i);
            t.setDaemon(true);
            t.start();
            idle.add(t);
        }
        jit = new JitCpu();
        sampler = HostSampler.ofThisJvm(() -> -1);
    }

    @TearDown
    public void tearDown() {
        stop.countDown();
    }

    @Benchmark
    public long jitCpu() {
        return jit.nanos();
    }

    @Benchmark
    public Object wholeSample() {
        return sampler.sample();
    }
}
