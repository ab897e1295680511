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
 * shape ({@link LatencyHistograms#countsIndex}, {@link LatencyHistograms#valueAtIndex}; checked against it bucket by
 * bucket in its test), so a harvested value
 * lands in the same bucket and the percentiles are the same.
 *
 * <p>Memory: each of the two arrays is 23,552 {@code int}s (92 KB), made with the recorder: 184 KB a recorder
 * (2026-12-01: before, {@code long}s, 368 KB — a paced producer's seven held 2.6 MB, and 3,000 of them exhausted a
 * 6-GB heap). Making each array at its first write instead cost the consumer's per-message path 1.13–1.15× in JMH and
 * was not kept; a recorder its owner may never use (a producer's transaction commits, a share consumer's commit
 * times) is made by the owner at first use.
 *
 * <p>Threads: {@link #record} from exactly one writer thread; {@link #addIntervalTo} from the snapshot
 * thread. Usage per interval: {@code recorder.addIntervalTo(intervalHistogram)}.
 */
public final class LatencyRecorder {
    /**
     * One of the two count arrays, with the index range written since it was last harvested. Counts of one interval:
     * an {@code int} a bucket (one thread would have to record over 35 million values a second into one bucket for an
     * interval of at most 60 s to overflow it).
     */
    private static final class Counts {
        final int[] counts = new int[LatencyHistograms.COUNTS_LENGTH];
        /** Lowest index written; the array's length when none. Writer while active, reader while inactive. */
        int low = LatencyHistograms.COUNTS_LENGTH;
        /** Highest index written; -1 when none. */
        int high = -1;
    }

    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private volatile Counts active = new Counts();
    private Counts inactive = new Counts();
    private final SingleWriterCounter clamped = new SingleWriterCounter();
    private final SingleWriterCounter negative = new SingleWriterCounter();

    // HOT PATH
    public void record(long micros) {
        if (micros < 0) {
            negative.add(1);
            micros = 0;
        } else if (micros > LatencyHistograms.HIGHEST_TRACKABLE_MICROS) {
            clamped.add(1);
            micros = LatencyHistograms.HIGHEST_TRACKABLE_MICROS;
        }
        int i = LatencyHistograms.countsIndex(micros);
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
        int[] counts = taken.counts;
        for (int i = taken.low, high = taken.high; i <= high; i++) {
            long n = counts[i];
            if (n != 0) {
                long value = LatencyHistograms.valueAtIndex(i);
                target.recordValueWithCount(value, n);
                if (also != null) {
                    also.recordValueWithCount(value, n);
                }
                counts[i] = 0;
            }
        }
        taken.low = LatencyHistograms.COUNTS_LENGTH;
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
