package io.kbench.protocol.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.protocol.Metric;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import org.HdrHistogram.Histogram;

/**
 * One scrape of kbench's metrics, built with the Prometheus client's data model and written by its text
 * formats (Prometheus 0.0.4 or OpenMetrics, by the scraper's {@code Accept} header): names, escaping and
 * content types are the library's, not hand-written. Names follow Prometheus conventions: counters end in
 * {@code _total} (the writer appends it), times are in seconds, sizes in bytes. Every data point carries the
 * labels given at construction (run id, workload, worker). No data point carries a timestamp: each is the scrape's,
 * so Prometheus marks a series stale as soon as it is no longer exported (a run that ended), as it should.
 *
 * <p>Latency metrics are histograms ({@link #BUCKETS_SECONDS}): bucket counts since the run started, filled from
 * each interval's HdrHistogram, so that they add up across workers and runs ({@code histogram_quantile} over their
 * {@code rate()}); the exact quantiles are result.json's and the dashboard's.
 */
public final class MetricFamilies {
    /**
     * The upper bounds of every latency histogram's buckets, seconds (and +Inf): 100 µs to a minute, about 2.5 per
     * decade — a p99 read from them by {@code histogram_quantile} is within its bucket, not exact.
     */
    public static final double[] BUCKETS_SECONDS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
        0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

    /** Bucket counts of a latency histogram: one per bound of {@link #BUCKETS_SECONDS}, and one above them all. */
    public static long[] emptyBuckets() {
        return new long[BUCKETS_SECONDS.length + 1];
    }

    /**
     * Adds the samples of {@code micros} (an HdrHistogram in µs) into {@code buckets} (not cumulative: each sample in
     * the first bucket whose bound is at least its value, as HdrHistogram's precision, 0.1%, places it).
     */
    public static void addToBuckets(Histogram micros, long[] buckets) {
        if (micros == null || micros.getTotalCount() == 0) {
            return;
        }
        for (org.HdrHistogram.HistogramIterationValue v : micros.recordedValues()) {
            double seconds = micros.lowestEquivalentValue(v.getValueIteratedTo()) / 1e6;
            int b = java.util.Arrays.binarySearch(BUCKETS_SECONDS, seconds);
            int i = b >= 0 ? b : -b - 1; // the first bound at or above the value (BUCKETS length: +Inf)
            buckets[i] += v.getCountAtValueIteratedTo();
        }
    }

    private static final OpenMetricsTextFormatWriter OPEN_METRICS = OpenMetricsTextFormatWriter.create();
    /** Timestamps in ms, as the format requires: the library's default writes seconds (client_java #1277). */
    private static final PrometheusTextFormatWriter PROMETHEUS_TEXT = PrometheusTextFormatWriter.builder()
            .setTimestampsInMs(true).build();

    private final Labels labels;
    private final List<MetricSnapshot> families = new ArrayList<>();

    /** @param labelNamesAndValues name, value, name, value… on every data point */
    public MetricFamilies(String... labelNamesAndValues) {
        this.labels = Labels.of(labelNamesAndValues);
    }

    /** A counter; {@code name} without {@code _total}. */
    public MetricFamilies counter(String name, String help, Unit unit, double value) {
        families.add(CounterSnapshot.builder().name(name).help(help).unit(unit)
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build())
                .build());
        return this;
    }

    /** A counter without a unit. */
    public MetricFamilies counter(String name, String help, double value) {
        return counter(name, help, null, value);
    }

    /** A gauge. */
    public MetricFamilies gauge(String name, String help, Unit unit, double value) {
        families.add(GaugeSnapshot.builder().name(name).help(help).unit(unit)
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build())
                .build());
        return this;
    }

    /** A gauge with one data point per value of {@code label} (no data point at all when the map is empty). */
    public MetricFamilies gauges(String name, String help, Unit unit, String label, Map<String, Double> values) {
        if (values.isEmpty()) {
            return this;
        }
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help).unit(unit);
        values.forEach((k, v) -> b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(labels.add(label, k)).value(v).build()));
        families.add(b.build());
        return this;
    }

    /**
     * A latency histogram.
     *
     * @param buckets    counts per bucket of {@link #BUCKETS_SECONDS} and above ({@link #emptyBuckets}), not cumulative
     * @param sumSeconds the samples' sum
     */
    public MetricFamilies histogram(String name, String help, long[] buckets, double sumSeconds) {
        if (buckets.length != BUCKETS_SECONDS.length + 1) {
            throw new IllegalArgumentException("one count per bucket: " + (BUCKETS_SECONDS.length + 1));
        }
        double[] bounds = java.util.Arrays.copyOf(BUCKETS_SECONDS, BUCKETS_SECONDS.length + 1);
        bounds[BUCKETS_SECONDS.length] = Double.POSITIVE_INFINITY;
        families.add(io.prometheus.metrics.model.snapshots.HistogramSnapshot.builder().name(name).help(help)
                .unit(Unit.SECONDS).dataPoint(io.prometheus.metrics.model.snapshots.HistogramSnapshot
                        .HistogramDataPointSnapshot.builder().labels(labels)
                        .classicHistogramBuckets(io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets.of(bounds,
                                buckets.clone())).sum(sumSeconds).build()).build());
        return this;
    }

    /**
     * A state: a gauge with one series per state, told apart by the label {@code state}, 1 for {@code current} and 0
     * for the others ({@code kbench_run_state{state="measuring"} 1}).
     */
    public MetricFamilies state(String name, String help, List<String> states, String current) {
        Map<String, Double> values = new java.util.LinkedHashMap<>();
        states.forEach(s -> values.put(s, s.equals(current) ? 1.0 : 0.0));
        return gauges(name, help, null, "state", values);
    }

    /**
     * {@code kbench_build_info}: 1, with the build's version, git commit and protocol version as labels (what
     * produced the other series).
     */
    public MetricFamilies buildInfo(String version, String commit, int protocol) {
        families.add(GaugeSnapshot.builder().name("kbench_build_info").help("the kbench build exporting these series "
                + "(always 1)").dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels
                .add("version", version).add("commit", commit.isEmpty() ? "unknown" : commit)
                .add("protocol", Integer.toString(protocol))).value(1).build()).build());
        return this;
    }

    /** Everything added so far. */
    public MetricSnapshots snapshots() {
        return new MetricSnapshots(families);
    }

    /** The scrape body in the format {@code accept} asks for (Prometheus text when it names none we write). */
    public Scrape write(String accept) {
        ExpositionFormatWriter writer = accept != null && OPEN_METRICS.accepts(accept) ? OPEN_METRICS : PROMETHEUS_TEXT;
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try {
            writer.write(out, snapshots());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Scrape(writer.getContentType(), out.toByteArray());
    }

    /** A written scrape: its content type and body. */
    public record Scrape(String contentType, byte[] body) { }

    /** The base name of a latency metric ({@code kbench_}/{@code kbench_worker_} prefixed by the caller). */
    public static String name(Metric m) {
        return switch (m) {
            case PUBLISH_LATENCY -> "publish_latency_seconds";
            case PUBLISH_RESPONSE -> "publish_response_time_seconds";
            case PUBLISH_DELAY -> "publish_delay_seconds";
            case END_TO_END -> "end_to_end_latency_seconds";
            case TRANSACTION_COMMIT -> "transaction_commit_seconds";
            case SHARE_DELIVERY -> "share_delivery_latency_seconds";
            case SHARE_ACCEPT -> "share_accept_latency_seconds";
            case SHARE_COMMIT -> "share_commit_seconds";
        };
    }

    /** What a latency metric measures, for its HELP line. */
    public static String help(Metric m) {
        return switch (m) {
            case PUBLISH_LATENCY -> "send() called to broker acknowledgement";
            case PUBLISH_RESPONSE -> "intended send time to broker acknowledgement (free of coordinated omission)";
            case PUBLISH_DELAY -> "intended send time to send() called (the load generator's lateness)";
            case END_TO_END -> "intended send time to consumer receipt, coordinator time at both ends";
            case TRANSACTION_COMMIT -> "duration of a transaction commit";
            case SHARE_DELIVERY -> "intended send time to a share consumer's first delivery of the record";
            case SHARE_ACCEPT -> "intended send time to a share consumer accepting the record (after its processing)";
            case SHARE_COMMIT -> "duration of a share consumer's commit of one poll's acknowledgements (shareCommit: sync)";
        } + "; buckets, count and sum since the run started";
    }
}
