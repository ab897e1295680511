package io.kbench.coordinator.report;

import java.util.EnumMap;
import java.util.List;

import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.ClientMetricsDump;
import io.kbench.protocol.ConsumerTotal;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;

/**
 * What happens in a run, as its {@link RunReporter}s hear of it, roughly in this order: {@link Begin}, {@link Info}
 * lines throughout, {@link Prepared}, {@link SaturationThreshold}, {@link Started}, {@link Faults},
 * {@link ClockBound} (again whenever it changes), then per snapshot {@link WorkerHeard} (and {@link RoundTrips}) and per
 * merged interval
 * {@link IntervalHistograms} and {@link Interval}; at the end {@link ClientMetrics} and {@link ConsumerTotals} (per
 * worker, when asked for), {@link WholeRun}, {@link Summarized} and {@link Result}. A reporter that passes events on
 * passes the event itself, so none is dropped on the way.
 */
public sealed interface RunEvent {
    /** The run is planned: its id and workload (before any worker is prepared). */
    record Begin(String runId, Workload workload) implements RunEvent { }

    /** A line of information about the run (plan, failure, issue, where results went). */
    record Info(String line) implements RunEvent {
        /** How the line that says the run failed begins (the console and the dashboard read it). */
        public static final String RUN_FAILED = "run failed: ";
    }

    /**
     * Every consumer group owns all its partitions: preparing began at {@code prepareStartMicros} and was complete at
     * {@code readyMicros} (coordinator time); the slowest consumer took {@code rebalanceMicros} from subscribing to
     * its first assignment.
     */
    record Prepared(long prepareStartMicros, long readyMicros, long rebalanceMicros) implements RunEvent { }

    /** The publish-delay p99 above which an interval is marked generator-saturated (µs). */
    record SaturationThreshold(long micros) implements RunEvent { }

    /**
     * The agreed start instant and the end of warm-up are known (coordinator time, µs; the end {@link Long#MAX_VALUE}
     * while a warm-up by count has not ended, then again with the instant it ended).
     */
    record Started(long runStartMicros, long measureStartMicros) implements RunEvent { }

    /**
     * The bound on the clock error of end-to-end samples (µs), as now known: before the first interval and whenever
     * a re-estimate of a worker's clock changes it.
     */
    record ClockBound(long micros) implements RunEvent { }

    /** The run's fault timeline: intervals in which a broker was down may be marked. */
    record Faults(FaultTimeline timeline) implements RunEvent { }

    /**
     * The round trips of a closed-loop run ({@code roundTrip}) that a snapshot of {@code workerId} carried: those of
     * messages 0, 1000, 2000 ... completed in its interval, in order.
     */
    record RoundTrips(String workerId, List<io.kbench.protocol.RoundTripSample> samples) implements RunEvent {
        public RoundTrips {
            samples = List.copyOf(samples);
        }
    }

    /** A snapshot of {@code workerId} arrived at {@code micros} (coordinator time). */
    record WorkerHeard(String workerId, long micros) implements RunEvent { }

    /**
     * The cluster-wide histograms (µs) of an interval, on the merging thread while it completes the interval (before
     * its {@link Interval}): read them there, do not keep or change them.
     */
    record IntervalHistograms(MergedInterval interval, EnumMap<Metric, Histogram> histograms) implements RunEvent { }

    /** One interval merged across all workers. */
    record Interval(MergedInterval interval) implements RunEvent { }

    /**
     * The clients' full metrics from a worker's last snapshot, when the run asked for them (the Kafka tools'
     * {@code --print-metrics}); before {@link Summarized}, once per worker that had clients.
     */
    record ClientMetrics(List<ClientMetricsDump> dumps) implements RunEvent { }

    /**
     * Each consumer's records and bytes over the whole run, from a worker's last snapshot; before {@link Summarized},
     * once per worker that had consumers (the tools' per-consumer lines).
     */
    record ConsumerTotals(List<ConsumerTotal> totals) implements RunEvent { }

    /**
     * For a warm-up by count only, before {@link Summarized} (which then covers the steady state): the figures of
     * the whole run, warm-up included (as the Kafka tool's first total line).
     */
    record WholeRun(String title, Summary summary) implements RunEvent { }

    /** The run's figures, once at the end. */
    record Summarized(String title, Summary summary, int subscriptionsPerTopic) implements RunEvent { }

    /** The run's result as written to result.json (also for a failed run). */
    record Result(ResultFile.Run result) implements RunEvent { }
}
