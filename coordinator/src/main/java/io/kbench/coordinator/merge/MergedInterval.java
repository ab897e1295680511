package io.kbench.coordinator.merge;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;

/**
 * The figures of one reporting interval across all workers: counters summed, and per latency metric the
 * percentile summary of the sum of every worker's histogram (never percentiles averaged), so its
 * percentiles are exactly those of all the interval's samples.
 *
 * <p>It holds figures, not histograms: a run keeps one of these per interval (about 1 KB) for the console
 * and result.json, while the histograms themselves are added into {@link SummaryHistograms} and dropped.
 *
 * @param index       interval number from the run's start (0-based)
 * @param startMicros interval start, coordinator time
 * @param endMicros   interval end, coordinator time (the latest of the workers' ends)
 * @param counters    summed counters
 * @param stats       per metric, the summary of the merged histogram
 * @param workers     how many workers reported this interval
 * @param errors      errors the workers reported in it, prefixed with the worker id
 * @param consumerLag the consumers' lag at its end, summed over workers (-1 when no worker knew it)
 * @param producerClients the producers' client metrics, aggregated over all workers
 * @param consumerClients the consumers' client metrics, aggregated over all workers
 * @param hosts       the workers' own processes: CPU, GC, heap ({@link HostFigures#NONE} when none reported)
 * @param brokers     the brokers' own figures, one per source read (empty when none is read)
 * @param shareBacklog the share groups' backlog at its end, as the Admin API reads it (records of their topics not
 *                    yet acknowledged by them; -1 when not known or the run has no share groups)
 */
public record MergedInterval(long index, long startMicros, long endMicros, Counters counters,
                             Map<Metric, LatencyStats> stats, int workers, List<String> errors,
                             long consumerLag, ClientSample producerClients, ClientSample consumerClients,
                             HostFigures hosts, List<io.kbench.protocol.BrokerSample> brokers, long shareBacklog) {
    public MergedInterval {
        stats = java.util.Collections.unmodifiableMap(new EnumMap<>(stats));
        errors = List.copyOf(errors);
        hosts = hosts == null ? HostFigures.NONE : hosts;
        brokers = brokers == null ? List.of() : List.copyOf(brokers);
        shareBacklog = Math.max(-1, shareBacklog);
    }

    /** An interval without the share groups' backlog. */
    public MergedInterval(long index, long startMicros, long endMicros, Counters counters,
                          Map<Metric, LatencyStats> stats, int workers, List<String> errors,
                          long consumerLag, ClientSample producerClients, ClientSample consumerClients,
                          HostFigures hosts, List<io.kbench.protocol.BrokerSample> brokers) {
        this(index, startMicros, endMicros, counters, stats, workers, errors, consumerLag, producerClients,
                consumerClients, hosts, brokers, -1);
    }

    /**
     * What the run's consumers have yet to read at the interval's end: the classic consumers' lag plus the share
     * groups' backlog, each where known; -1 when neither is.
     */
    public long unread() {
        return consumerLag < 0 && shareBacklog < 0 ? -1 : Math.max(0, consumerLag) + Math.max(0, shareBacklog);
    }

    /** An interval without the brokers' figures. */
    public MergedInterval(long index, long startMicros, long endMicros, Counters counters,
                          Map<Metric, LatencyStats> stats, int workers, List<String> errors,
                          long consumerLag, ClientSample producerClients, ClientSample consumerClients,
                          HostFigures hosts) {
        this(index, startMicros, endMicros, counters, stats, workers, errors, consumerLag, producerClients,
                consumerClients, hosts, List.of());
    }

    /** An interval without host figures. */
    public MergedInterval(long index, long startMicros, long endMicros, Counters counters,
                          Map<Metric, LatencyStats> stats, int workers, List<String> errors,
                          long consumerLag, ClientSample producerClients, ClientSample consumerClients) {
        this(index, startMicros, endMicros, counters, stats, workers, errors, consumerLag, producerClients,
                consumerClients, HostFigures.NONE);
    }

    /** An interval without lag or client metrics. */
    public MergedInterval(long index, long startMicros, long endMicros, Counters counters,
                          Map<Metric, LatencyStats> stats, int workers, List<String> errors) {
        this(index, startMicros, endMicros, counters, stats, workers, errors, -1, ClientSample.NONE,
                ClientSample.NONE);
    }

    /** The summary of one metric's merged histogram ({@link LatencyStats#EMPTY} when it had no sample). */
    public LatencyStats stats(Metric m) {
        return stats.getOrDefault(m, LatencyStats.EMPTY);
    }

    /**
     * True when the load generator fell behind its schedule in this interval: the publish delay (intended
     * send time to send() called) p99 exceeded {@code thresholdMicros}. Its response times then include
     * the generator's own backlog; a slow cluster shows in publish latency instead.
     */
    public boolean saturated(long thresholdMicros) {
        LatencyStats delay = stats(Metric.PUBLISH_DELAY);
        return delay.count() > 0 && delay.p99() > thresholdMicros;
    }

    /**
     * True when this interval is {@link #saturated} and a load thread of a worker woke from a park at least
     * {@code thresholdMicros} late in it ({@link HostFigures#stallMicrosMax}): the worker was paused or its host gave
     * the thread no core in time, so the delay is the host's, not the load loop's own work.
     */
    public boolean saturatedByStall(long thresholdMicros) {
        return saturated(thresholdMicros) && hosts.stallMicrosMax() >= thresholdMicros;
    }

    /**
     * Over the intervals of {@code window} {@link #saturatedByStall saturated by a stall}, the mean of the busiest
     * worker host's share of CPU time spent running, every process on it counted ({@link HostFigures#hostBusyMax});
     * -1 when there is no such interval or no worker read its host's CPU in them.
     */
    public static double stalledHostBusy(List<MergedInterval> window, long thresholdMicros) {
        return window.stream().filter(i -> i.saturatedByStall(thresholdMicros)).mapToDouble(i -> i.hosts().hostBusyMax())
                .filter(b -> b >= 0).average().orElse(-1);
    }

    /**
     * The intervals of {@code all} (in index order, so in start order) that start in [{@code startMicros},
     * {@code endMicros}): a view, not a copy, found by binary search — a week-long run's spooled list is read, not
     * loaded.
     */
    public static List<MergedInterval> window(List<MergedInterval> all, long startMicros, long endMicros) {
        int from = firstStartingAtOrAfter(all, startMicros);
        int to = Math.max(from, firstStartingAtOrAfter(all, endMicros));
        return all.subList(from, to);
    }

    private static int firstStartingAtOrAfter(List<MergedInterval> all, long micros) {
        int lo = 0;
        int hi = all.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (all.get(mid).startMicros() < micros) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The mean of {@code value} over the first and over the last third of the intervals that {@code has} (in two
     * passes, nothing kept per interval): {first, last, count}; NaNs when fewer than 3 have it.
     */
    public static double[] thirds(List<MergedInterval> window, java.util.function.Predicate<MergedInterval> has,
                                  java.util.function.ToDoubleFunction<MergedInterval> value) {
        int n = 0;
        for (MergedInterval i : window) {
            if (has.test(i)) {
                n++;
            }
        }
        if (n < 3) {
            return new double[] {Double.NaN, Double.NaN, n};
        }
        int third = n / 3;
        double first = 0;
        double last = 0;
        int k = 0;
        for (MergedInterval i : window) {
            if (!has.test(i)) {
                continue;
            }
            if (k < third) {
                first += value.applyAsDouble(i);
            } else if (k >= n - third) {
                last += value.applyAsDouble(i);
            }
            k++;
        }
        return new double[] {first / third, last / third, n};
    }

    /** Seconds this interval spans. */
    public double seconds() {
        return Math.max(1, endMicros - startMicros) / 1e6;
    }

    /**
     * Seconds of this interval inside the measured window {@code [fromMicros, toMicros)}: all of them, but for the
     * interval in which a record-count run's producers stopped ({@code toMicros}), which the window cuts.
     */
    public double secondsWithin(long fromMicros, long toMicros) {
        return Math.max(1, Math.min(endMicros, toMicros) - Math.max(startMicros, fromMicros)) / 1e6;
    }

    /** Whether the window {@code [fromMicros, toMicros)} holds all of this interval. */
    public boolean within(long fromMicros, long toMicros) {
        return startMicros >= fromMicros && endMicros <= toMicros;
    }

    /** The summaries of a set of histograms, one per metric. */
    public static EnumMap<Metric, LatencyStats> statsOf(Map<Metric, Histogram> histograms) {
        EnumMap<Metric, LatencyStats> out = new EnumMap<>(Metric.class);
        histograms.forEach((m, h) -> out.put(m, LatencyStats.of(h)));
        return out;
    }

    /** No samples of any metric. */
    public static EnumMap<Metric, LatencyStats> noStats() {
        EnumMap<Metric, LatencyStats> out = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            out.put(m, LatencyStats.EMPTY);
        }
        return out;
    }

    static EnumMap<Metric, Histogram> emptyHistograms() {
        EnumMap<Metric, Histogram> m = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.values()) {
            m.put(metric, io.kbench.protocol.LatencyHistograms.create());
        }
        return m;
    }
}
