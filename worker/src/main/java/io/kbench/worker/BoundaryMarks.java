package io.kbench.worker;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * A run's interval boundaries as one writer thread passes them, and what it had counted at each of the last
 * {@link ProducerMetrics#BOUNDARY_MARKS}: a producer's load thread (its sends) and I/O thread (its acknowledged bytes),
 * a consumer's thread ({@link ConsumerMetrics}, {@link ShareConsumerMetrics}) note their counts as they pass each, and
 * the snapshot thread takes interval k's counts at boundary k + 1 whenever it harvests ({@link #before}).
 * The writer keeps the next boundary in a field of its own, compared on its hot path; this is its slow path, once an
 * interval.
 *
 * @param <T> what the writer counts (read at each boundary passed)
 */
final class BoundaryMarks<T> {
    /** The first boundary on the worker's {@link io.kbench.driver.NanoClock}; written before {@link #intervalNanos}. */
    private volatile long firstNanos;
    /** The reporting interval, ns; 0: no boundaries (the writer's one recorder takes all). */
    private volatile long intervalNanos;
    /** The last boundary passed: 1 is the end of interval 0. Writer only. */
    private long passed;
    private final AtomicReferenceArray<Mark<T>> marks = new AtomicReferenceArray<>(ProducerMetrics.BOUNDARY_MARKS);

    private record Mark<T>(long boundary, T counts) {
    }

    /** The boundaries: {@code startNanos} + k × {@code intervalNanos}, k ≥ 1. Before the writer's first message. */
    void set(long startNanos, long intervalNanos) {
        this.firstNanos = startNanos + intervalNanos;
        this.intervalNanos = intervalNanos; // last: the writer reads the first boundary once it sees this
    }

    /** True while there are no boundaries (not set, or a run without them). */
    boolean none() {
        return intervalNanos == 0;
    }

    /**
     * Writer: passes every boundary from {@code next} up to {@code now}, noting {@code counts} at each.
     *
     * @param next the first boundary not passed yet; {@link Long#MIN_VALUE} before the boundaries were read
     * @return the next boundary not passed now ({@link Long#MIN_VALUE} while there are none)
     */
    long pass(long now, long next, Supplier<T> counts) {
        long interval = intervalNanos;
        if (interval == 0) {
            return Long.MIN_VALUE;
        }
        if (next == Long.MIN_VALUE) {
            next = firstNanos;
            if (now < next) {
                return next;
            }
        }
        T at = counts.get();
        do {
            passed++;
            marks.setRelease((int) (passed % ProducerMetrics.BOUNDARY_MARKS), new Mark<>(passed, at));
            next += interval;
        } while (now >= next);
        return next;
    }

    /** The last boundary the writer passed (its interval's parity is this one's). Writer only. */
    long passed() {
        return passed;
    }

    /**
     * The counts at boundary {@code b} as the writer passed it, else {@code live} — read by the caller first: a count
     * after the boundary was made after its mark was set, so a writer that has not passed {@code b} counted nothing
     * since. Snapshot thread.
     */
    T before(long b, T live) {
        Mark<T> m = marks.getAcquire((int) (b % ProducerMetrics.BOUNDARY_MARKS));
        return m != null && m.boundary() == b ? m.counts() : live;
    }
}
