package io.kbench.coordinator.merge;

import java.util.EnumMap;
import java.util.List;

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
 */
public record Summary(long sent, long acked, long failed, long received, long clamped, long negativeEndToEnd,
                      double measuredSeconds, long measuredAcked, long measuredReceived, long measuredReceivedBytes,
                      double publishRate, double publishMBps, double consumeRate, double consumeMBps,
                      EnumMap<Metric, Histogram> histograms) {
    private static final double MB = 1024.0 * 1024.0;

    /**
     * @param intervals          every merged interval of the run
     * @param measureStartMicros end of warm-up, coordinator time
     * @param measureEndMicros   instant the producers stopped, coordinator time
     */
    public static Summary of(List<MergedInterval> intervals, long measureStartMicros, long measureEndMicros) {
        Counters all = Counters.ZERO;
        Counters window = Counters.ZERO;
        long windowEnd = measureStartMicros;
        EnumMap<Metric, Histogram> histograms = MergedInterval.emptyHistograms();
        for (MergedInterval i : intervals) {
            all = all.plus(i.counters());
            if (i.startMicros() >= measureStartMicros) {
                i.histograms().forEach((m, h) -> histograms.get(m).add(h));
                if (i.startMicros() < measureEndMicros) {
                    window = window.plus(i.counters());
                    windowEnd = Math.max(windowEnd, Math.min(i.endMicros(), measureEndMicros));
                }
            }
        }
        double seconds = (windowEnd - measureStartMicros) / 1e6;
        return new Summary(all.sent(), all.acked(), all.failed(), all.received(), all.clamped(),
                all.negativeEndToEnd(), seconds, window.acked(), window.received(), window.receivedBytes(),
                rate(window.acked(), seconds), rate(window.ackedBytes() / MB, seconds),
                rate(window.received(), seconds), rate(window.receivedBytes() / MB, seconds), histograms);
    }

    /**
     * End of the warm-up of a warm-up-by-count run: the end of the interval in which the cumulative
     * acknowledged count reached {@code records}, or {@code fallback} if it never did.
     */
    public static long warmupEndByRecords(List<MergedInterval> intervals, long records, long fallback) {
        long acked = 0;
        for (MergedInterval i : intervals) {
            acked += i.counters().acked();
            if (acked >= records) {
                return i.endMicros();
            }
        }
        return fallback;
    }

    private static double rate(double amount, double seconds) {
        return seconds <= 0 ? 0 : Math.round(amount / seconds * 100) / 100.0;
    }

    public LatencyStats stats(Metric m) {
        return LatencyStats.of(histograms.get(m));
    }
}
