package io.kbench.driver;

/**
 * How to build one producer.
 *
 * @param topic           the topic it sends to
 * @param clientId        a unique, readable client id (shows up in broker logs and metrics)
 * @param transactionalId the transactional id for a transactional producer, or null
 * @param producerId      when {@code >= 0}, every message carries this id and a sequence number per partition
 *                        (0, 1, 2 ... for each partition the producer writes to), which consumers hand to
 *                        {@link RecordListener#onRecord} for verification; {@link #NO_VERIFICATION} for none
 * @param stamp           every message carries its intended send time for end-to-end latency (in the Kafka
 *                        driver: in the value's first bytes when it has room, else in a record header); false sends plain records, as the Kafka tools do
 * @param headers         headers every message carries, in this order (the stamp's, when it travels in one, after them)
 */
public record ProducerOptions(String topic, String clientId, String transactionalId, long producerId, boolean stamp,
                              java.util.List<MessageHeader> headers) {
    public static final long NO_VERIFICATION = -1;

    public ProducerOptions {
        if (!stamp && producerId >= 0) {
            throw new IllegalArgumentException("verification needs stamped messages");
        }
        headers = java.util.List.copyOf(headers);
    }

    /** Options of a producer whose messages carry no headers of their own. */
    public ProducerOptions(String topic, String clientId, String transactionalId, long producerId, boolean stamp) {
        this(topic, clientId, transactionalId, producerId, stamp, java.util.List.of());
    }

    /** Options of a producer whose messages carry the end-to-end stamp. */
    public ProducerOptions(String topic, String clientId, String transactionalId, long producerId) {
        this(topic, clientId, transactionalId, producerId, true);
    }

    public boolean transactional() {
        return transactionalId != null;
    }

    public boolean verification() {
        return producerId >= 0;
    }
}
