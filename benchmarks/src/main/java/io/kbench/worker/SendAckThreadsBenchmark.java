package io.kbench.worker;

import java.util.concurrent.TimeUnit;

import io.kbench.driver.NanoClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One unthrottled producer's two recording threads at once, as in a run: the load thread counts each send
 * ({@link ProducerMetrics#onSent}) while the Kafka I/O thread records each acknowledgement
 * ({@link ProducerMetrics#onAck}) into the same {@link ProducerMetrics}. What the single-threaded
 * {@link PerMessagePathBenchmark} cannot show: what one thread's writes cost the other when they land on a
 * cache line the other writes too.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar SendAckThreads -f 1
 * </pre>
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SendAckThreadsBenchmark {
    private ProducerMetrics metrics;
    private long sendNanos;

    @Setup
    public void setup() {
        metrics = new ProducerMetrics(NanoClock.SYSTEM, new ErrorSlot(), false);
        metrics.intervals(System.nanoTime(), 1_000_000_000L); // 1-s interval boundaries, as a run sets them
        sendNanos = System.nanoTime();
    }

    @Benchmark
    @Group("sendAndAck")
    @GroupThreads(1)
    public void send() {
        metrics.onSent(0, sendNanos);
    }

    @Benchmark
    @Group("sendAndAck")
    @GroupThreads(1)
    public void ack() {
        metrics.onAck(0, sendNanos, 100, 3);
    }

    /** The same acknowledgement with no load thread beside it: the baseline. */
    @Benchmark
    @Group("ackAlone")
    @GroupThreads(1)
    public void ackAlone() {
        metrics.onAck(0, sendNanos, 100, 3);
    }
}
