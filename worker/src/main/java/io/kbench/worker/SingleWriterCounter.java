package io.kbench.worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter written by exactly one thread and read by any: the writer's increment is a plain read and an
 * ordered (release) store, no atomic read-modify-write and no full fence. HOT PATH.
 */
public final class SingleWriterCounter {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(SingleWriterCounter.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through VALUE
    private long value;

    /** Adds {@code delta}; only the owning writer thread may call this. */
    public void add(long delta) {
        VALUE.setRelease(this, (long) VALUE.getOpaque(this) + delta);
    }

    /** The current value, from any thread. */
    public long get() {
        return (long) VALUE.getAcquire(this);
    }
}
