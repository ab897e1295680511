package io.kbench.worker;

import java.util.List;

/**
 * Readiness of a prepared run: every local consumer's group membership and partition count, and the
 * partition counts of the topics this worker created or checked.
 */
public record PrepareStatus(boolean ready, List<Consumer> consumers, java.util.Map<String, Integer> topicPartitions) {
    /** A run still being built: not ready, nothing known yet. */
    public static final PrepareStatus BUILDING = new PrepareStatus(false, List.of(), java.util.Map.of());

    /** One local consumer's state; {@code joinMicros} from building it to its first assignment, 0 before. */
    public record Consumer(int index, String group, int assignedPartitions, boolean joined, long joinMicros) { }
}
