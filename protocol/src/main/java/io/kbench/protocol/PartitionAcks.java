package io.kbench.protocol;

import java.util.Arrays;

/**
 * The messages one worker's producers had acknowledged in each partition of one topic since its run started, by
 * partition number ({@code acked[p]}: partition p; partitions past the array's end had none). Sent once, in the
 * worker's last snapshot: the coordinator adds every worker's up to show how the messages spread over the partitions
 * (keyed messages go to the partition of their key's hash, so a frequent key makes a hot partition).
 *
 * @param topic the topic
 * @param acked acknowledged messages by partition; not modified after construction
 */
public record PartitionAcks(String topic, long[] acked) {
    /** The most partitions one topic's entry may carry: more than a Kafka topic has. */
    public static final int MAX_PARTITIONS = 1 << 20;

    public PartitionAcks {
        if (topic == null || topic.isEmpty()) {
            throw new IllegalArgumentException("partition acknowledgements without a topic");
        }
        if (acked.length > MAX_PARTITIONS) {
            throw new IllegalArgumentException("topic " + topic + ": " + acked.length + " partitions, at most "
                    + MAX_PARTITIONS);
        }
        acked = acked.clone();
        for (int p = 0; p < acked.length; p++) {
            if (acked[p] < 0) {
                throw new IllegalArgumentException("topic " + topic + " partition " + p + ": " + acked[p] + " acknowledged");
            }
        }
    }

    @Override
    public long[] acked() {
        return acked.clone();
    }

    /** Acknowledged in partition {@code p} (0 past the end). */
    public long acked(int p) {
        return p < acked.length ? acked[p] : 0;
    }

    /** Partitions the entry carries (the highest one that had any, plus one, or more). */
    public int partitions() {
        return acked.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionAcks a && topic.equals(a.topic) && Arrays.equals(acked, a.acked);
    }

    @Override
    public int hashCode() {
        return topic.hashCode() * 31 + Arrays.hashCode(acked);
    }

    @Override
    public String toString() {
        return "PartitionAcks[" + topic + ", " + Arrays.toString(acked) + "]";
    }
}
