package io.kbench.driver;

/**
 * Receives what one {@link ConsumerHandle#poll} returned.
 *
 * <p>Threads: called on the consumer's load thread, inside {@code poll}.
 */
public interface RecordListener {
    /** Value of {@code stampMicros} for a message that carries no kbench stamp. */
    long NO_STAMP = Long.MIN_VALUE;

    /** Value of {@code producerId} for a message that carries no producer id and sequence number. */
    long NO_PRODUCER = -1;

    /**
     * Called once per poll that returned messages, right after the client returned them and before the
     * first {@link #onRecord}: the moment they were received.
     */
    void onPollReturned();

    /**
     * One message.
     *
     * @param valueBytes  size of its value in bytes
     * @param stampMicros the stamp its producer attached (coordinator time, µs since epoch), or
     *                    {@link #NO_STAMP}
     * @param partition   the partition it was read from
     * @param producerId  the id its producer attached ({@link ProducerOptions#producerId()}), or
     *                    {@link #NO_PRODUCER}
     * @param sequence    its sequence number among that producer's messages to this partition (valid only
     *                    with a producer id)
     */
    void onRecord(int valueBytes, long stampMicros, int partition, long producerId, long sequence);
}
