package io.kbench.coordinator.report.files;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.console.TextTable;
import io.kbench.coordinator.report.result.SweepFile;
import io.kbench.protocol.Metric;

/**
 * The comparison of a sweep's combinations: one row each with the target rate, throughput, publish latency
 * p50/p99/p99.9, publish response p99, end-to-end p99 and the saturated intervals, printed as a table and
 * written as {@code sweep.csv} and {@code sweep.json}. A combination that did not sustain its target over the
 * measured window — less than 99.5% of it acknowledged, or more than 1/0.995 of it (a backlog from before the
 * window acknowledged in it: sent late by the generator, or acknowledged late by the cluster) — is marked "fell behind": its rate and response times are not those of a sustained load.
 * Saturated intervals are counted beside it and do not mark a combination by themselves: a pause of the
 * generator's host saturates an interval of a rate the cluster sustains (the response times include it).
 * Each row also names what limited its run (docs/diagnosis.md), and shows the throughputs of the posts: produced
 * (values acknowledged), taken in by the brokers (their bytes in: the values as the producers compressed them, with
 * keys, headers and batch headers) and replicated (their replication bytes in) — both when every broker was read in
 * every measured interval — and consumed (values received, every group), and when a network bandwidth was given, the share of its
 * ceiling produced ({@link io.kbench.coordinator.capacity.NetworkCeiling}). Latencies are in milliseconds in the table and CSV,
 * microseconds in the JSON.
 */
public final class SweepReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One combination's outcome; {@code summary} is null when it produced no figures.
     *
     * @param targetRate the combination's target in msg/s, -1 unthrottled, 0 without producers
     * @param limitedBy  what limited its run (its result's {@code diagnosis.limit}; null when not diagnosed)
     * @param brokerInMBps    the brokers' bytes in over the measured window, MB/s (null when not known)
     * @param replicationMBps the brokers' replication bytes in over the measured window, MB/s (null when not known)
     * @param networkShare    what was produced against the network ceiling, 0-1 (null without a bandwidth)
     * @param consumers       whether the combination had classic consumers (without, its consumed MB/s is no figure)
     */
    public record Row(Map<String, String> values, String status, Path result, Summary summary, long targetRate,
                      String limitedBy, Double brokerInMBps, Double replicationMBps, Double networkShare,
                      boolean brokersUnread, boolean consumers) {
        /** A row of a combination with (classic) consumers. */
        public Row(Map<String, String> values, String status, Path result, Summary summary, long targetRate,
                   String limitedBy, Double brokerInMBps, Double replicationMBps, Double networkShare,
                   boolean brokersUnread) {
            this(values, status, result, summary, targetRate, limitedBy, brokerInMBps, replicationMBps, networkShare,
                    brokersUnread, true);
        }

        /** A row whose limit, if any, did not need the brokers' figures, and without their bytes in. */
        public Row(Map<String, String> values, String status, Path result, Summary summary, long targetRate,
                   String limitedBy, Double replicationMBps, Double networkShare) {
            this(values, status, result, summary, targetRate, limitedBy, null, replicationMBps, networkShare, false);
        }

        /** A row without broker or network figures. */
        public Row(Map<String, String> values, String status, Path result, Summary summary, long targetRate,
                   String limitedBy) {
            this(values, status, result, summary, targetRate, limitedBy, null, null);
        }
    }

    /** Under a table with a row whose limit was named without the brokers' figures. */
    static final String UNREAD_NOTE = "?: named without the brokers' figures (--broker-jmx, --broker-metrics): a limit "
            + "of the brokers' would look the same from the clients";

    /** Share of the target a combination must achieve not to be marked. */
    static final double ACHIEVED = 0.995;

    private final List<String> axes;
    private final List<Row> rows = new ArrayList<>();

    /** The run that primed the sweep (null: none). */
    private SweepFile.Priming priming;
    /** Priming was turned off (--prime 0). */
    private boolean unprimed;

    /** Records the unmeasured run that primed the sweep's JVMs before the first combination. */
    public void primed(int seconds, String status, Path result) {
        priming = new SweepFile.Priming(seconds, status,
                result == null ? null : result.toString());
    }

    /** Records that the sweep ran without priming: its first row is a cold start's. */
    public void unprimed() {
        unprimed = true;
    }

    public SweepReport(List<String> axes) {
        this.axes = List.copyOf(axes);
    }

    public void add(Row row) {
        rows.add(row);
    }

    public List<Row> rows() {
        return List.copyOf(rows);
    }

    private static final List<String> FIGURES = List.of("status", "target msg/s", "msg/s", "prod MB/s", "brokers in MB/s", "repl MB/s",
            "cons MB/s", "pub p50 ms", "pub p99 ms", "pub p99.9 ms", "resp p99 ms", "e2e p99 ms", "saturated", "fell behind",
            "limited by");
    /** The network column, shown when a row has it. */
    private static final String NETWORK = "net ceiling %";

    private boolean network() {
        return rows.stream().anyMatch(r -> r.networkShare() != null);
    }

    private static List<String> header(boolean network) {
        List<String> h = new ArrayList<>(FIGURES);
        if (network) {
            h.add(h.indexOf("pub p50 ms"), NETWORK);
        }
        return h;
    }

    /**
     * {@code network}: whether the table has the network column ({@link #network()}, once per table); {@code mark}: a
     * limit named without the brokers' figures marked {@code ?} (the table and page; not sweep.csv's names).
     */
    private static List<String> figures(Row r, boolean network, boolean mark) {
        List<String> f = new ArrayList<>();
        f.add(r.status());
        f.add(r.targetRate() < 0 ? "unthrottled" : r.targetRate() == 0 ? "" : Long.toString(r.targetRate()));
        Summary s = r.summary();
        if (s == null) {
            for (int i = 2; i < FIGURES.size() - 1 + (network ? 1 : 0); i++) {
                f.add("");
            }
            f.add(limited(r, mark));
            return f;
        }
        LatencyStats lat = s.stats(Metric.PUBLISH_LATENCY);
        f.add(String.format(Locale.ROOT, "%.1f", s.publishRate()));
        f.add(String.format(Locale.ROOT, "%.2f", s.publishMBps()));
        f.add(r.brokerInMBps() == null ? "" : String.format(Locale.ROOT, "%.2f", r.brokerInMBps()));
        f.add(r.replicationMBps() == null ? "" : String.format(Locale.ROOT, "%.2f", r.replicationMBps()));
        f.add(r.consumers() ? String.format(Locale.ROOT, "%.2f", s.consumeMBps()) : ""); // none to read: no figure
        if (network) {
            f.add(r.networkShare() == null ? "" : String.format(Locale.ROOT, "%.1f", 100 * r.networkShare()));
        }
        f.add(ms(lat.p50()));
        f.add(ms(lat.p99()));
        f.add(ms(lat.p999()));
        f.add(ms(s.stats(Metric.PUBLISH_RESPONSE).p99()));
        LatencyStats e2e = s.stats(Metric.END_TO_END);
        f.add(e2e.count() == 0 ? "" : ms(e2e.p99())); // no sample is no figure, not 0 ms
        f.add(Long.toString(s.saturatedIntervals()));
        f.add(fellBehind(r));
        f.add(limited(r, mark));
        return f;
    }

    private static String limited(Row r, boolean mark) {
        return r.limitedBy() == null ? "" : r.limitedBy() + (mark && r.brokersUnread() ? "?" : "");
    }

    /** Why a combination counts as fallen behind, or "" when it kept its schedule. */
    static String fellBehind(Row r) {
        Summary s = r.summary();
        if (s == null) {
            return "";
        }
        if (r.targetRate() > 0 && s.publishRate() < ACHIEVED * r.targetRate()) {
            return String.format(Locale.ROOT, "YES: %.1f%% of target", 100 * s.publishRate() / r.targetRate());
        }
        if (r.targetRate() > 0 && s.publishRate() > r.targetRate() / ACHIEVED) {
            return String.format(Locale.ROOT, "YES: %.1f%% of target (a backlog from before the window acknowledged in it)",
                    100 * s.publishRate() / r.targetRate());
        }
        return "";
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f", micros / 1000.0);
    }

    /** How the sweep was primed, in words for the table's first line and the page; "" when it was not said. */
    private String primingText() {
        if (priming == null) {
            return unprimed ? "not primed: the first row ran on JVMs new to this load" : "";
        }
        return switch (priming.status()) {
            case "COMPLETED" -> String.format(Locale.ROOT, "after %d s of the first one unmeasured to prime the JVMs "
                    + "(00-priming)", priming.seconds());
            case "REFUSED" -> "its priming run was refused: the first row may be a cold start's";
            default -> "its priming run (the first one unmeasured, 00-priming) did not complete: the first row may be a "
                    + "cold start's";
        };
    }

    /** Prints the comparison table. */
    public void print(PrintStream out) {
        List<List<String>> table = new ArrayList<>();
        List<String> header = new ArrayList<>(axes);
        boolean network = network();
        header.addAll(header(network));
        table.add(header);
        for (Row r : rows) {
            List<String> line = new ArrayList<>();
            axes.forEach(a -> line.add(r.values().get(a)));
            line.addAll(figures(r, network, true));
            table.add(line);
        }
        if (rows.stream().noneMatch(r -> r.brokerInMBps() != null || r.replicationMBps() != null)) {
            // the brokers were not read: no columns of blanks (sweep.csv keeps them, its header fixed)
            int in = header.indexOf("brokers in MB/s");
            table.forEach(l -> {
                l.remove(in + 1);
                l.remove(in);
            });
        }
        out.println();
        String p = primingText();
        out.println("sweep: " + rows.size() + " combination(s)" + (p.isEmpty() ? "" : ", " + p));
        TextTable.lines(table, i -> i < axes.size(), "  ", " ").forEach(out::println);
        if (rows.stream().anyMatch(Row::brokersUnread)) {
            out.println(UNREAD_NOTE);
        }
    }

    /**
     * Writes the sweep's {@code report.html} into {@code dir}: each headline figure against the combinations
     * (throughput and target; publish latency, response time and end-to-end p99 as one line each; saturated
     * intervals) and the full table, each row linking to its combination's own report.
     */
    public Path writeHtml(Path dir, String title) throws IOException {
        Path file = dir.resolve("report.html");
        Files.writeString(file, HtmlReport.page(title, pageJson(dir, title, true)));
        return file;
    }

    /**
     * What {@link #writeHtml} embeds in the page written into {@code dir}: its data as JSON; without {@code links}
     * the rows do not link their combinations' pages (the dashboard serves none of them).
     */
    public String pageJson(Path dir, String title, boolean links) throws IOException {
        List<SweepPage.Row> out = new ArrayList<>();
        for (Row r : rows) {
            Summary s = r.summary();
            Path page = r.result() == null || !links ? null : r.result().resolveSibling("report.html");
            out.add(new SweepPage.Row(String.join(", ", axes.stream().map(a -> r.values().get(a)).toList()), r.values(),
                    r.status(), r.targetRate() <= 0 ? null : r.targetRate(), s == null ? null : s.publishRate(),
                    s == null ? null : s.publishMBps(), r.brokerInMBps(), r.replicationMBps(),
                    s == null || !r.consumers() ? null : s.consumeMBps(),
                    r.networkShare() == null ? null : 100 * r.networkShare(),
                    s == null ? null : s.stats(Metric.PUBLISH_LATENCY).p99() / 1000.0,
                    s == null ? null : s.stats(Metric.PUBLISH_RESPONSE).p99() / 1000.0,
                    s == null || s.stats(Metric.END_TO_END).count() == 0 ? null : s.stats(Metric.END_TO_END).p99() / 1000.0,
                    s == null ? null : s.saturatedIntervals(),
                    fellBehind(r), limited(r, true),
                    page == null ? null : dir.toAbsolutePath().relativize(page.toAbsolutePath()).toString()));
        }
        SweepPage data = new SweepPage(title, new SweepPage.Sweep(axes, primingText(), out, List.of(
                new SweepPage.Chart("rate", "Publish rate against target", "msg/s", null, List.of(
                        new SweepPage.Series("publish msg/s", "publishRate", null),
                        new SweepPage.Series("target", "target", List.of(6, 4)))),
                throughputChart(out),
                latencyChart(out),
                new SweepPage.Chart("saturated", "Saturated intervals", "intervals", null, List.of(
                        new SweepPage.Series("saturated", "saturated", null)))),
                rows.stream().anyMatch(Row::brokersUnread) ? UNREAD_NOTE : null));
        return io.kbench.coordinator.report.result.ResultDocument.JSON.writer().writeValueAsString(data);
    }

    /**
     * Produced and consumed MB/s against the combinations, with the brokers' bytes in and replication when some
     * combination has them: a legend entry of a series with no point (the brokers not read) said nothing.
     */
    private static SweepPage.Chart throughputChart(List<SweepPage.Row> rows) {
        boolean taken = rows.stream().anyMatch(r -> r.brokerInMBps() != null);
        boolean replicated = rows.stream().anyMatch(r -> r.replicationMBps() != null);
        List<SweepPage.Series> series = new ArrayList<>();
        series.add(new SweepPage.Series("produced", "publishMBps", null));
        if (taken) {
            series.add(new SweepPage.Series("taken in (brokers)", "brokerInMBps", List.of(8, 3, 2, 3)));
        }
        if (replicated) {
            series.add(new SweepPage.Series("replicated (brokers)", "replicationMBps", List.of(6, 4)));
        }
        boolean consumed = rows.stream().anyMatch(r -> r.consumeMBps() != null);
        if (consumed) {
            series.add(new SweepPage.Series("consumed", "consumeMBps", List.of(2, 3)));
        }
        return new SweepPage.Chart("throughput", "Produced" + (taken ? ", taken in" : "") + (replicated
                ? ", replicated" : "") + (consumed ? " and consumed" : ""), "MB/s", null, series);
    }

    /** The p99 latencies against the combinations; end-to-end only when some combination had consumers that timed it. */
    private static SweepPage.Chart latencyChart(List<SweepPage.Row> rows) {
        List<SweepPage.Series> series = new ArrayList<>(List.of(
                new SweepPage.Series("publish latency p99", "pubP99", null),
                new SweepPage.Series("publish response p99", "respP99", null)));
        if (rows.stream().anyMatch(r -> r.e2eP99() != null)) {
            series.add(new SweepPage.Series("end-to-end p99", "e2eP99", null));
        }
        return new SweepPage.Chart("latency", "p99 latencies (log scale)", "ms", true, series);
    }

    /**
     * What a sweep's report page draws (the JSON it embeds): each combination's headline figures and the charts of
     * them against the combinations.
     */
    record SweepPage(String title, Sweep sweep) {
        /** {@code priming}: how the sweep primed its JVMs before the first row, in words ("" when not said). */
        record Sweep(List<String> axes, String priming, List<Row> rows, List<Chart> charts,
                     @JsonInclude(JsonInclude.Include.NON_NULL) String unread) { }

        /** A combination: its label, values and figures (ms, msg/s; null where it has none) and its own page. */
        record Row(String label, Map<String, String> values, String status, Long target, Double publishRate,
                   Double publishMBps, Double brokerInMBps, Double replicationMBps, Double consumeMBps, Double networkPct, Double pubP99, Double respP99, Double e2eP99, Long saturated, String fellBehind, String limitedBy,
                   String report) { }

        /** A chart: its series by the row key each draws; {@code log} for a log scale. */
        record Chart(String id, String title, String unit, @JsonInclude(JsonInclude.Include.NON_NULL) Boolean log,
                     List<Series> series) { }

        /** A series: its label, the row key it draws, its dash pattern (none: solid). */
        record Series(String label, String key, @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> dash) { }
    }

    /** Writes {@code sweep.csv} and {@code sweep.json} into {@code dir}. */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> header = new ArrayList<>(axes);
        header.addAll(List.of("status", "targetRate", "publishRate", "publishMBps", "brokerInMBps", "replicationMBps",
                "consumeMBps"));
        boolean network = network();
        if (network) {
            header.add("networkCeilingPct");
        }
        header.addAll(List.of("publishP50Ms", "publishP99Ms",
                "publishP999Ms", "publishResponseP99Ms", "endToEndP99Ms", "saturatedIntervals", "fellBehind", "limitedBy", "result"));
        List<List<String>> csv = new ArrayList<>();
        csv.add(header);
        List<SweepFile.Combination> json = new ArrayList<>();
        for (Row r : rows) {
            List<String> line = new ArrayList<>();
            axes.forEach(a -> line.add(r.values().get(a)));
            line.addAll(figures(r, network, false));
            line.add(r.result() == null ? "" : r.result().toString());
            csv.add(line);
            Summary s = r.summary();
            json.add(new SweepFile.Combination(r.values(), r.status(), r.targetRate(),
                    r.result() == null ? null : r.result().toString(), r.limitedBy(),
                    s == null ? null : s.publishRate(), s == null ? null : s.publishMBps(),
                    s == null || !r.consumers() ? null : s.consumeRate(), s == null || !r.consumers() ? null
                    : s.consumeMBps(), r.brokerInMBps(), r.replicationMBps(), r.networkShare(),
                    s == null ? null : s.stats(Metric.PUBLISH_LATENCY), s == null ? null : s.stats(Metric.PUBLISH_RESPONSE),
                    s == null || s.stats(Metric.END_TO_END).count() == 0 ? null : s.stats(Metric.END_TO_END),
                    s == null ? null : s.saturatedIntervals(), s == null ? null : !fellBehind(r).isEmpty()));
        }
        Files.writeString(dir.resolve("sweep.csv"), IntervalsCsv.CSV.writeValueAsString(csv));
        JSON.writeValue(dir.resolve("sweep.json").toFile(), new SweepFile(axes, json, priming));
    }
}
