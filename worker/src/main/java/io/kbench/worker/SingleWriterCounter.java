package io.kbench.worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter written by exactly one thread and read by any: the writer's increment is a plain read and an
 * ordered (release) store, no atomic read-modify-write and no full fence. HOT PATH.
 *
 * <p>The value sits alone on its cache lines: in the middle of an array of {@value #SLOTS} longs, with 120 bytes on
 * either side (two 64-byte lines, as the hardware prefetches lines in pairs). Counters are made together — a
 * producer's sent count (its load thread) next to its acknowledged count and bytes (the Kafka I/O thread) — and 24-byte
 * objects made one after the other share a line: each thread's write then took the line from the other, once a
 * record on each side. {@code SendAckThreadsBenchmark} (benchmarks/README.md) measures the two threads at once. About
 * 280 bytes a counter (the object and its array) instead of 24.
 */
public final class SingleWriterCounter {
    /** Longs in the array; the value is the middle one. */
    static final int SLOTS = 31;
    private static final int AT = SLOTS / 2;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots = new long[SLOTS];

    /** Adds {@code delta}; only the owning writer thread may call this. */
    public void add(long delta) {
        SLOT.setRelease(slots, AT, (long) SLOT.getOpaque(slots, AT) + delta);
    }

    /** The current value, from any thread. */
    public long get() {
        return (long) SLOT.getAcquire(slots, AT);
    }
}
