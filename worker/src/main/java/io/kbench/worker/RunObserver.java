package io.kbench.worker;

import java.util.function.Supplier;

import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;

/**
 * Hears what the worker's runs do, besides the coordinator's stream: the worker's own metrics endpoint
 * ({@link WorkerMetrics}) is one. Called on the worker's threads (the snapshot thread for snapshots); must
 * not block.
 */
public interface RunObserver {
    /** Observes nothing. */
    RunObserver NONE = new RunObserver() { };

    /**
     * {@code spec} was prepared: its clients are built and its consumers are joining.
     *
     * @param live the run's counters so far, read live when called (cheap: a few volatile reads)
     */
    default void prepared(RunSpec spec, Supplier<Counters> live) {
    }

    /** The run started (producers and the snapshot stream). */
    default void started(RunSpec spec) {
    }

    /** A snapshot the run sent (or would have sent: also with no stream attached). */
    default void snapshot(RunSpec spec, IntervalSnapshot snapshot) {
    }

    /** The coordinator sent a newer clock offset estimate (worker clock minus coordinator clock). */
    default void clockOffset(RunSpec spec, long offsetMicros) {
    }

    /** The run ended: normally ({@code abortReason} null) or aborted. */
    default void ended(RunSpec spec, String abortReason) {
    }
}
