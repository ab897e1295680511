package io.kbench.coordinator.cli;

import java.util.List;

import io.kbench.coordinator.workload.Sweep;

/**
 * How a sweep's broker settings (matrix keys {@code broker.<name>}) reach the cluster: cluster-wide dynamic configs on
 * a cluster kbench did not start ({@link DynamicBrokerSettings}), or the embedded cluster started again with them
 * ({@link EmbeddedBrokerSettings}). {@link SweepRun} applies each combination's before it runs and restores at the end.
 */
interface BrokerSettings {
    /**
     * Checks the sweep's settings before any load.
     *
     * @throws io.kbench.coordinator.UserException one line: the setting refused and why
     */
    void check(List<Sweep.Point> points);

    /** Puts {@code p}'s settings in force before it runs; a refusal is a {@link io.kbench.coordinator.UserException}. */
    void apply(Sweep.Point p);

    /** Puts back what the sweep changed, and says so; false when it could not. */
    boolean restore();
}
