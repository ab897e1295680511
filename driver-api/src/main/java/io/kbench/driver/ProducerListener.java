package io.kbench.driver;

/**
 * Receives the completion of every send of one producer.
 *
 * <p>Threads: called on the client library's I/O thread (for Kafka, the producer's sender thread), and
 * for sends that fail before they reach the client's buffer, on the thread that called
 * {@link ProducerHandle#send}. A slow listener stalls the client's I/O, so implementations do a few
 * primitive operations and return. The time values are the ones passed to {@code send}, handed back
 * unchanged.
 */
public interface ProducerListener {
    /**
     * The broker acknowledged a message.
     *
     * @param intendedNanos the intended send time given to {@code send}, {@link System#nanoTime()} units
     * @param sendNanos     the actual send time given to {@code send}, {@link System#nanoTime()} units
     * @param valueBytes    size of the message value in bytes
     * @param partition     the partition the broker appended it to; -1 when the driver does not know it
     */
    void onAck(long intendedNanos, long sendNanos, int valueBytes, int partition);

    /**
     * A message could not be sent or was not acknowledged.
     *
     * @param error the client's exception; never null
     */
    void onError(long intendedNanos, long sendNanos, Throwable error);
}
