package io.kbench.worker;

import io.kbench.driver.RecordListener;

/**
 * Everything measured about one consumer. HOT PATH: called by the driver inside poll on the consumer's
 * load thread (the only writer); the clock is read once per poll, when the messages were returned (and, in a
 * timed warm-up, once more for each of its messages, see below).
 * End-to-end latency is receive time minus the producer's stamp, both in coordinator time. A message intended
 * in a timed warm-up and counted after it still counts as received, but its end-to-end latency is not recorded (as
 * its response time, see {@link ProducerMetrics}): the measured window's end-to-end latency is that of the messages
 * intended in it. Counted, not received: a consumer that spends time on each message (processing) counts a poll's messages
 * one by one, so the messages of a poll that returned in the warm-up are counted in the window's first interval.
 *
 * <p>The consumer's thread cuts its figures at the interval boundaries itself ({@link #intervals}): a message belongs
 * to the interval its poll returned in — or, for a consumer that spends time on each message, the interval in which
 * it is counted — and its end-to-end latency goes to the recorder of that interval's parity, its bytes and an
 * unrecorded count to running counters noted at each boundary passed; the snapshot thread takes interval k's whenever
 * it harvests (as {@link ProducerMetrics} does for sends and acknowledgements).
 */
public final class ConsumerMetrics implements RecordListener {
    private final RunClock clock;
    private final Processing processing;
    /** End-to-end latency, one recorder per interval parity. */
    private final LatencyRecorder[] endToEnds;
    final SingleWriterCounter received = new SingleWriterCounter();
    final SingleWriterCounter receivedBytes = new SingleWriterCounter();
    /**
     * Messages received whose end-to-end latency was not recorded (unstamped, or intended in a timed warm-up): with
     * {@link #endToEnd}'s count, an interval's received count (so counts and histograms agree at its boundaries).
     */
    final SingleWriterCounter unrecorded = new SingleWriterCounter();
    /** Verification of producer sequences, or null when verification is off. */
    final SequenceTracker tracker;
    /** Coordinator time of the latest poll that returned messages; written once per such poll. */
    private volatile long receivedMicros;
    /** Lag of the consumer's partitions as last sampled, -1 unknown; written by the consumer's thread. */
    volatile long lag = -1;
    /** The client's metrics as last sampled on the consumer's thread. */
    volatile java.util.Map<String, Double> clientMetrics = java.util.Map.of();
    /** Microseconds from building the consumer to its first assignment; 0 until joined. */
    volatile long joinMicros;
    /** The closed loop this consumer is one end of, or null; set before its thread starts. */
    private RoundTrip roundTrip;
    /** End of a timed warm-up, coordinator µs; {@code Long.MIN_VALUE}: none. */
    private volatile long measureMicros = Long.MIN_VALUE;
    /** The interval boundaries and the byte and unrecorded counts at each passed (the consumer's thread writes). */
    private final BoundaryMarks<Counts> marks = new BoundaryMarks<>();
    /** When the latest poll that returned messages returned, nanoTime; the consumer's thread only. */
    private long polledNanos;
    /** The next boundary the consumer's thread has not passed; {@code Long.MIN_VALUE}: not read yet. Its thread only. */
    private long nextBoundaryNanos = Long.MIN_VALUE;
    /** The recorder of the interval the consumer's thread is in (of the last boundary's parity). Its thread only. */
    private LatencyRecorder endToEndNow;

    /** What had been counted when the consumer's thread passed a boundary. */
    private record Counts(long bytes, long unrecorded) {
    }

    /** @param tracker the run's sequence tracker for this consumer, or null without verification */
    public ConsumerMetrics(RunClock clock, SequenceTracker tracker) {
        this(clock, tracker, Processing.NONE);
    }

    /**
     * @param tracker    the run's sequence tracker for this consumer, or null without verification
     * @param processing time spent on each message after it is counted ({@link Processing})
     */
    ConsumerMetrics(RunClock clock, SequenceTracker tracker, Processing processing) {
        this(clock, tracker, processing, true);
    }

    /**
     * The metrics of a share consumer's loop: its lag, client metrics and join time; it receives nothing (its records
     * go to its {@link ShareConsumerMetrics}), so it holds no end-to-end recorders (2 × 184 KB).
     */
    static ConsumerMetrics ofShareConsumer(RunClock clock) {
        return new ConsumerMetrics(clock, null, Processing.NONE, false);
    }

    private ConsumerMetrics(RunClock clock, SequenceTracker tracker, Processing processing, boolean receives) {
        this.clock = clock;
        this.tracker = tracker;
        this.processing = processing;
        this.endToEnds = receives ? new LatencyRecorder[] {new LatencyRecorder(), new LatencyRecorder()} : null;
        this.endToEndNow = receives ? endToEnds[0] : null;
    }

    /** Makes this consumer one end of {@code loop} (a round-trip run); called before its thread starts. */
    void closedLoop(RoundTrip loop) {
        this.roundTrip = loop;
    }

    /** Sets the end of a timed warm-up (see the class comment), coordinator µs. */
    void measureFrom(long coordinatorMicros) {
        measureMicros = coordinatorMicros;
    }

    /** The run's interval boundaries on the worker's clock: {@code startNanos} + k × {@code intervalNanos}, k ≥ 1. */
    void intervals(long startNanos, long intervalNanos) {
        marks.set(startNanos, intervalNanos);
    }

    /** The consumer's thread, once an interval: the counts so far are those at every boundary up to {@code now}. */
    private void passBoundaries(long now) {
        if (marks.none()) {
            return; // no boundaries (yet): one recorder takes all
        }
        nextBoundaryNanos = marks.pass(now, nextBoundaryNanos, () -> new Counts(receivedBytes.get(), unrecorded.get()));
        if (endToEnds != null) {
            endToEndNow = endToEnds[(int) (marks.passed() & 1)];
        }
    }

    /** Bytes received before boundary {@code b} (snapshot thread; as {@link ProducerMetrics#sentBefore}). */
    long receivedBytesBefore(long b) {
        return marks.before(b, live()).bytes();
    }

    /** Messages received without a latency before boundary {@code b} (snapshot thread). */
    long unrecordedBefore(long b) {
        return marks.before(b, live()).unrecorded();
    }

    /** The counts now, read before a boundary's mark (a count after the boundary was added after its mark was set). */
    private Counts live() {
        return new Counts(receivedBytes.get(), unrecorded.get());
    }

    /** Moves interval {@code sequence}'s end-to-end latencies into {@code target}; {@code last}: all so far. */
    void addEndToEndTo(org.HdrHistogram.Histogram target, long sequence, boolean last) {
        if (endToEnds == null) {
            return;
        }
        for (int slot = 0; slot < 2; slot++) {
            if (last || marks.none() || slot == (int) (sequence & 1)) {
                endToEnds[slot].addIntervalTo(target);
            }
        }
    }

    /** End-to-end latencies above the histograms' range so far (cumulative). */
    long endToEndClamped() {
        return endToEnds == null ? 0 : endToEnds[0].clamped() + endToEnds[1].clamped();
    }

    /** Negative end-to-end latencies so far (clock skew; cumulative). */
    long endToEndNegative() {
        return endToEnds == null ? 0 : endToEnds[0].negative() + endToEnds[1].negative();
    }

    // HOT PATH
    @Override
    public void onPollReturned() {
        long now = clock.nanoClock().nanoTime();
        polledNanos = now;
        receivedMicros = clock.coordinatorMicros(now);
    }

    /** Coordinator time of the latest poll that returned messages, 0 if none did. */
    long lastReceiveMicros() {
        return receivedMicros;
    }

    // HOT PATH
    @Override
    public void onRecord(int valueBytes, long stampMicros, int partition, long producerId, long sequence) {
        if (roundTrip != null) {
            roundTrip.read(clock.nanoClock().nanoTime());
        }
        long polled = receivedMicros; // each volatile read once per message
        // the interval it is counted in: its poll's, or now for a consumer that spends time on each message (its
        // messages are counted one by one, after the previous ones' processing)
        long counted = processing.any() ? clock.nanoClock().nanoTime() : polledNanos;
        if (counted >= nextBoundaryNanos) { // always before the first: reads the boundaries
            passBoundaries(counted);
        }
        received.add(1);
        receivedBytes.add(valueBytes);
        long measure = measureMicros;
        // a message of the warm-up is timed when counted in it: its poll returned in it and the clock, read only for
        // such messages, is still before the window (a poll's messages are counted one by one, after processing)
        if (stampMicros != NO_STAMP && (stampMicros >= measure
                || polled < measure && clock.coordinatorMicrosNow() < measure)) {
            endToEndNow.record(polled - stampMicros);
        } else {
            unrecorded.add(1);
        }
        if (producerId != NO_PRODUCER && tracker != null) {
            tracker.record(producerId, partition, sequence);
        }
        processing.process(clock.nanoClock());
    }
}
