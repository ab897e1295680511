package io.kbench.coordinator.run;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * A run's first failure. Whichever thread decides it first names it — a worker lost or aborting (its supervisor or
 * its stream), the workload's faults, the end condition, Ctrl-C — and the run then stops at once; a later failure
 * is a consequence, not the cause, and is not kept. It keeps when it was decided: a failed run's measured window
 * ends before it. Thread-safe.
 */
final class RunFailure {
    private final AtomicReference<String> first = new AtomicReference<>();
    private final LongSupplier micros;
    private volatile long atMicros = Long.MAX_VALUE;

    /** @param micros the coordinator's clock, µs */
    RunFailure(LongSupplier micros) {
        this.micros = micros;
    }

    /** Records {@code reason}, and now as its instant, unless a failure was recorded before. */
    void fail(String reason) {
        long now = micros.getAsLong();
        if (first.compareAndSet(null, reason)) {
            atMicros = now;
        }
    }

    /** When the first failure was recorded (coordinator µs), {@link Long#MAX_VALUE} while the run has none. */
    long atMicros() {
        return atMicros;
    }

    /** The first failure, or null while the run has none. */
    String reason() {
        return first.get();
    }

    boolean failed() {
        return first.get() != null;
    }
}
