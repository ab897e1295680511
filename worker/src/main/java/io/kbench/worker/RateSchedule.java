package io.kbench.worker;

/**
 * The intended send time of every message of one producer at a fixed rate: message {@code i} is due at
 * {@code start + i / rate} seconds. Exact integer arithmetic, no drift and no overflow for any run
 * shorter than ~290 years. Pure; thread-safe.
 */
public final class RateSchedule {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long startNanos;
    private final long ratePerSecond;

    /**
     * @param startNanos    due time of message 0, {@link System#nanoTime()} units
     * @param ratePerSecond messages per second, at least 1
     */
    public RateSchedule(long startNanos, long ratePerSecond) {
        if (ratePerSecond < 1) {
            throw new IllegalArgumentException("rate must be >= 1 msg/s, got " + ratePerSecond);
        }
        this.startNanos = startNanos;
        this.ratePerSecond = ratePerSecond;
    }

    /** Due time of message {@code index} (0-based). */
    public long intendedNanos(long index) {
        long whole = index / ratePerSecond;
        long rest = index % ratePerSecond;
        return startNanos + whole * NANOS_PER_SECOND + rest * NANOS_PER_SECOND / ratePerSecond;
    }

    /** Number of messages due strictly before {@code nanos}: the count a punctual producer has sent by then. */
    public long dueBefore(long nanos) {
        if (nanos <= startNanos) {
            return 0;
        }
        long elapsed = nanos - startNanos;
        long whole = elapsed / NANOS_PER_SECOND;
        long rest = elapsed % NANOS_PER_SECOND;
        // ceil(rest * rate / 1e9) messages fall in the partial second
        return whole * ratePerSecond + (rest * ratePerSecond + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND;
    }
}
