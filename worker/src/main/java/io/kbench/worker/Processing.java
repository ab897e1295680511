package io.kbench.worker;

import java.util.SplittableRandom;

import io.kbench.driver.NanoClock;

/**
 * A consumer's processing time per message ({@code consumerProcessingMillis}, {@code consumerProcessingDistribution}):
 * each message's time is drawn from the distribution (a seeded draw per consumer) and the consumer's thread waits
 * it, as one waiting on I/O does (it parks; it does not spin a core), in steps until the time is up. A step
 * overshoots by the OS's timer slack, about 0.05-0.1 ms on Linux, so times below a millisecond come out a little
 * long. Owned by one consumer's thread.
 */
public final class Processing {
    /** How each message's time is drawn around the mean. */
    public enum Distribution {
        /** Every message the mean. */
        FIXED,
        /** Uniform between 0 and twice the mean. */
        UNIFORM,
        /** Exponential with the mean (many short, a few long), each at most {@link #MAX_NANOS}. */
        EXPONENTIAL
    }

    /** The longest one message's processing takes (one minute). */
    static final long MAX_NANOS = 60_000_000_000L;

    /** No processing time. */
    static final Processing NONE = new Processing(0, Distribution.FIXED, 0);

    private final long meanNanos;
    private final Distribution distribution;
    private final SplittableRandom random;

    /**
     * @param meanMicros the mean time per message, µs (0: none)
     * @param seed       seed of this consumer's draws
     */
    Processing(long meanMicros, Distribution distribution, long seed) {
        if (meanMicros < 0 || meanMicros * 1000 > MAX_NANOS) {
            throw new IllegalArgumentException("processing " + meanMicros + " µs");
        }
        this.meanNanos = meanMicros * 1000;
        this.distribution = distribution;
        this.random = new SplittableRandom(seed);
    }

    /** The next message's time, ns. */
    long nextNanos() {
        return switch (distribution) {
            case FIXED -> meanNanos;
            case UNIFORM -> (long) (random.nextDouble() * 2 * meanNanos);
            case EXPONENTIAL -> (long) Math.min(MAX_NANOS, -meanNanos * Math.log(1 - random.nextDouble()));
        };
    }

    /** True when messages take any time. */
    boolean any() {
        return meanNanos > 0;
    }

    // HOT PATH (consumer thread)
    /** Waits the next message's time. */
    void process(NanoClock nanos) {
        if (meanNanos > 0) {
            waitFor(nanos, nextNanos());
        }
    }

    static void waitFor(NanoClock nanos, long processingNanos) {
        long end = nanos.nanoTime() + processingNanos;
        for (long left = processingNanos; left > 0; left = end - nanos.nanoTime()) {
            nanos.park(left);
        }
    }
}
