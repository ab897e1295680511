package io.kbench.worker;

import java.util.List;

/**
 * Readiness of a prepared run: every local consumer's group membership and partition count, the partition
 * counts of the topics this worker created or checked, and (from that worker only, else null) the cluster
 * as its driver described it.
 */
public record PrepareStatus(boolean ready, List<Consumer> consumers, java.util.Map<String, Integer> topicPartitions,
                            io.kbench.driver.ClusterFacts cluster) {
    /** A run still being built: not ready, nothing known yet. */
    public static final PrepareStatus BUILDING = new PrepareStatus(false, List.of(), java.util.Map.of(), null);

    /** One local consumer's state; {@code joinMicros} from building it to its first assignment, 0 before. */
    public record Consumer(int index, String group, int assignedPartitions, boolean joined, long joinMicros) { }
}
