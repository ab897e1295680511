package io.kbench.driver;

/**
 * Receives what one {@link ShareConsumerHandle#poll} returned, and says how each record is acknowledged.
 *
 * <p>Threads: called on the consumer's load thread, inside {@code poll}.
 */
public interface ShareRecordListener {
    /** How a record is acknowledged (explicit acknowledgement; with implicit every record is accepted). */
    enum Acknowledge {
        /** Processed: the record is done for the group. */
        ACCEPT,
        /** Not processed: the record becomes available again and is delivered again (to any consumer). */
        RELEASE,
        /** Unprocessable: the record is archived and never delivered again. */
        REJECT
    }

    /** Called once per poll that returned records, right after the client returned them: the moment they came. */
    void onPollReturned();

    /**
     * One delivery of a record. The record's processing (the workload's processing time) happens in this call.
     *
     * @param valueBytes    size of its value in bytes
     * @param stampMicros   the stamp its producer attached (coordinator time, µs since epoch), or
     *                      {@link RecordListener#NO_STAMP}
     * @param partition     the partition it was read from
     * @param producerId    the id its producer attached, or {@link RecordListener#NO_PRODUCER}
     * @param sequence      its sequence number among that producer's messages to this partition
     * @param deliveryCount how many times the record has been delivered, this delivery included (1: the first);
     *                      0 when the broker did not say
     * @return how to acknowledge it (ignored with implicit acknowledgement)
     */
    Acknowledge onRecord(int valueBytes, long stampMicros, int partition, long producerId, long sequence,
                         int deliveryCount);

    /**
     * A consumer that commits its acknowledgements itself (commit-sync mode) committed those of one poll.
     *
     * @param nanos  how long the commit took: acknowledgements sent, the broker's answer received
     * @param failed the broker refused the acknowledgements of some partition (e.g. a record whose lock had run out)
     */
    default void onCommitted(long nanos, boolean failed) {
    }
}
