package io.kbench.worker;

import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Records one latency metric of one producer or consumer, in kbench's histogram shape
 * ({@link LatencyHistograms}), plus counts of the samples that fell outside it. Values above the range are
 * recorded as the maximum and counted as clamped; negative values (possible for end-to-end latency when clock
 * error exceeds it) are recorded as 0 and counted. HOT PATH: {@link #record} is wait-free and allocates nothing.
 *
 * <p>How: HdrHistogram's {@code SingleWriterRecorder} pattern — two count arrays, the writer records into the
 * active one inside a {@link WriterReaderPhaser} critical section, the harvest swaps them and flips the phase —
 * but each array notes the lowest and highest index it was written at since it was last harvested, and a harvest
 * moves and clears only that range. The recorder's own harvest ({@code getIntervalHistogram} then {@code add})
 * cleared and scanned all 23,552 counts of every recorder every interval, whatever it held: with 50 producers and
 * 50 consumers in one worker (250 recorders) that was 47 MB cleared and 47 MB scanned a second, 86 ms of the
 * snapshot thread's CPU per interval on this 2-core VM, 300 ms and more while the JVM was cold — enough for its
 * snapshots to come seconds late. Counts are indexed exactly as HdrHistogram indexes a histogram of kbench's
 * shape ({@link #index}, {@link #valueAt}; checked against it value by value in the tests), so a harvested value
 * lands in the same bucket and the percentiles are the same.
 *
 * <p>Threads: {@link #record} from exactly one writer thread; {@link #addIntervalTo} from the snapshot
 * thread. Usage per interval: {@code recorder.addIntervalTo(intervalHistogram)}.
 */
public final class LatencyRecorder {
    /** kbench's shape, 1 µs to 1 h at 3 significant digits: HdrHistogram's sub-bucket count, 2^11. */
    static final int SUB_BUCKET_HALF_COUNT_MAGNITUDE = 10;
    static final int SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_COUNT_MAGNITUDE;
    static final long SUB_BUCKET_MASK = (2L * SUB_BUCKET_HALF_COUNT) - 1;
    /** 64 - unit magnitude (0: 1 µs) - sub-bucket count magnitude (11). */
    static final int LEADING_ZERO_COUNT_BASE = 53;
    /** (buckets + 1) × half the sub-bucket count: 22 buckets reach one hour. */
    static final int LENGTH = 23 * SUB_BUCKET_HALF_COUNT;

    /** One of the two count arrays, with the index range written since it was last harvested. */
    private static final class Counts {
        final long[] counts = new long[LENGTH];
        /** Lowest index written; {@code LENGTH} when none. Writer while active, reader while inactive. */
        int low = LENGTH;
        /** Highest index written; -1 when none. */
        int high = -1;
    }

    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private volatile Counts active = new Counts();
    private Counts inactive = new Counts();
    private final SingleWriterCounter clamped = new SingleWriterCounter();
    private final SingleWriterCounter negative = new SingleWriterCounter();

    /** The counts index of {@code value} (0 to {@link LatencyHistograms#HIGHEST_TRACKABLE_MICROS}), as HdrHistogram's. */
    static int index(long value) {
        int bucket = LEADING_ZERO_COUNT_BASE - Long.numberOfLeadingZeros(value | SUB_BUCKET_MASK);
        int subBucket = (int) (value >>> bucket);
        return ((bucket + 1) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + subBucket - SUB_BUCKET_HALF_COUNT;
    }

    /** The lowest value counted at {@code index}, as HdrHistogram's {@code valueFromIndex}. */
    static long valueAt(int index) {
        int bucket = (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
        int subBucket = (index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT;
        if (bucket < 0) {
            subBucket -= SUB_BUCKET_HALF_COUNT;
            bucket = 0;
        }
        return ((long) subBucket) << bucket;
    }

    // HOT PATH
    public void record(long micros) {
        if (micros < 0) {
            negative.add(1);
            micros = 0;
        } else if (micros > LatencyHistograms.HIGHEST_TRACKABLE_MICROS) {
            clamped.add(1);
            micros = LatencyHistograms.HIGHEST_TRACKABLE_MICROS;
        }
        int i = index(micros);
        long phase = phaser.writerCriticalSectionEnter();
        try {
            Counts c = active;
            c.counts[i]++;
            if (i < c.low) {
                c.low = i;
            }
            if (i > c.high) {
                c.high = i;
            }
        } finally {
            phaser.writerCriticalSectionExit(phase);
        }
    }

    /** Moves what was recorded since the last call into {@code target}. Snapshot thread only. */
    public void addIntervalTo(Histogram target) {
        addIntervalTo(target, null);
    }

    /** Moves what was recorded since the last call into {@code target} and adds it to {@code also} (null: none). */
    public void addIntervalTo(Histogram target, Histogram also) {
        Counts taken = swap();
        long[] counts = taken.counts;
        for (int i = taken.low, high = taken.high; i <= high; i++) {
            long n = counts[i];
            if (n != 0) {
                long value = valueAt(i);
                target.recordValueWithCount(value, n);
                if (also != null) {
                    also.recordValueWithCount(value, n);
                }
                counts[i] = 0;
            }
        }
        taken.low = LENGTH;
        taken.high = -1;
    }

    /**
     * Makes the inactive counts (cleared) the active ones and returns those recorded into until now, once no write
     * to them is in flight.
     */
    private Counts swap() {
        phaser.readerLock();
        try {
            Counts taken = active;
            active = inactive;
            inactive = taken;
            phaser.flipPhase(500_000L);
            return taken;
        } finally {
            phaser.readerUnlock();
        }
    }

    /** Samples above the range so far (cumulative). */
    public long clamped() {
        return clamped.get();
    }

    /** Negative samples so far (cumulative). */
    public long negative() {
        return negative.get();
    }
}
