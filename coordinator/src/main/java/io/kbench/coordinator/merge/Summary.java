package io.kbench.coordinator.merge;

import java.util.EnumMap;
import java.util.List;

import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;

/**
 * The figures of a whole run, computed from the merged intervals. Pure.
 *
 * <p>Totals ({@code sent}, {@code acked}, {@code failed}, {@code received}) count every interval, warm-up
 * and drain included, so that sent = acked = received × subscriptions is the "nothing lost" check. Rates
 * count the intervals of the measured window only (after warm-up, before the producers' end), divided by
 * its length. Latency histograms add every interval from the end of warm-up on, including the drain after
 * the producers stopped (messages sent in the window and received late belong to the window).
 * MB is 1,048,576 bytes, as the Kafka tools print it.
 *
 * <p>{@code verification} is null when the run did not verify ({@code shareVerification}: the share groups'
 * per-record check, null when not made); {@code endToEndUncertaintyMicros} bounds the
 * clock error in every end-to-end sample (0 until {@link #withClocks} sets it). {@code totals} and
 * {@code window} are the counters of the whole run and of the measured window (the share consumers' figures are
 * read from them).
 */
public record Summary(long sent, long acked, long failed, long received, long clamped, long negativeEndToEnd,
                      double measuredSeconds, long measuredAcked, long measuredReceived, long measuredReceivedBytes,
                      double publishRate, double publishMBps, double consumeRate, double consumeMBps,
                      EnumMap<Metric, Histogram> histograms, Verification verification,
                      long endToEndUncertaintyMicros, long saturatedIntervals, Counters totals, Counters window,
                      ShareVerifier.Result shareVerification) {
    private static final double MB = 1024.0 * 1024.0;

    public Summary {
        totals = totals == null ? Counters.ZERO : totals;
        window = window == null ? Counters.ZERO : window;
    }

    /** A summary without the share groups' per-record check. */
    public Summary(long sent, long acked, long failed, long received, long clamped, long negativeEndToEnd,
                   double measuredSeconds, long measuredAcked, long measuredReceived, long measuredReceivedBytes,
                   double publishRate, double publishMBps, double consumeRate, double consumeMBps,
                   EnumMap<Metric, Histogram> histograms, Verification verification,
                   long endToEndUncertaintyMicros, long saturatedIntervals, Counters totals, Counters window) {
        this(sent, acked, failed, received, clamped, negativeEndToEnd, measuredSeconds, measuredAcked, measuredReceived,
                measuredReceivedBytes, publishRate, publishMBps, consumeRate, consumeMBps, histograms, verification,
                endToEndUncertaintyMicros, saturatedIntervals, totals, window, null);
    }

    /** A summary without the run's and window's counters (as before share groups). */
    public Summary(long sent, long acked, long failed, long received, long clamped, long negativeEndToEnd,
                   double measuredSeconds, long measuredAcked, long measuredReceived, long measuredReceivedBytes,
                   double publishRate, double publishMBps, double consumeRate, double consumeMBps,
                   EnumMap<Metric, Histogram> histograms, Verification verification,
                   long endToEndUncertaintyMicros, long saturatedIntervals) {
        this(sent, acked, failed, received, clamped, negativeEndToEnd, measuredSeconds, measuredAcked, measuredReceived,
                measuredReceivedBytes, publishRate, publishMBps, consumeRate, consumeMBps, histograms, verification,
                endToEndUncertaintyMicros, saturatedIntervals, Counters.ZERO, Counters.ZERO);
    }

    /** The share consumers' deliveries per second over the measured window. */
    public double shareDeliverRate() {
        return rate(window.shareDelivered(), measuredSeconds);
    }

    /** The share consumers' MB/s delivered over the measured window. */
    public double shareDeliverMBps() {
        return rate(window.shareDeliveredBytes() / MB, measuredSeconds);
    }

    /** The share consumers' acceptances per second over the measured window. */
    public double shareAcceptRate() {
        return rate(window.shareAccepted(), measuredSeconds);
    }

    /**
     * What verification found over the whole run.
     *
     * @param lost       acknowledged messages a subscription never received: gaps in the sequences, and at the
     *                   end the acknowledged count (times subscriptions) minus the distinct messages received,
     *                   whichever is larger
     * @param duplicated messages received more than once (per subscription)
     * @param outOfOrder messages received after a later one of their producer and partition
     * @param untracked  messages beyond the consumers' tracking bound (not verified)
     */
    public record Verification(long lost, long duplicated, long outOfOrder, long untracked) { }

    /** This summary with verification figures: gaps found plus the tail never received. */
    public Summary withVerification(Counters totals, long expectedDistinct) {
        long lost = Math.max(totals.lost(), expectedDistinct - totals.verified() - totals.untracked());
        return new Summary(sent, acked, failed, received, clamped, negativeEndToEnd, measuredSeconds, measuredAcked,
                measuredReceived, measuredReceivedBytes, publishRate, publishMBps, consumeRate, consumeMBps, histograms,
                new Verification(Math.max(0, lost), totals.duplicated(), totals.outOfOrder(), totals.untracked()),
                endToEndUncertaintyMicros, saturatedIntervals, this.totals, window, shareVerification);
    }

    /** This summary with what the share groups' per-record check found (null: not checked). */
    public Summary withShareVerification(ShareVerifier.Result result) {
        return new Summary(sent, acked, failed, received, clamped, negativeEndToEnd, measuredSeconds, measuredAcked,
                measuredReceived, measuredReceivedBytes, publishRate, publishMBps, consumeRate, consumeMBps, histograms,
                verification, endToEndUncertaintyMicros, saturatedIntervals, totals, window, result);
    }

    /**
     * This summary with {@code count} failed sends: a failed run's diagnosis counts those of its measured window only,
     * which ends before the failure — the others failed in the stop (producers closed at once), by kbench's doing.
     */
    public Summary withFailed(long count) {
        return new Summary(sent, acked, count, received, clamped, negativeEndToEnd, measuredSeconds, measuredAcked,
                measuredReceived, measuredReceivedBytes, publishRate, publishMBps, consumeRate, consumeMBps, histograms,
                verification, endToEndUncertaintyMicros, saturatedIntervals, totals, window, shareVerification);
    }

    /** This summary with the clock error bound of its end-to-end samples. */
    public Summary withClocks(long uncertaintyMicros) {
        return new Summary(sent, acked, failed, received, clamped, negativeEndToEnd, measuredSeconds, measuredAcked,
                measuredReceived, measuredReceivedBytes, publishRate, publishMBps, consumeRate, consumeMBps, histograms,
                verification, uncertaintyMicros, saturatedIntervals, totals, window, shareVerification);
    }

    /**
     * @param intervals          every merged interval of the run
     * @param measureStartMicros end of warm-up, coordinator time
     * @param measureEndMicros   instant the producers stopped, coordinator time
     * @param histograms         the cumulative histograms of the intervals from {@code measureStartMicros} on
     *                           ({@link SummaryHistograms})
     */
    public static Summary of(List<MergedInterval> intervals, long measureStartMicros, long measureEndMicros,
                             long saturationMicros, EnumMap<Metric, Histogram> histograms) {
        Accumulator a = new Accumulator(measureStartMicros, measureEndMicros, saturationMicros);
        for (MergedInterval i : intervals) {
            a.add(i);
        }
        return a.summary(histograms);
    }

    /**
     * {@link #of} one interval at a time, for a summary kept up to date as intervals arrive (the dashboard)
     * without keeping them: the run's counters, and the measured window's counters, end and saturated intervals.
     * Not thread-safe.
     */
    public static final class Accumulator {
        private long measureStartMicros;
        private final long measureEndMicros;
        private final long saturationMicros;
        private Counters all = Counters.ZERO;
        private Counters window = Counters.ZERO;
        private long saturated;
        private long measured;
        private long windowEnd;

        public Accumulator(long measureStartMicros, long measureEndMicros, long saturationMicros) {
            this.measureStartMicros = measureStartMicros;
            this.measureEndMicros = measureEndMicros;
            this.saturationMicros = saturationMicros;
            this.windowEnd = measureStartMicros;
        }

        /** Intervals that start from now on at or after {@code micros} are measured (a warm-up by record count ended). */
        public void measureFrom(long micros) {
            measureStartMicros = micros;
            windowEnd = measured == 0 ? micros : Math.max(windowEnd, micros);
        }

        public void add(MergedInterval i) {
            all = all.plus(i.counters());
            if (i.startMicros() >= measureStartMicros && i.startMicros() < measureEndMicros) {
                window = window.plus(i.counters());
                measured++;
                saturated += i.saturated(saturationMicros) ? 1 : 0;
                windowEnd = Math.max(windowEnd, Math.min(i.endMicros(), measureEndMicros));
            }
        }

        /** The end of the last measured interval so far. */
        public long windowEndMicros() {
            return windowEnd;
        }

        public Summary summary(EnumMap<Metric, Histogram> histograms) {
            double seconds = measureStartMicros == Long.MAX_VALUE ? 0 : (windowEnd - measureStartMicros) / 1e6;
            return new Summary(all.sent(), all.acked(), all.failed(), all.received(), all.clamped(),
                    all.negativeEndToEnd(), seconds, window.acked(), window.received(), window.receivedBytes(),
                    rate(window.acked(), seconds), rate(window.ackedBytes() / MB, seconds),
                    rate(window.received(), seconds), rate(window.receivedBytes() / MB, seconds), histograms, null, 0,
                    saturated, all, window);
        }
    }

    private static double rate(double amount, double seconds) {
        return seconds <= 0 ? 0 : Math.round(amount / seconds * 100) / 100.0;
    }

    public LatencyStats stats(Metric m) {
        return LatencyStats.of(histograms.get(m));
    }
}
