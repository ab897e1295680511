package io.kbench.coordinator.merge;

import java.util.EnumMap;
import java.util.List;

import org.HdrHistogram.Histogram;

/**
 * One reporting interval across all workers: counters summed and histograms added (never percentiles
 * averaged), so its percentiles are exactly those of all the interval's samples.
 *
 * @param index       interval number from the run's start (0-based)
 * @param startMicros interval start, coordinator time
 * @param endMicros   interval end, coordinator time (the latest of the workers' ends)
 * @param counters    summed counters
 * @param histograms  per metric, the sum of every worker's histogram
 * @param workers     how many workers reported this interval
 * @param errors      errors the workers reported in it, prefixed with the worker id
 * @param consumerLag the consumers' lag at its end, summed over workers (-1 when no worker knew it)
 * @param producerClients the producers' client metrics, aggregated over all workers
 * @param consumerClients the consumers' client metrics, aggregated over all workers
 */
public record MergedInterval(long index, long startMicros, long endMicros, Counters counters,
                             EnumMap<Metric, Histogram> histograms, int workers, List<String> errors,
                             long consumerLag, ClientSample producerClients, ClientSample consumerClients) {
    /** An interval without lag or client metrics. */
    public MergedInterval(long index, long startMicros, long endMicros, Counters counters,
                          EnumMap<Metric, Histogram> histograms, int workers, List<String> errors) {
        this(index, startMicros, endMicros, counters, histograms, workers, errors, -1, ClientSample.NONE,
                ClientSample.NONE);
    }

    public Histogram histogram(Metric m) {
        return histograms.get(m);
    }

    /**
     * True when the load generator fell behind its schedule in this interval: the publish delay (intended
     * send time to send() called) p99 exceeded {@code thresholdMicros}. Its response times then include
     * the generator's own backlog; a slow cluster shows in publish latency instead.
     */
    public boolean saturated(long thresholdMicros) {
        Histogram delay = histograms.get(Metric.PUBLISH_DELAY);
        return delay.getTotalCount() > 0 && delay.getValueAtPercentile(99) > thresholdMicros;
    }

    /** Seconds this interval spans. */
    public double seconds() {
        return Math.max(1, endMicros - startMicros) / 1e6;
    }

    static EnumMap<Metric, Histogram> emptyHistograms() {
        EnumMap<Metric, Histogram> m = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.values()) {
            m.put(metric, io.kbench.protocol.LatencyHistograms.create());
        }
        return m;
    }
}
