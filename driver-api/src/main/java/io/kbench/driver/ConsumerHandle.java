package io.kbench.driver;

import java.time.Duration;

/**
 * One subscribed consumer.
 *
 * <p>Threads: owned by one load thread, which calls {@link #poll}, {@link #lag}, {@link #metrics} and
 * {@link #close}. {@link #wakeup()},
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

    /** Where a held consumer's partitions start once released. */
    enum Start {
        /** The end of each partition's log as it was when assigned. */
        END,
        /** The beginning of each partition's log. */
        BEGINNING,
        /** The group's committed offset, else where the client's offset reset policy says. */
        COMMITTED
    }

    /**
     * Holds the consumer until {@link #release()}: every partition assigned to it is paused (no fetching) and
     * positioned as {@code start} says. Called once, before the first poll.
     */
    void hold(Start start);

    /** Ends the hold: paused partitions resume at the next {@link #poll}. Any thread. */
    void release();

    /** Makes a blocked or the next {@link #poll} return at once. */
    void wakeup();

    /** Partitions assigned to this consumer now. */
    int assignedPartitions();

    /** True once this consumer has completed at least one group rebalance. */
    boolean joined();

    /** {@link System#nanoTime()} when this consumer was first assigned partitions; meaningful once joined. */
    long joinedNanos();

    /**
     * Messages not yet read from the partitions assigned now: the sum over them of log end offset minus
     * position, as of the latest fetch responses (no request is made); -1 when not known for any of them.
     * Owning thread only.
     */
    long lag();

    /**
     * The client's own metrics that explain a result (e.g. {@code fetch-latency-avg},
     * {@code records-lag-max}), by the client's metric names; metrics without a value yet are left out.
     * Owning thread only.
     */
    java.util.Map<String, Double> metrics();

    /**
     * Every one of the client's metrics as the Kafka tools' {@code --print-metrics} prints them: sorted by
     * {@code group:name:{tags}}, a {@code Double} formatted {@code %.3f}, any other value by its
     * {@code toString()}; empty for a driver that has none. Owning thread only.
     */
    default java.util.SortedMap<String, String> metricsDump() {
        return new java.util.TreeMap<>();
    }

    /** Leaves the group and releases the consumer. */
    void close();
}
