package io.kbench.driver;

import java.util.concurrent.locks.LockSupport;

/**
 * Monotonic time in nanoseconds, and waiting on it: every time the worker and its driver read or wait for goes
 * through one (the worker hands its clock to the driver: {@link DriverFactory#create(DriverConfig, NanoClock)}).
 * {@link #SYSTEM} in production; tests use a manual clock whose {@link #park} moves its time instead of waiting.
 * The times a driver reports to its listeners ({@code sendNanos}, {@code joinedNanos} ...) are on this clock.
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
