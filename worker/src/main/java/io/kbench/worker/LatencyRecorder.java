package io.kbench.worker;

import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Records one latency metric of one producer or consumer: a {@link SingleWriterRecorder} of kbench's
 * histogram shape, plus counts of the samples that fell outside it. Values above the range are recorded as
 * the maximum and counted as clamped; negative values (possible for end-to-end latency when clock error
 * exceeds it) are recorded as 0 and counted. HOT PATH: {@link #record} is wait-free and allocates nothing.
 *
 * <p>Threads: {@link #record} from exactly one writer thread; {@link #addIntervalTo} from the snapshot
 * thread. Usage per interval: {@code recorder.addIntervalTo(intervalHistogram)}.
 */
public final class LatencyRecorder {
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(
            LatencyHistograms.LOWEST_DISCERNIBLE_MICROS, LatencyHistograms.HIGHEST_TRACKABLE_MICROS,
            LatencyHistograms.SIGNIFICANT_DIGITS);
    private final SingleWriterCounter clamped = new SingleWriterCounter();
    private final SingleWriterCounter negative = new SingleWriterCounter();
    private Histogram recycled;

    // HOT PATH
    public void record(long micros) {
        if (micros < 0) {
            negative.add(1);
            micros = 0;
        } else if (micros > LatencyHistograms.HIGHEST_TRACKABLE_MICROS) {
            clamped.add(1);
            micros = LatencyHistograms.HIGHEST_TRACKABLE_MICROS;
        }
        recorder.recordValue(micros);
    }

    /** Moves what was recorded since the last call into {@code target}. Snapshot thread only. */
    public void addIntervalTo(Histogram target) {
        recycled = recorder.getIntervalHistogram(recycled);
        target.add(recycled);
    }

    /** Moves what was recorded since the last call into {@code target} and adds it to {@code also}. */
    public void addIntervalTo(Histogram target, Histogram also) {
        addIntervalTo(target);
        also.add(recycled);
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
