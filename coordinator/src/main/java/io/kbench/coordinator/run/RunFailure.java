package io.kbench.coordinator.run;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A run's first failure. Whichever thread decides it first names it — a worker lost or aborting (its supervisor or
 * its stream), the workload's faults, the end condition, Ctrl-C — and the run then stops at once; a later failure
 * is a consequence, not the cause, and is not kept. Thread-safe.
 */
final class RunFailure {
    private final AtomicReference<String> first = new AtomicReference<>();

    /** Records {@code reason} unless a failure was recorded before. */
    void fail(String reason) {
        first.compareAndSet(null, reason);
    }

    /** The first failure, or null while the run has none. */
    String reason() {
        return first.get();
    }

    boolean failed() {
        return first.get() != null;
    }
}
