package io.kbench.driver;

import java.time.Duration;

/**
 * One producer. {@link #send} is on the hot path.
 *
 * <p>Threads: owned by one load thread, which calls {@link #send}, {@link #flush} and {@link #close};
 * completions arrive on the client's I/O thread through the {@link ProducerListener}.
 */
public interface ProducerHandle {
    /**
     * Hands one message to the client. The client may copy {@code value} before this returns, so the caller
     * may reuse the array for the next send. Never throws for a send failure: failures are reported through
     * {@link ProducerListener#onError}. May block while the client's buffer is full.
     *
     * @param key           the key bytes, or null for none
     * @param value         the value bytes
     * @param stampMicros   the intended send time in coordinator time (µs since epoch), carried with the
     *                      message so that a consumer anywhere can compute end-to-end latency
     * @param intendedNanos intended send time, handed back to the listener
     * @param sendNanos     actual send time, handed back to the listener
     */
    void send(byte[] key, byte[] value, long stampMicros, long intendedNanos, long sendNanos);

    /** Starts a transaction (transactional producers only). */
    void beginTransaction();

    /**
     * Commits the open transaction, blocking until it is committed (transactional producers only).
     *
     * @throws DriverException when the commit fails; the producer cannot continue
     */
    void commitTransaction();

    /** Blocks until every message sent so far has completed (acknowledged or failed). */
    void flush();

    /**
     * The client's own metrics that explain a result (e.g. {@code record-queue-time-avg},
     * {@code request-latency-avg}, {@code batch-size-avg}), by the client's metric names; metrics without a
     * value yet are left out. Any thread.
     */
    java.util.Map<String, Double> metrics();

    /**
     * Every one of the client's metrics as the Kafka tools' {@code --print-metrics} prints them: sorted by
     * {@code group:name:{tags}}, a {@code Double} formatted {@code %.3f}, any other value by its
     * {@code toString()}; empty for a driver that has none. Any thread.
     */
    default java.util.SortedMap<String, String> metricsDump() {
        return new java.util.TreeMap<>();
    }

    /** Closes the producer, waiting at most {@code timeout} for messages still buffered. */
    void close(Duration timeout);
}
