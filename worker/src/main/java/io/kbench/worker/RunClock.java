package io.kbench.worker;

import io.kbench.driver.NanoClock;
import io.kbench.protocol.MicrosClock;

/**
 * Converts between this worker's monotonic clock and coordinator time (µs since epoch on the coordinator)
 * with the offset the coordinator estimated: worker clock = coordinator clock + offset. The coordinator
 * re-estimates the offset during the run ({@link #adjust}); conversions from then on use the new one.
 * Thread-safe.
 */
public final class RunClock {
    private final MicrosClock local;
    private volatile long offsetMicros;
    private final NanoClock nanos;

    public RunClock(MicrosClock local, long offsetMicros, NanoClock nanos) {
        this.local = local;
        this.offsetMicros = offsetMicros;
        this.nanos = nanos;
    }

    /** Replaces the offset with a newer estimate. */
    public void adjust(long newOffsetMicros) {
        this.offsetMicros = newOffsetMicros;
    }

    public long offsetMicros() {
        return offsetMicros;
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
