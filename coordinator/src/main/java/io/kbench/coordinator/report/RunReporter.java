package io.kbench.coordinator.report;

import java.util.List;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;

/**
 * What a run shows its user while it goes: kbench's own progress lines ({@link ProgressPrinter}) or the
 * Kafka perf tools' line shapes. Called from the coordinator's thread and from gRPC threads as intervals
 * complete; implementations serialize their output.
 */
public interface RunReporter {
    /** A line of information about the run (plan, failure, issue, where results went). */
    void info(String line);

    /**
     * Every consumer group owns all its partitions: preparing began at {@code prepareStartMicros} and was
     * complete at {@code readyMicros} (coordinator time); the slowest consumer took {@code rebalanceMicros}
     * from subscribing to its first assignment.
     */
    default void prepared(long prepareStartMicros, long readyMicros, long rebalanceMicros) {
    }

    /** The publish-delay p99 above which an interval is marked generator-saturated (µs). */
    default void saturationThreshold(long micros) {
    }

    /** The agreed start instant and the end of warm-up are known (coordinator time, µs). */
    void started(long runStartMicros, long measureStartMicros);

    /**
     * The bound on the clock error of end-to-end samples (µs), as now known; called before the first interval
     * and whenever a re-estimate of a worker's clock changes it.
     */
    default void clockBound(long micros) {
    }

    /** The run's fault timeline: intervals in which a broker was down may be marked. */
    default void faults(io.kbench.coordinator.FaultTimeline timeline) {
    }

    /** The run is planned: its id and workload (before any worker is prepared). */
    default void begin(String runId, io.kbench.coordinator.workload.Workload workload) {
    }

    /** A snapshot of {@code workerId} arrived at {@code micros} (coordinator time). */
    default void workerHeard(String workerId, long micros) {
    }

    /** The run's result as written to result.json (also for a failed run). */
    default void result(ResultFile.Run result) {
    }

    /**
     * The clients' full metrics from a worker's last snapshot, when the run asked for them (the Kafka tools'
     * {@code --print-metrics}); called before {@link #summary}, once per worker that had clients.
     */
    default void clientMetrics(List<io.kbench.protocol.ClientMetricsDump> dumps) {
    }

    /**
     * Each consumer's records and bytes over the whole run, from a worker's last snapshot; called before
     * {@link #summary}, once per worker that had consumers (the tools' per-consumer lines).
     */
    default void consumerTotals(List<io.kbench.protocol.ConsumerTotal> totals) {
    }

    /**
     * For a warm-up by count only, before {@link #summary} (which then covers the steady state): the figures of
     * the whole run, warm-up included (as the Kafka tool's first total line).
     */
    default void wholeRun(String title, Summary wholeRun) {
    }

    /** One interval merged across all workers. */
    void interval(MergedInterval interval);

    /**
     * The cluster-wide histograms (µs) of an interval, on the merging thread while it completes the interval (before
     * {@link #interval}); read them, do not keep or change them.
     */
    default void intervalHistograms(MergedInterval interval, java.util.EnumMap<io.kbench.protocol.Metric,
            org.HdrHistogram.Histogram> histograms) {
    }

    /** The run's figures, once at the end. */
    void summary(String title, Summary summary, int subscriptionsPerTopic);
}
