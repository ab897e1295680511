package io.kbench.worker;

import java.util.List;

/** Readiness of a prepared run: every local consumer's group membership and partition count. */
public record PrepareStatus(boolean ready, List<Consumer> consumers) {
    /** One local consumer's state. */
    public record Consumer(int index, String group, int assignedPartitions, boolean joined) { }
}
