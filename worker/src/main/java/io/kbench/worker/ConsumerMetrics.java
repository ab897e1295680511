package io.kbench.worker;

import io.kbench.driver.RecordListener;

/**
 * Everything measured about one consumer. HOT PATH: called by the driver inside poll on the consumer's
 * load thread (the only writer); the clock is read once per poll, when the messages were returned.
 * End-to-end latency is receive time minus the producer's stamp, both in coordinator time.
 */
public final class ConsumerMetrics implements RecordListener {
    private final RunClock clock;
    final LatencyRecorder endToEnd = new LatencyRecorder();
    final SingleWriterCounter received = new SingleWriterCounter();
    final SingleWriterCounter receivedBytes = new SingleWriterCounter();
    /** Coordinator time of the latest poll that returned messages; written once per such poll. */
    private volatile long receivedMicros;

    public ConsumerMetrics(RunClock clock) {
        this.clock = clock;
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
    public void onRecord(int valueBytes, long stampMicros) {
        received.add(1);
        receivedBytes.add(valueBytes);
        if (stampMicros != NO_STAMP) {
            endToEnd.record(receivedMicros - stampMicros);
        }
    }
}
