package io.kbench.coordinator.run;

import java.time.Duration;

import io.kbench.protocol.MicrosClock;

/**
 * The time every part of a run reads and waits on: coordinator microseconds since the epoch. Production uses
 * {@link #system()}; tests inject a manual clock, so planning, supervision and end conditions run without
 * real time passing.
 */
public interface CoordinatorClock {
    /** Epoch microseconds, now. */
    long micros();

    /**
     * Identity of the underlying clock: a worker answering Identify with the same id reads this very clock
     * (in-process), so its offset is exactly 0.
     */
    String id();

    /** Waits {@code duration} of this clock's time. */
    void sleep(Duration duration) throws InterruptedException;

    /** The process's {@link MicrosClock#SYSTEM}, waiting with {@link Thread#sleep}. */
    static CoordinatorClock system() {
        return of(MicrosClock.SYSTEM);
    }

    /** {@code clock}, waiting with {@link Thread#sleep}. */
    static CoordinatorClock of(MicrosClock clock) {
        return new CoordinatorClock() {
            @Override
            public long micros() {
                return clock.micros();
            }

            @Override
            public String id() {
                return clock.id();
            }

            @Override
            public void sleep(Duration duration) throws InterruptedException {
                Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
            }
        };
    }
}
