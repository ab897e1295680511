package io.kbench.worker;

import java.util.concurrent.locks.LockSupport;

/**
 * Monotonic time in nanoseconds, and waiting on it: every time the worker reads or waits for goes through
 * one. {@link #SYSTEM} in production; tests use a manual clock whose {@link #park} moves its time instead of
 * waiting.
 */
@FunctionalInterface
public interface NanoClock {
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();

    /** Waits about {@code nanos} (or until unparked or interrupted, like {@link LockSupport#parkNanos}). */
    default void park(long nanos) {
        LockSupport.parkNanos(nanos);
    }
}
