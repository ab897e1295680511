package io.kbench.coordinator.merge;

import java.util.EnumMap;

import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;

/**
 * The run's cumulative histograms, one per metric: every merged interval from the start of measurement on
 * (the drain after the producers stopped included), added as the intervals are merged so that a run holds
 * five histograms however long it lasts. They are what the summary's percentiles and result.json's encoded
 * histograms are computed from.
 *
 * <p>Measurement starts either at a known instant (the end of a warm-up by time) or, for a warm-up by
 * count, at the end of the interval in which the cumulative acknowledged count reached the warm-up count;
 * until then the intervals after {@code fallbackStartMicros} are kept, for a run that never gets there.
 * Intervals must be added in order. An interval counts when it starts at or after the measurement start.
 *
 * <p>Not thread-safe: {@link IntervalMerger} calls it under its lock.
 */
public final class SummaryHistograms {
    private final long warmupRecords;
    private long measureStartMicros;
    private long acked;
    private boolean warmedUp;
    private EnumMap<Metric, Histogram> histograms = MergedInterval.emptyHistograms();
    /** Every interval's, warm-up included; kept for a warm-up by count only (the Kafka tool's whole-run line). */
    private final EnumMap<Metric, Histogram> wholeRun;
    /** Acknowledged messages of the intervals added so far (every interval), for a backlog's size at its release. */
    private long ackedSoFar;
    /** A backlog run's catch-up, followed from its release on ({@link #catchUpFrom}); null before. */
    private CatchUp.Tracker catchUp;
    /** End-to-end latency of the measured intervals after the one in which the backlog was read, null until one. */
    private Histogram afterCatchUp;
    /** Start of the first of those intervals (coordinator µs). */
    private long afterFromMicros;

    private SummaryHistograms(long measureStartMicros, long warmupRecords) {
        this.measureStartMicros = measureStartMicros;
        this.warmupRecords = warmupRecords;
        this.warmedUp = warmupRecords <= 0;
        this.wholeRun = warmupRecords > 0 ? MergedInterval.emptyHistograms() : null;
    }

    /** Measurement starts at {@code measureStartMicros} (coordinator time). */
    public static SummaryHistograms from(long measureStartMicros) {
        return new SummaryHistograms(measureStartMicros, 0);
    }

    /**
     * Measurement starts at the end of the interval in which {@code records} messages had been acknowledged
     * in all, or at {@code fallbackStartMicros} if that never happens.
     */
    public static SummaryHistograms afterRecords(long records, long fallbackStartMicros) {
        if (records < 1) {
            throw new IllegalArgumentException("warm-up records must be >= 1, got " + records);
        }
        return new SummaryHistograms(fallbackStartMicros, records);
    }

    /**
     * A backlog run's consumers were released at {@code releaseMicros} with {@code ackedAtRelease} messages
     * acknowledged as last reported: from the interval after the one in which they have read the backlog — its size
     * as {@link CatchUp#of} takes it (at least {@code ackedAtRelease}, else the acknowledged count interpolated at
     * the release), times {@code readers} subscriptions — their end-to-end latency is also kept apart, as the live
     * latency after the catch-up, which the run's end-to-end latency mixes with the backlog's wait.
     */
    void catchUpFrom(long releaseMicros, long ackedAtRelease, int readers) {
        if (catchUp == null && releaseMicros > 0 && readers > 0) {
            catchUp = new CatchUp.Tracker(releaseMicros, ackedAtRelease, readers, ackedSoFar);
        }
    }

    /** Adds the next interval in order: its histograms count if it lies in the measurement. */
    void add(MergedInterval interval, EnumMap<Metric, Histogram> intervalHistograms) {
        ackedSoFar += interval.counters().acked();
        boolean afterCaughtUp = catchUp != null && catchUp.add(interval);
        if (wholeRun != null) {
            intervalHistograms.forEach((m, h) -> wholeRun.get(m).add(h));
        }
        if (!warmedUp) {
            acked += interval.counters().acked();
            if (acked >= warmupRecords) {
                warmedUp = true;
                measureStartMicros = interval.endMicros();
                histograms = MergedInterval.emptyHistograms();
                return;
            }
        }
        if (interval.startMicros() >= measureStartMicros) {
            intervalHistograms.forEach((m, h) -> histograms.get(m).add(h));
            Histogram e2e = intervalHistograms.get(Metric.END_TO_END);
            if (afterCaughtUp && e2e != null) {
                // measured intervals only, as the run's own figures
                if (afterCatchUp == null) {
                    afterCatchUp = io.kbench.protocol.LatencyHistograms.create();
                    afterFromMicros = interval.startMicros();
                }
                afterCatchUp.add(e2e);
            }
        }
    }

    /**
     * The end-to-end latency of the measured intervals after a backlog's catch-up (a copy), and from when (coordinator
     * µs): null before any, or without a backlog.
     */
    public AfterCatchUp afterCatchUp() {
        return afterCatchUp == null ? null : new AfterCatchUp(afterFromMicros, afterCatchUp.copy());
    }

    /** A backlog run's catch-up with the end-to-end latency after it; null before the backlog was read, or without one. */
    public CatchUp catchUp() {
        CatchUp c = catchUp == null ? null : catchUp.result();
        return c == null ? null : c.withAfter(afterCatchUp());
    }

    /** End-to-end latency of the intervals from {@code fromMicros} on, after a backlog's catch-up. */
    public record AfterCatchUp(long fromMicros, Histogram endToEnd) { }

    /** Where measurement starts as far as the intervals added so far tell (coordinator µs). */
    public long measureStartMicros() {
        return measureStartMicros;
    }

    /** True once the warm-up (by time or by count) is known to have ended within the intervals added. */
    public boolean warmedUp() {
        return warmedUp;
    }

    /**
     * A copy of the histograms of every interval added, warm-up included, for a warm-up by count; null for a
     * warm-up by time (whose warm-up intervals are not kept).
     */
    public EnumMap<Metric, Histogram> wholeRunCopy() {
        if (wholeRun == null) {
            return null;
        }
        EnumMap<Metric, Histogram> out = new EnumMap<>(Metric.class);
        wholeRun.forEach((m, h) -> out.put(m, h.copy()));
        return out;
    }

    /** A copy of the cumulative histograms. */
    public EnumMap<Metric, Histogram> copy() {
        EnumMap<Metric, Histogram> out = new EnumMap<>(Metric.class);
        histograms.forEach((m, h) -> out.put(m, h.copy()));
        return out;
    }
}
