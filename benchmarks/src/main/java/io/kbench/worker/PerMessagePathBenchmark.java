package io.kbench.worker;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.kbench.driver.NanoClock;
import io.kbench.driver.ProducerHandle;
import io.kbench.driver.ProducerListener;
import io.kbench.protocol.MicrosClock;
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
 * kbench's own cost per message, without Kafka: the producer path (rate schedule → Zipf key and value
 * lookup → stamp → driver send →
 * delay recorded; completion → latency and response time recorded) and the consumer path (end-to-end
 * recorded). The driver here acknowledges every send at once on the calling thread, so what is measured is
 * kbench's work only; Kafka's own per-send cost comes on top in a real run. Run with the GC profiler to
 * see the allocation per message ({@code gc.alloc.rate.norm}, expected 0 B/op):
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar PerMessagePath -prof gc
 * </pre>
 *
 * {@code clockRead} is the baseline: one {@code System.nanoTime()}, the unavoidable part of any timing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PerMessagePathBenchmark {
    private static final int BATCH = 500;
    /** Producer-partition streams the verifying consumer sees: 10 producers x 6 partitions. */
    private static final int STREAMS = 60;
    /** Messages in a row from one stream (a producer batch in a fetch). */
    private static final int RUN = 50;

    private ProducerLoop loop;
    private RateSchedule schedule;
    private ConsumerMetrics consumer;
    private ConsumerMetrics verifying;
    private ShareConsumerMetrics share;
    private ShareConsumerMetrics shareVerifying;
    /** Polls between two harvests of the share delivery log (a snapshot a second at 50,000 records/s). */
    private static final int POLLS_PER_HARVEST = 100;
    private final long[] sequences = new long[STREAMS];
    private long index;
    private long stamp;

    @Setup
    public void setup() {
        RunClock clock = new RunClock(MicrosClock.SYSTEM, 0, NanoClock.SYSTEM);
        ErrorSlot errors = new ErrorSlot();
        ProducerMetrics metrics = new ProducerMetrics(NanoClock.SYSTEM, errors);
        metrics.intervals(System.nanoTime(), 1_000_000_000L); // 1-s interval boundaries, as a run sets them
        loop = new ProducerLoop("bench", new InstantAckHandle(metrics), metrics, clock, 1_000_000, 0,
                Payloads.generate(100, 1.0, 1), Keys.of(Keys.Distribution.ZIPF, 1000, 1.0, 1), 0, 0, errors);
        schedule = new RateSchedule(System.nanoTime(), 1_000_000);
        consumer = new ConsumerMetrics(clock, null);
        verifying = new ConsumerMetrics(clock, new SequenceTracker(7, 65_536));
        consumer.intervals(System.nanoTime(), 1_000_000_000L); // as a run sets them
        verifying.intervals(System.nanoTime(), 1_000_000_000L);
        share = new ShareConsumerMetrics(clock, 0, 0, 0, 1);
        shareVerifying = new ShareConsumerMetrics(clock, 0, 0, 0, 1).verifyInto(new ShareDeliveryLog("g", 7));
        share.intervals(System.nanoTime(), 1_000_000_000L); // as a run sets them
        shareVerifying.intervals(System.nanoTime(), 1_000_000_000L);
        stamp = clock.coordinatorMicrosNow();
    }

    /** One message through the producer path: send, delay recorded, ack, latency and response recorded. */
    @Benchmark
    public void producerSendAndAck() {
        long i = index++;
        loop.send(i, schedule.intendedNanos(i), System.nanoTime());
    }

    /** One message through the consumer path (a poll's receive time is read once per 500 messages). */
    @Benchmark
    public void consumerReceive() {
        if (index++ % BATCH == 0) {
            consumer.onPollReturned();
        }
        consumer.onRecord(100, stamp, 0, io.kbench.driver.RecordListener.NO_PRODUCER, 0);
    }

    /**
     * The consumer path with verification: the same plus sequence tracking, over 60 streams that take turns
     * in runs of 50 messages (as batches of one producer and partition arrive in a fetch).
     */
    @Benchmark
    public void consumerReceiveVerified() {
        long i = index++;
        if (i % BATCH == 0) {
            verifying.onPollReturned();
        }
        int stream = (int) ((i / RUN) % STREAMS);
        verifying.onRecord(100, stamp, stream % 6, SequenceTracker.producerId(7, stream / 6), sequences[stream]++);
    }

    /**
     * One delivery to a share consumer (implicit acknowledgement, no processing time): counted, first-delivery
     * latency recorded, accepted, acceptance latency recorded.
     */
    @Benchmark
    public void shareDelivery() {
        long i = index++;
        if (i % BATCH == 0) {
            share.onPollReturned();
        }
        int stream = (int) ((i / RUN) % STREAMS);
        share.onRecord(100, stamp, stream % 6, SequenceTracker.producerId(7, stream / 6), sequences[stream]++, 1);
    }

    /**
     * The same with the delivery log for the share groups' per-record check: each record's sequence number into its
     * stream's ranges, the log published at the end of each poll and harvested every {@value #POLLS_PER_HARVEST}
     * polls (what the snapshot thread does, here on the same thread).
     */
    @Benchmark
    public void shareDeliveryVerified() {
        long i = index++;
        if (i % BATCH == 0) {
            shareVerifying.onPollReturned();
        }
        int stream = (int) ((i / RUN) % STREAMS);
        shareVerifying.onRecord(100, stamp, stream % 6, SequenceTracker.producerId(7, stream / 6), sequences[stream]++,
                1);
        if (i % BATCH == BATCH - 1) {
            shareVerifying.pollDone();
            if ((i / BATCH) % POLLS_PER_HARVEST == POLLS_PER_HARVEST - 1) {
                shareVerifying.deliveries().harvest(new ShareDeliveryLog.Table());
            }
        }
    }

    /** Baseline: one clock read. */
    @Benchmark
    public long clockRead() {
        return System.nanoTime();
    }

    /** A driver whose broker acknowledges every message at once, on the sending thread. */
    private static final class InstantAckHandle implements ProducerHandle {
        private final ProducerListener listener;

        InstantAckHandle(ProducerListener listener) {
            this.listener = listener;
        }

        @Override
        public void send(byte[] key, byte[] value, long stampMicros, long intendedNanos, long sendNanos) {
            listener.onAck(intendedNanos, sendNanos, value.length, 0);
        }

        @Override
        public void flush() {
        }

        @Override
        public void beginTransaction() {
        }

        @Override
        public void commitTransaction() {
        }

        @Override
        public java.util.Map<String, Double> metrics() {
            return java.util.Map.of();
        }

        @Override
        public void close(Duration timeout) {
        }
    }
}
