package io.kbench.worker;

import io.kbench.protocol.IntervalSnapshot;

/**
 * Where a run's snapshots go: the open Run stream (the lease). Called by the snapshot thread, or by the
 * thread that stops the run; never concurrently.
 */
public interface SnapshotSink {
    void onSnapshot(IntervalSnapshot snapshot);

    /** The run ended normally after its last snapshot. */
    void onEnd();

    /** The run was aborted; {@code reason} is fit for the coordinator's user. */
    void onAbort(String reason);
}
