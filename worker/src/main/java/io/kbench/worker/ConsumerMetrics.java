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
 */
public final class ConsumerMetrics implements RecordListener {
    private final RunClock clock;
    private final Processing processing;
    final LatencyRecorder endToEnd = new LatencyRecorder();
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

    /** @param tracker the run's sequence tracker for this consumer, or null without verification */
    public ConsumerMetrics(RunClock clock, SequenceTracker tracker) {
        this(clock, tracker, Processing.NONE);
    }

    /**
     * @param tracker    the run's sequence tracker for this consumer, or null without verification
     * @param processing time spent on each message after it is counted ({@link Processing})
     */
    ConsumerMetrics(RunClock clock, SequenceTracker tracker, Processing processing) {
        this.clock = clock;
        this.tracker = tracker;
        this.processing = processing;
    }

    /** Makes this consumer one end of {@code loop} (a round-trip run); called before its thread starts. */
    void closedLoop(RoundTrip loop) {
        this.roundTrip = loop;
    }

    /** Sets the end of a timed warm-up (see the class comment), coordinator µs. */
    void measureFrom(long coordinatorMicros) {
        measureMicros = coordinatorMicros;
    }

    // HOT PATH
    @Override
    public void onPollReturned() {
        receivedMicros = clock.coordinatorMicrosNow();
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
        received.add(1);
        receivedBytes.add(valueBytes);
        long polled = receivedMicros; // each volatile read once per message
        long measure = measureMicros;
        // a message of the warm-up is timed when counted in it: its poll returned in it and the clock, read only for
        // such messages, is still before the window (a poll's messages are counted one by one, after processing)
        if (stampMicros != NO_STAMP && (stampMicros >= measure
                || polled < measure && clock.coordinatorMicrosNow() < measure)) {
            endToEnd.record(polled - stampMicros);
        } else {
            unrecorded.add(1);
        }
        if (producerId != NO_PRODUCER && tracker != null) {
            tracker.record(producerId, partition, sequence);
        }
        processing.process(clock.nanoClock());
    }
}
