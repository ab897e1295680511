package io.kbench.driver;

import java.time.Duration;

/**
 * One consumer of a share group (KIP-932): records of the group's partitions are spread over its consumers, each
 * delivered to one of them at a time, and acknowledged one by one.
 *
 * <p>Threads: owned by one load thread, which calls {@link #poll}, {@link #metrics}, {@link #metricsDump} and
 * {@link #close}; {@link #wakeup()}, {@link #joined()} and {@link #joinedNanos()} may be called from any thread.
 */
public interface ShareConsumerHandle {
    /**
     * Fetches what is available within {@code timeout}, hands each record to {@code listener} and, with explicit
     * acknowledgement, acknowledges it as the listener answered; acknowledgements go to the broker with the next
     * poll (or {@link #close}).
     *
     * @return number of records handed over; 0 when the wait timed out or {@link #wakeup()} was called
     * @throws DriverException when the consumer failed for good (not for a retriable condition)
     */
    int poll(Duration timeout, ShareRecordListener listener);

    /** Makes a blocked or the next {@link #poll} return at once. */
    void wakeup();

    /** True once the group's coordinator has given this consumer its first assignment. */
    boolean joined();

    /** {@link System#nanoTime()} when this consumer was first assigned; meaningful once joined. */
    long joinedNanos();

    /** The client's own metrics that explain a result, by the client's metric names. Owning thread only. */
    java.util.Map<String, Double> metrics();

    /** Every one of the client's metrics, as {@link ConsumerHandle#metricsDump()}. Owning thread only. */
    default java.util.SortedMap<String, String> metricsDump() {
        return new java.util.TreeMap<>();
    }

    /** Sends the acknowledgements still held, leaves the group and releases the consumer. */
    void close();
}
