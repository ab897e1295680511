package io.kbench.driver;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Time that moves only when told ({@link #advance}) or when a thread parks on it, by the park's length: the
 * {@link NanoClock} of tests of code that reads and waits on time (a producer's flow control, a snapshot's
 * interval), which then run exactly and take no real time. Not for production. Thread-safe.
 */
public final class ManualNanoClock implements NanoClock {
    private final AtomicLong now;
    private final AtomicInteger parks = new AtomicInteger();
    private volatile LongConsumer onPark = nanos -> { };

    public ManualNanoClock(long startNanos) {
        this.now = new AtomicLong(startNanos);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    /** Moves the time on by {@code nanos} (at least 0), counts the park, then runs the {@link #onPark} hook. */
    @Override
    public void park(long nanos) {
        now.addAndGet(Math.max(0, nanos));
        parks.incrementAndGet();
        onPark.accept(nanos);
    }

    /** Moves the time on by {@code nanos}. */
    public void advance(long nanos) {
        now.addAndGet(nanos);
    }

    /** Sets the time to {@code nanos}, backwards too (a test of what code does with a clock read out of order). */
    public void set(long nanos) {
        now.set(nanos);
    }

    /** Parks so far. */
    public int parks() {
        return parks.get();
    }

    /** Runs {@code hook} (with the park's length) after every park: a test's way to act while the code waits. */
    public void onPark(LongConsumer hook) {
        this.onPark = hook;
    }
}
