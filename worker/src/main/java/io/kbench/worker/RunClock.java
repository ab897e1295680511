package io.kbench.worker;

import io.kbench.protocol.MicrosClock;

/**
 * Converts between this worker's monotonic clock and coordinator time (µs since epoch on the coordinator)
 * with the offset the coordinator estimated: worker clock = coordinator clock + offset. Immutable.
 */
public final class RunClock {
    private final MicrosClock local;
    private final long offsetMicros;
    private final NanoClock nanos;

    public RunClock(MicrosClock local, long offsetMicros, NanoClock nanos) {
        this.local = local;
        this.offsetMicros = offsetMicros;
        this.nanos = nanos;
    }

    /** Coordinator time now. */
    public long coordinatorMicrosNow() {
        return coordinatorMicros(nanos.nanoTime());
    }

    /** Coordinator time at a local {@code nanoTime} reading. */
    public long coordinatorMicros(long nanoTime) {
        return local.toMicros(nanoTime) - offsetMicros;
    }

    /** The local {@code nanoTime} reading at coordinator time {@code micros}. */
    public long localNanos(long coordinatorMicros) {
        return local.toNanoTime(coordinatorMicros + offsetMicros);
    }

    public NanoClock nanoClock() {
        return nanos;
    }
}
