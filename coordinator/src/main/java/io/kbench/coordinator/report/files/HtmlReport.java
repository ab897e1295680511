package io.kbench.coordinator.report.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;

/**
 * {@code report.html}: one self-contained page (uPlot and the data inlined; nothing is fetched when it is
 * opened) with a run's charts — publish/consume rate against the target, latency percentiles over time,
 * the percentile distribution of each metric from the exact merged histograms, consumer lag, client
 * metrics — its summary and per-worker tables; warm-up, saturated and broker-down intervals are shaded.
 * Several results are overlaid on the same charts. The page records what it drew (points per chart, script
 * errors) in {@code #kbench-selfcheck}, which the browser test reads.
 */
public final class HtmlReport {
    static final String UPLOT_VERSION = "1.6.30";
    private static final String UPLOT = "META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/";
    /** The latency metrics charted, with their titles (transaction commit only when a run has any). */
    private static final Map<Metric, String> TITLES = Map.of(
            Metric.PUBLISH_LATENCY, "Publish latency (send → ack)",
            Metric.PUBLISH_RESPONSE, "Publish response time (intended send → ack)",
            Metric.PUBLISH_DELAY, "Publish delay (intended send → send)",
            Metric.END_TO_END, "End-to-end latency (intended send → received)",
            Metric.TRANSACTION_COMMIT, "Transaction commit",
            Metric.SHARE_DELIVERY, "Share group: first delivery (intended send → delivered)",
            Metric.SHARE_ACCEPT, "Share group: accepted (intended send → processed and accepted)",
            Metric.SHARE_COMMIT, "Share group: acknowledgement commit (commitSync of a poll's acknowledgements)");
    /** Client metrics charted over time: Kafka's name, title, unit. */
    private static final List<String[]> CLIENT = List.of(
            new String[] {"record-queue-time-avg", "Producer record-queue-time-avg", "ms"},
            new String[] {"batch-size-avg", "Producer batch-size-avg", "bytes"},
            new String[] {"request-latency-avg", "Producer request-latency-avg", "ms"});
    /** Points of a distribution: x = 10^(k/10) = 1 / (1 - percentile), from 0% to 99.999%. */
    static final int DISTRIBUTION_POINTS = 51;
    /** Most points a time chart gets; longer runs are drawn in buckets of intervals. */
    public static final int MAX_POINTS = 2000;
    /** The client metrics' keys, in {@link #CLIENT}'s order. */
    static final List<String> CLIENT_KEYS = CLIENT.stream().map(c -> c[0]).toList();

    private HtmlReport() { }

    /** A result to draw and the name it goes by on the page. */
    public record Named(String name, ResultFile.Run run) { }

    /** Writes the page for {@code runs} (overlaid) to {@code file}. */
    public static Path write(Path file, String title, List<Named> runs) throws IOException {
        return AtomicFile.write(file, render(title, runs));
    }

    /** The page for {@code runs}, overlaid. */
    public static String render(String title, List<Named> runs) {
        return page(data(title, runs, null));
    }

    /**
     * What the page draws, as the JSON it embeds (and the dashboard serves).
     *
     * @param live the dashboard's state of a run under way ({@code state}, {@code reason}, {@code workers},
     *             {@code clockBoundMicros}), or null for a finished report
     */
    public static PageData data(String title, List<Named> runs, PageData.Live live) {
        return data(title, runs, null, live);
    }

    /**
     * The live dashboard's data: {@code run} without its intervals, drawn from {@code series}, which the dashboard
     * builds as intervals arrive (see {@link #liveSeries}).
     */
    public static PageData liveData(String title, Named run, ChartSeries series, PageData.Live live) {
        return data(title, List.of(run), series, live);
    }

    /** The series the live page is drawn from, started at the run's start; {@code workload} the run's (may be null). */
    public static ChartSeries liveSeries(long runStartMillis, com.fasterxml.jackson.databind.JsonNode workload) {
        return ChartSeries.growing(runStartMillis, CLIENT_KEYS, MAX_POINTS)
                .countingUnread(io.kbench.coordinator.report.UnreadCount.classicGroups(workload));
    }

    private static PageData data(String title, List<Named> runs, ChartSeries series, PageData.Live live) {
        List<PageData.Heading> metrics = new ArrayList<>();
        for (Metric m : Metric.values()) {
            boolean any = runs.stream().anyMatch(n -> stats(n.run().summary(), m).count() > 0);
            boolean optional = m == Metric.TRANSACTION_COMMIT || m == Metric.SHARE_DELIVERY || m == Metric.SHARE_ACCEPT
                    || m == Metric.SHARE_COMMIT;
            if (!optional || any) {
                metrics.add(new PageData.Heading(m.key(), TITLES.get(m), any || live != null ? null : noSamples(m, runs)));
            }
        }
        List<PageData.ClientHeading> client = new ArrayList<>();
        for (String[] c : CLIENT) {
            client.add(new PageData.ClientHeading(c[0], c[1], c[2]));
        }
        List<PageData.Run> drawn = new ArrayList<>();
        java.util.Map<String, String> first = runs.size() > 1 ? io.kbench.coordinator.report.compare.SetupDiff.setup(
                runs.get(0).run()) : null;
        for (int i = 0; i < runs.size(); i++) {
            drawn.add(runData(runs.get(i), series, i == 0 || first == null ? "" : againstFirst(first, runs.get(i).run())));
        }
        return new PageData(title, metrics, client, drawn, live);
    }

    /** Most setup differences an overlaid run's header lists; kbench compare lists them all. */
    static final int DIFFERENCES_SHOWN = 4;

    /**
     * What an overlaid run's setup changes against the first run's, for its header: runs of a sweep overlaid differ by
     * the setting swept, which their names (workload and run id) do not say. "" when either records no setup.
     */
    static String againstFirst(java.util.Map<String, String> first, ResultFile.Run run) {
        java.util.Map<String, String> setup = io.kbench.coordinator.report.compare.SetupDiff.setup(run);
        if (first.isEmpty() || setup.isEmpty()) {
            return "";
        }
        List<String> d = io.kbench.coordinator.report.compare.SetupDiff.differences(first, setup);
        if (d.isEmpty()) {
            return " · the first run's setup";
        }
        return " · against the first run: " + String.join("; ", d.subList(0, Math.min(DIFFERENCES_SHOWN, d.size())))
                + (d.size() > DIFFERENCES_SHOWN ? String.format("; and %d more (kbench compare lists them)",
                d.size() - DIFFERENCES_SHOWN) : "");
    }

    /**
     * Why a finished report has no sample of {@code m} in any of its runs: for the publish delay of unthrottled
     * producers, that there is no schedule to be late for; for end-to-end latency, what leaves it out.
     */
    static String noSamples(Metric m, List<Named> runs) {
        boolean unthrottled = runs.stream().allMatch(n -> n.run().workload() == null
                || n.run().workload().path("producerRate").asLong(-1) < 0);
        if (m == Metric.PUBLISH_DELAY && unthrottled) {
            return "no samples: unthrottled producers (producerRate: -1) send as fast as they can, with no schedule to "
                    + "fall behind, so there is no delay to measure and the response time is the latency";
        }
        if (m == Metric.END_TO_END) {
            return "no samples: no classic consumer received a record kbench stamped in the measured window (no "
                    + "subscriptions, share groups only, or plain records: stampMessages: false)";
        }
        return "no samples in the measured window";
    }

    /** A backlog run's catch-up and the end-to-end latency after it, as the console says them; null for other runs. */
    private static String catchUpText(ResultFile.Run r) {
        io.kbench.coordinator.merge.CatchUp c = r.summary().catchUp();
        if (c == null) {
            return null;
        }
        int subscriptions = r.workload() == null ? 1 : r.workload().path("subscriptionsPerTopic").asInt(1);
        String read = io.kbench.coordinator.report.result.ResultDocument.catchUpText(c, subscriptions);
        // before schema 19 the latency after the catch-up was not kept: not known, rather than "none followed"
        return r.schemaVersion() < 19 ? read
                : read + "; " + io.kbench.coordinator.report.result.ResultDocument.afterCatchUpText(c, r.startMillis());
    }

    /** The page around {@code data} (see {@link #data}). */
    public static String page(PageData data) {
        try {
            return page(data.title(), ResultDocument.JSON.writer().writeValueAsString(data));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The page titled {@code title} around {@code json}, the page data (see {@link #data}) as JSON. */
    public static String page(String title, String json) {
        // inside <script>: no "<" at all (it can only stand in strings: an error text, an issue), so no text
        // can end the element or open a comment
        json = json.replace("<", "\\u003c");
        // the data goes in last: nothing it contains is taken for a marker
        return template()
                .replace("/*TITLE*/", escape(title))
                .replace("/*UPLOT_VERSION*/", UPLOT_VERSION)
                .replace("/*UPLOT_LICENSE*/", resource(UPLOT + "LICENSE").replace("--", "- -"))
                .replace("/*UPLOT_CSS*/", resource(UPLOT + "dist/uPlot.min.css"))
                .replace("/*UPLOT_JS*/", resource(UPLOT + "dist/uPlot.iife.min.js").replace("</script", "<\\/script"))
                .replace("/*DATA*/", json);
    }

    private static LatencyStats stats(ResultFile.Summary s, Metric m) {
        return switch (m) {
            case PUBLISH_LATENCY -> s.publishLatencyMicros();
            case PUBLISH_RESPONSE -> s.publishResponseMicros();
            case PUBLISH_DELAY -> s.publishDelayMicros();
            case END_TO_END -> {
                ResultFile.EndToEnd e = s.endToEndLatencyMicros();
                yield new LatencyStats(e.count(), e.mean(), e.p50(), e.p75(), e.p95(), e.p99(), e.p999(), e.p9999(), e.max());
            }
            case TRANSACTION_COMMIT -> s.transactionCommitMicros();
            case SHARE_DELIVERY -> s.share() == null ? LatencyStats.EMPTY : s.share().deliveryLatencyMicros();
            case SHARE_ACCEPT -> s.share() == null ? LatencyStats.EMPTY : s.share().acceptLatencyMicros();
            case SHARE_COMMIT -> s.share() == null || s.share().commitLatencyMicros() == null ? LatencyStats.EMPTY
                    : s.share().commitLatencyMicros();
        };
    }

    /**
     * What limited a run, as the console prints it: the limit, its evidence and suggestions, the other limits, the
     * checks that held.
     */
    static PageData.Diagnosis diagnosisData(ResultFile.Diagnosis diagnosis) {
        return new PageData.Diagnosis(diagnosis.limit(), diagnosis.strength(),
                diagnosis.evidence().stream().map(io.kbench.coordinator.diagnosis.DiagnosisText::evidence).toList(),
                diagnosis.suggestions(), diagnosis.alsoLimitedBy().stream().map(l -> String.format(Locale.ROOT,
                        "%s (strength %.2f): %s", l.limit(), l.strength(), l.evidence().stream()
                                .map(io.kbench.coordinator.diagnosis.DiagnosisText::evidence)
                                .collect(java.util.stream.Collectors.joining("; ")))).toList(),
                diagnosis.held().stream().map(io.kbench.coordinator.diagnosis.DiagnosisText::evidence).toList(),
                io.kbench.coordinator.diagnosis.Diagnosis.NONE.equals(diagnosis.limit())
                        ? io.kbench.coordinator.diagnosis.DiagnosisText.noneHeadline(diagnosis) : null);
    }

    /** A max-rate search's outcome and its trials, one table row each, as the console prints them. */
    static PageData.Search searchData(ResultFile.RateSearch search) {
        List<List<String>> rows = new ArrayList<>();
        for (ResultFile.Trial t : search.trials()) {
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(t.number()));
            row.add(t.phase());
            row.add(t.targetRate() < 0 ? "unthrottled" : String.format(Locale.ROOT, "%,d", t.targetRate()));
            row.add(String.format(Locale.ROOT, "%,.0f", t.achievedRate()));
            row.add(t.slos().stream().map(f -> String.format(Locale.ROOT, "%s: %.2f ms%s", f.slo(), f.valueMicros() / 1000.0,
                    f.held() ? "" : " !")).collect(java.util.stream.Collectors.joining("; ")));
            row.add(t.passed() ? "pass" : t.cause() == null ? "fail" : "fail (" + t.cause() + ")");
            row.add(String.join("; ", t.reasons()));
            row.add(t.notes() == null ? "" : String.join("; ", t.notes()));
            row.add(t.limitedBy() == null ? "" : t.limitedBy());
            rows.add(row);
        }
        return new PageData.Search(search.outcome(), search.maxSustainableRate(), search.limitedBy(), search.confidence(),
                search.slos(), rows);
    }

    /** Everything the page draws for one run; times in seconds since the run's start, latencies in ms. */
    static PageData.Run runData(Named n, ChartSeries series) {
        return runData(n, series, "");
    }

    /** {@link #runData(Named, ChartSeries)} with {@code note} at the end of its header. */
    static PageData.Run runData(Named n, ChartSeries series, String note) {
        ResultFile.Run r = n.run();
        long target = r.workload() != null && r.workload().has("producerRate") ? r.workload().get("producerRate").asLong() : -1;
        ResultFile.Summary s = r.summary();
        ResultFile.ShareVerification sv = s.share() == null ? null : s.share().verification();
        String header = String.format("run %s · workload %s · started %s · %s · clock bound ±%.3f ms%s%s%s",
                r.runId(), r.workload() == null ? "?" : r.workload().path("name").asText(), r.startedAt(),
                target < 0 ? "unthrottled" : String.format("target %,d msg/s", target),
                s.endToEndLatencyMicros().uncertaintyMicros() / 1000.0,
                s.verification() == null ? "" : String.format(" · verification: %,d lost, %,d duplicated, %,d out of order",
                        s.verification().lost(), s.verification().duplicated(), s.verification().outOfOrder()),
                sv == null ? "" : String.format(" · share groups: %,d lost, %,d duplicated (order not checked)",
                        sv.lost(), sv.duplicated()),
                r.error() == null ? "" : " · " + r.error()) + note;
        ChartSeries charts = series;
        if (charts == null) {
            List<ResultFile.Interval> all = r.intervals();
            // at most MAX_POINTS per series: a long run's intervals are drawn in buckets (rates averaged, latencies
            // and lag at their worst in the bucket), so the page stays light; the distributions are exact anyway
            charts = ChartSeries.fixed(r.startMillis(), CLIENT_KEYS, MAX_POINTS, all.size())
                    .countingUnread(io.kbench.coordinator.report.UnreadCount.classicGroups(r.workload()));
            for (ResultFile.Interval i : all) {
                charts.add(i);
            }
        }
        Map<String, Map<String, List<Double>>> distribution = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            String encoded = r.histograms() == null ? null : r.histograms().get(m.key());
            Histogram h = encoded == null ? LatencyHistograms.create()
                    : LatencyHistograms.decode(Base64.getDecoder().decode(encoded));
            distribution.put(m.key(), distribution(h));
        }
        // figures the run could not have are absent ("–"), not 0: a share-group run's classic consume rate and
        // end-to-end latency, a consumers-only run's publish figures (as kbench compare leaves them out)
        boolean classic = r.workload() == null || r.workload().path("subscriptionsPerTopic").asInt(1) > 0;
        boolean producing = r.workload() == null || r.workload().path("producersPerTopic").asInt(1) > 0;
        PageData.Summary sum = new PageData.Summary(producing ? s.publishRate() : null, classic ? s.consumeRate() : null,
                producing ? s.publishLatencyMicros().p99() / 1000.0 : null,
                producing ? s.publishResponseMicros().p99() / 1000.0 : null,
                classic ? s.endToEndLatencyMicros().p50() / 1000.0 : null,
                classic ? s.endToEndLatencyMicros().p99() / 1000.0 : null,
                classic ? s.endToEndLatencyMicros().p999() / 1000.0 : null,
                s.endToEndLatencyMicros().uncertaintyMicros() / 1000.0,
                s.saturatedIntervals(), s.verification() == null ? null : s.verification().lost(),
                s.verification() == null ? null : s.verification().duplicated(),
                s.verification() == null ? null : s.verification().outOfOrder(),
                s.share() == null ? null : s.share().acceptRate(), s.share() == null ? null : s.share().redelivered());
        return new PageData.Run(n.name(), r.status(), target < 0 ? null : target, header,
                r.rateSearch() == null ? null : searchData(r.rateSearch()),
                r.diagnosis() == null ? null : diagnosisData(r.diagnosis()),
                r.network() == null ? null : io.kbench.coordinator.report.result.ResultDocument.networkText(r.network(),
                        r.provenance()), io.kbench.coordinator.report.result.ResultDocument.partitionsText(r.partitions()),
                catchUpText(r), charts.charts(target, r.measureEndMillis()),
                distribution, sum, r.workers() == null ? List.of() : r.workers(),
                r.issues() == null ? List.of() : r.issues());
    }

    /**
     * The percentile distribution of {@code h}: {@link #DISTRIBUTION_POINTS} points at x = 10^(k/10), the
     * percentile 100 (1 - 1/x), from 0% to 99.999%; y the histogram's own value at that percentile, in ms
     * (at least 0.001 ms, as the page's log scale needs). Empty histograms give no points.
     */
    static Map<String, List<Double>> distribution(Histogram h) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        if (h.getTotalCount() > 0) {
            for (int k = 0; k < DISTRIBUTION_POINTS; k++) {
                double at = Math.pow(10, k / 10.0);
                x.add(at);
                y.add(Math.max(0.001, h.getValueAtPercentile(percentileAt(at)) / 1000.0));
            }
        }
        Map<String, List<Double>> d = new LinkedHashMap<>();
        d.put("x", x);
        d.put("y", y);
        return d;
    }

    /** The percentile shown at x on the distribution axis. */
    static double percentileAt(double x) {
        return 100.0 * (1.0 - 1.0 / x);
    }

    private static String template() {
        return resource("io/kbench/coordinator/report/files/report.html");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("/*", "/&#42;");
    }
}
