package io.kbench.coordinator.merge;

import org.HdrHistogram.Histogram;

/**
 * Summary of one latency histogram, microseconds. Percentiles are HdrHistogram's (the highest value
 * equivalent to the percentile's bucket, within 3 significant digits).
 */
public record LatencyStats(long count, double mean, long p50, long p75, long p95, long p99, long p999, long p9999,
                           long max) {
    public static final LatencyStats EMPTY = new LatencyStats(0, 0, 0, 0, 0, 0, 0, 0, 0);

    public static LatencyStats of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return EMPTY;
        }
        return new LatencyStats(h.getTotalCount(), Math.round(h.getMean() * 10) / 10.0,
                h.getValueAtPercentile(50), h.getValueAtPercentile(75), h.getValueAtPercentile(95),
                h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99),
                h.getMaxValue());
    }
}
