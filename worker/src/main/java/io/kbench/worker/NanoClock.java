package io.kbench.worker;

/** Monotonic time in nanoseconds; {@link #SYSTEM} in production, a manual clock in tests. */
@FunctionalInterface
public interface NanoClock {
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
