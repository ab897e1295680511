package io.kbench.driver;

/**
 * Receives what one {@link ConsumerHandle#poll} returned.
 *
 * <p>Threads: called on the consumer's load thread, inside {@code poll}.
 */
public interface RecordListener {
    /** Value of {@code stampMicros} for a message that carries no kbench stamp. */
    long NO_STAMP = Long.MIN_VALUE;

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
     */
    void onRecord(int valueBytes, long stampMicros);
}
