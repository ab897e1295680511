package io.kbench.coordinator.report.files;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.kbench.coordinator.report.result.ResultFile;

/**
 * What a report page draws: the JSON it embeds, and the dashboard serves at {@code /api/report-data}, written from
 * these records in their components' order. Times in seconds since the run's start, latencies in ms, rates per
 * second; a series holds null where a point has no figure.
 *
 * @param title         the page's title
 * @param metrics       the latency charts, in order (the optional ones only when a run has samples)
 * @param clientMetrics the client-metric charts
 * @param runs          one entry per run drawn (several overlay)
 * @param live          the dashboard's state of a run under way; absent from a finished report
 */
public record PageData(String title, List<Heading> metrics, List<ClientHeading> clientMetrics, List<Run> runs,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Live live) {

    /**
     * A latency chart: the metric's key and its title, and in a finished report whose runs have no sample of it, why
     * (the page prints that line in the chart's place: an empty chart reads as something broken).
     */
    public record Heading(String id, String title, @JsonInclude(JsonInclude.Include.NON_NULL) String empty) {
        public Heading(String id, String title) {
            this(id, title, null);
        }
    }

    /** A client-metric chart: the figure's key, its title and unit. */
    public record ClientHeading(String id, String title, String unit) { }

    /** A run under way, as the dashboard has it: its state, why it failed, each worker's last word, the clock bound. */
    public record Live(String state, String reason, List<Worker> workers, long clockBoundMicros) { }

    /** A worker and the seconds since its last snapshot. */
    public record Worker(String id, double ageSeconds) { }

    /**
     * One run.
     *
     * @param target       the target rate, null when unthrottled
     * @param header       the line above the charts (run, workload, start, target, clock bound, checks, error)
     * @param rateSearch   the max-rate search's outcome and trials, when the run was one
     * @param diagnosis    what limited the run, when it was diagnosed
     * @param network      how close it came to the brokers' network links, when a bandwidth was given
     * @param partitions   the hot partition's line, when there is one
     * @param catchUp      a backlog run's catch-up read and the end-to-end latency after it
     * @param charts       the time series (see {@link ChartSeries#charts})
     * @param distribution per latency metric, its percentile distribution ({@code x}, {@code y})
     */
    public record Run(String name, String status, Long target, String header,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Search rateSearch,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Diagnosis diagnosis,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String network,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String partitions,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String catchUp,
                      @JsonUnwrapped Charts charts, Map<String, Map<String, List<Double>>> distribution, Summary summary,
                      List<ResultFile.Worker> workers, List<String> issues) { }

    /**
     * The time series of a run, at most the page's points; see {@link ChartSeries#charts}.
     *
     * @param intervalsPerPoint how many intervals each point stands for
     * @param t                 seconds since the run's start, at each point's end
     * @param targetSeries      the target while the producers send, null from the measured window's end on
     * @param latency           per metric key, per quantile (p50, p99, p999, max): ms, the worst in each point
     * @param client            per client-metric key: the mean in each point
     * @param hosts             the worker hosts' CPU, GC, heap and stall figures
     * @param brokers           the brokers' rates (MB/s), idle shares (%) and produce-time parts (ms)
     * @param bands             shaded spans [from, to] (s): warm-up, saturated, broker down
     */
    public record Charts(int intervalsPerPoint, List<Double> t, List<Double> publishRate, List<Double> consumeRate,
                         List<Double> shareDeliverRate, List<Double> shareAcceptRate, List<Long> targetSeries,
                         List<Long> lag, List<Long> unread, List<Long> shareBacklog, Map<String, Map<String, List<Double>>> latency,
                         Map<String, List<Double>> client, Map<String, List<Double>> hosts,
                         Map<String, List<Double>> brokers, Map<String, List<double[]>> bands) { }

    /** The run's headline figures, as the summary cards show them (ms, msg/s; null where the run has none). */
    public record Summary(Double publishRate, Double consumeRate, Double pubP99, Double respP99, Double e2eP50,
                          Double e2eP99, Double e2eP999, double clockBound, long saturated, Long lost, Long duplicated,
                          Long outOfOrder, Double shareAcceptRate, Long shareRedelivered) { }

    /** A max-rate search: its outcome, and its trials as table rows, as the console prints them. */
    public record Search(String outcome, Long maxSustainableRate, String limitedBy, String confidence, List<String> slos,
                         List<List<String>> trials) { }

    /**
     * What limited the run: the limit, its evidence and suggestions as text, the other limits in a line each, the
     * checks that held beside the limit, and for {@code none} the line under it (null otherwise).
     */
    public record Diagnosis(String limit, double strength, List<String> evidence, List<String> suggestions,
                            List<String> also, List<String> held, String headline) { }
}
