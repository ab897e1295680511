package io.kbench.driver;

import java.time.Duration;

/**
 * One subscribed consumer.
 *
 * <p>Threads: owned by one load thread, which calls {@link #poll} and {@link #close}. {@link #wakeup()},
 * {@link #assignedPartitions()}, {@link #joined()} and {@link #release()} may be called from any thread.
 */
public interface ConsumerHandle {
    /**
     * Fetches what is available within {@code timeout} and hands each message to {@code listener}.
     *
     * @return number of messages handed over; 0 when the wait timed out or {@link #wakeup()} was called
     * @throws DriverException when the consumer failed for good (not for a retriable condition)
     */
    int poll(Duration timeout, RecordListener listener);

    /**
     * Holds the consumer until {@link #release()}: every partition assigned to it is paused (no fetching) and
     * positioned at the end of its log ({@code atEnd}) or at its beginning. Called once, before the first
     * poll.
     */
    void hold(boolean atEnd);

    /** Ends the hold: paused partitions resume at the next {@link #poll}. Any thread. */
    void release();

    /** Makes a blocked or the next {@link #poll} return at once. */
    void wakeup();

    /** Partitions assigned to this consumer now. */
    int assignedPartitions();

    /** True once this consumer has completed at least one group rebalance. */
    boolean joined();

    /** Leaves the group and releases the consumer. */
    void close();
}
