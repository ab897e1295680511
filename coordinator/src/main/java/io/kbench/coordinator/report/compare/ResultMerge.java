package io.kbench.coordinator.report.compare;

import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.kbench.protocol.Versions;
import org.HdrHistogram.Histogram;

/**
 * Combines the results of runs that ran at the same time against one cluster (for example from two
 * coordinators) into one: counts and rates add, histograms add (so every percentile is exact over all
 * samples), workers are listed together. Intervals are not merged (the runs' intervals do not line up);
 * each source is named instead. Sources are read into the same {@link ResultFile} types {@code kbench run}
 * writes, strictly: a key of the wrong type, a required key missing or a negative count is refused with one
 * line naming the file and the key. Pure: result documents in, a result document out.
 */
public final class ResultMerge {
    /** Reads result files: no coercion of strings to numbers or fractions to whole numbers. */
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();
    private static final Pattern MISSING = Pattern.compile("Missing required creator property '([^']+)'");

    private ResultMerge() { }

    /** One input: where it came from and its parsed result.json. */
    public record Source(String path, JsonNode result) { }

    /** The merged document and its summary (for printing). */
    public record Merged(ResultFile.Merged document, Summary summary) { }

    /**
     * @throws IllegalArgumentException naming the source that is not a kbench result
     */
    public static Merged combine(List<Source> sources) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        EnumMap<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            histograms.put(m, LatencyHistograms.create());
        }
        long sent = 0;
        long acked = 0;
        long failed = 0;
        long received = 0;
        long clamped = 0;
        long negative = 0;
        double seconds = 0;
        double publishRate = 0;
        double publishMBps = 0;
        double consumeRate = 0;
        double consumeMBps = 0;
        boolean allCompleted = true;
        boolean verified = true;
        long lost = 0;
        long duplicated = 0;
        long outOfOrder = 0;
        long untracked = 0;
        long uncertainty = 0;
        long saturatedIntervals = 0;
        ShareSum share = null;
        List<ResultFile.Worker> workers = new ArrayList<>();
        List<ResultFile.Source> from = new ArrayList<>();
        io.kbench.coordinator.merge.PartitionSpread spread = new io.kbench.coordinator.merge.PartitionSpread();
        Map<String, String> runIds = new HashMap<>();
        List<Window> windows = new ArrayList<>();
        for (Source src : sources) {
            ResultFile.Run r = read(src);
            windows.add(new Window(src.path(), r.measureStartMillis(), r.measureEndMillis()));
            String earlier = runIds.putIfAbsent(r.runId(), src.path());
            if (earlier != null) {
                throw new IllegalArgumentException(src.path() + ": run " + r.runId() + " is given twice (also " + earlier
                        + "); each run may be merged once, or its counts would be doubled");
            }
            ResultFile.Summary s = r.summary();
            sent += s.sent();
            acked += s.acked();
            failed += s.failed();
            received += s.received();
            clamped += s.clamped();
            negative += s.negativeEndToEnd();
            seconds = Math.max(seconds, s.measuredSeconds());
            publishRate += s.publishRate();
            publishMBps += s.publishMBps();
            consumeRate += s.consumeRate();
            consumeMBps += s.consumeMBps();
            ResultFile.Verification v = s.verification();
            verified &= v != null;
            if (v != null) {
                lost += v.lost();
                duplicated += v.duplicated();
                outOfOrder += v.outOfOrder();
                untracked += v.untracked();
            }
            if (s.endToEndLatencyMicros() != null) {
                uncertainty = Math.max(uncertainty, s.endToEndLatencyMicros().uncertaintyMicros());
            }
            saturatedIntervals += s.saturatedIntervals();
            if (s.share() != null) {
                share = (share == null ? new ShareSum() : share).add(s.share());
            }
            for (Metric m : Metric.values()) {
                String h = r.histograms().get(m.key());
                if (h != null) {
                    try {
                        histograms.get(m).add(LatencyHistograms.decode(Base64.getDecoder().decode(h)));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(src.path() + ": histograms." + m.key() + " is not a kbench "
                                + "histogram: " + e.getMessage());
                    }
                }
            }
            if (r.partitions() != null && r.partitions().acked() != null) {
                // runs side by side on one topic add up per partition; on topics of their own each keeps its own
                List<io.kbench.protocol.PartitionAcks> acks = new ArrayList<>();
                for (Map.Entry<String, long[]> e : r.partitions().acked().entrySet()) {
                    try {
                        acks.add(new io.kbench.protocol.PartitionAcks(e.getKey(), e.getValue() == null ? new long[0]
                                : e.getValue()));
                    } catch (IllegalArgumentException bad) {
                        throw new IllegalArgumentException(src.path() + ": partitions.acked: " + bad.getMessage());
                    }
                }
                spread.add(acks, Math.max(1, r.partitions().workers()));
            }
            allCompleted &= "COMPLETED".equals(r.status());
            if (r.workers() != null) {
                workers.addAll(r.workers());
            }
            from.add(new ResultFile.Source(src.path(), r.runId(), r.status(),
                    r.workload() == null ? "" : r.workload().path("name").asText()));
        }
        Summary merged = new Summary(sent, acked, failed, received, clamped, negative, seconds, 0, 0, 0,
                round(publishRate), round(publishMBps), round(consumeRate), round(consumeMBps), histograms,
                verified ? new Summary.Verification(lost, duplicated, outOfOrder, untracked) : null, uncertainty,
                saturatedIntervals);
        ResultFile.Summary summary = ResultDocument.summary(merged, null, null);
        if (share != null) {
            summary = summary.withShare(share.result(histograms));
        }
        io.kbench.coordinator.merge.PartitionSpread.Result p = spread.result(Map.of());
        ResultFile.Partitions partitions = p == null ? null : new ResultFile.Partitions(p.workers(), p.acked(),
                new ResultFile.Busiest(p.topic(), p.partition(), p.busiestAcked(), p.share(), p.partitions(), p.skew()));
        String overlap = overlap(windows);
        ResultFile.Merged doc = new ResultFile.Merged(ResultFile.SCHEMA_VERSION, Versions.kbench(), from,
                allCompleted ? "COMPLETED" : "FAILED", workers, summary, ResultDocument.encoded(histograms), partitions,
                overlap == null ? List.of() : List.of(overlap));
        return new Merged(doc, merged);
    }

    /** A source's measured window, wall-clock ms (0: not recorded). */
    record Window(String path, long startMillis, long endMillis) {
        boolean known() {
            return startMillis > 0 && endMillis > startMillis;
        }
    }

    /** Below this share of the longest measured window in common, a merge says the sums are not one moment's. */
    static final double OVERLAP = 0.9;

    /**
     * Null when the runs were measured together (their windows have at least {@link #OVERLAP} of the longest in
     * common) or a window is not recorded; a line saying how little they overlap otherwise. Rates add only over a time
     * the runs loaded the cluster together.
     *
     * @throws IllegalArgumentException when two windows have no time in common: nothing measured them together
     */
    static String overlap(List<Window> windows) {
        if (windows.stream().anyMatch(w -> !w.known())) {
            return null; // a result without its window (older, or a run that measured nothing): not judged
        }
        Window latestStart = windows.get(0);
        Window earliestEnd = windows.get(0);
        long longest = 0;
        for (Window w : windows) {
            latestStart = w.startMillis() > latestStart.startMillis() ? w : latestStart;
            earliestEnd = w.endMillis() < earliestEnd.endMillis() ? w : earliestEnd;
            longest = Math.max(longest, w.endMillis() - w.startMillis());
        }
        long common = earliestEnd.endMillis() - latestStart.startMillis();
        if (common <= 0) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s was measured %s and %s %s: no time in "
                    + "common, so their rates never added up on the cluster; merge combines runs that loaded it at the "
                    + "same time (give results of concurrent runs)", earliestEnd.path(), span(earliestEnd),
                    latestStart.path(), span(latestStart)));
        }
        if (common >= OVERLAP * longest) {
            return null;
        }
        return String.format(Locale.ROOT, "the runs' measured windows have %.1f s in common of the longest's %.1f s "
                + "(%s starts %s, %s ends %s): each rate added is over its own run's window, so the sums are more than "
                + "the cluster took at any one time", common / 1e3, longest / 1e3, latestStart.path(),
                clock(latestStart.startMillis()), earliestEnd.path(), clock(earliestEnd.endMillis()));
    }

    private static String span(Window w) {
        String from = clock(w.startMillis());
        String to = clock(w.endMillis());
        // one day: its date once
        return from.substring(0, 10).equals(to.substring(0, 10))
                ? from.substring(0, 19) + "-" + to.substring(11) : from + " - " + to;
    }

    private static String clock(long millis) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
                .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.ofEpochMilli(millis));
    }

    /**
     * The share groups' figures of the runs that had them, added up: counts, rates (the runs ran side by side, as
     * their publish rates are added), what was left unsettled, and the per-consumer spread (consumers added, the
     * fewest and the most over all, the mean from the totals); the latencies come from the merged histograms. The
     * per-record check's figures are added when every run made it (each run checked its own groups).
     */
    private static final class ShareSum {
        long delivered;
        long bytes;
        long redelivered;
        long accepted;
        long released;
        long rejected;
        double rate;
        double mbps;
        double acceptRate;
        long unsettled;
        int consumers;
        long min = Long.MAX_VALUE;
        long max;
        boolean verified = true;
        long lost;
        long duplicated;
        long untracked;

        ShareSum add(ResultFile.Share s) {
            delivered += s.delivered();
            bytes += s.bytes();
            redelivered += s.redelivered();
            accepted += s.accepted();
            released += s.released();
            rejected += s.rejected();
            rate += s.rate();
            mbps += s.mbps();
            acceptRate += s.acceptRate();
            unsettled += s.unsettled() == null ? 0 : s.unsettled();
            if (s.verification() == null) {
                verified = false;
            } else {
                lost += s.verification().lost();
                duplicated += s.verification().duplicated();
                untracked += s.verification().untracked();
            }
            if (s.perConsumer() != null) {
                consumers += s.perConsumer().consumers();
                min = Math.min(min, s.perConsumer().min());
                max = Math.max(max, s.perConsumer().max());
            }
            return this;
        }

        ResultFile.Share result(EnumMap<Metric, Histogram> histograms) {
            return new ResultFile.Share(delivered, bytes, redelivered, accepted, released, rejected, round(rate),
                    round(mbps), round(acceptRate), LatencyStats.of(histograms.get(Metric.SHARE_DELIVERY)),
                    LatencyStats.of(histograms.get(Metric.SHARE_ACCEPT)), unsettled, verified,
                    consumers == 0 ? null : new ResultFile.PerConsumer(consumers, min, max,
                            round((double) delivered / consumers)), null, null,
                    verified ? new ResultFile.ShareVerification(lost, duplicated, untracked, false) : null,
                    ResultDocument.commitStats(LatencyStats.of(histograms.get(Metric.SHARE_COMMIT))));
        }
    }

    /** The summary's counts, then all its figures that merge adds and compare judges: none negative, none null. */
    private static final List<String> SUMMARY_COUNTS = List.of("sent", "acked", "failed", "received", "clamped",
            "negativeEndToEnd", "saturatedIntervals");
    private static final List<String> SUMMARY_FIGURES = java.util.stream.Stream.concat(SUMMARY_COUNTS.stream(),
            java.util.stream.Stream.of("measuredSeconds", "publishRate", "publishMBps", "consumeRate", "consumeMBps")).toList();

    /**
     * One source as the types {@code kbench run} writes, checked.
     *
     * @throws IllegalArgumentException one line naming the file and the key
     */
    public static ResultFile.Run read(Source src) {
        JsonNode r = src.result();
        if (r != null && r.isObject() && r.has("merged") && !r.has("runId")) {
            throw new IllegalArgumentException(src.path() + (r.get("merged").isArray()
                    ? ": a merged result (kbench merge); give the results it merged"
                    : ": merged must be a list of the results merged, got " + kind(r.get("merged"))));
        }
        if (r == null || !r.isObject() || r.get("summary") == null || r.get("histograms") == null
                || r.get("runId") == null) {
            throw new IllegalArgumentException(src.path() + ": not a kbench result.json (no runId, summary or histograms)");
        }
        ResultFile.Run run;
        try {
            run = STRICT.treeToValue(r, ResultFile.Run.class);
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException(src.path() + ": " + describe(e, r));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(src.path() + ": " + e.getOriginalMessage());
        }
        if (run.runId() == null || run.runId().isEmpty()) {
            throw new IllegalArgumentException(src.path() + ": runId must be a non-empty string, got " + kind(r.get("runId")));
        }
        if (run.status() == null || run.status().isEmpty()) {
            throw new IllegalArgumentException(src.path() + ": status must be a non-empty string, got " + kind(r.get("status")));
        }
        if (run.schemaVersion() > ResultFile.SCHEMA_VERSION) {
            throw new IllegalArgumentException(src.path() + ": written by a newer kbench (result schema "
                    + run.schemaVersion() + "; this kbench reads up to " + ResultFile.SCHEMA_VERSION + ")");
        }
        if (run.workload() != null && !run.workload().isNull() && !run.workload().isObject()) {
            throw new IllegalArgumentException(src.path() + ": workload must be an object, got " + kind(run.workload()));
        }
        if (run.histograms() == null) {
            throw new IllegalArgumentException(src.path() + ": histograms must be an object, got " + kind(r.get("histograms")));
        }
        for (Map.Entry<String, String> h : run.histograms().entrySet()) {
            try {
                LatencyHistograms.decode(java.util.Base64.getDecoder().decode(h.getValue() == null ? "" : h.getValue()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(src.path() + ": histograms." + h.getKey() + " is not a kbench "
                        + "histogram: " + e.getMessage());
            }
        }
        JsonNode s = r.get("summary");
        if (!s.isObject() || run.summary() == null) {
            throw new IllegalArgumentException(src.path() + ": summary must be an object, got " + kind(s));
        }
        for (String key : SUMMARY_FIGURES) {
            JsonNode n = s.get(key);
            // a key given as null is not a count of zero: merge and compare add and judge these figures
            if (n != null && (n.isNull() || n.isNumber() && n.asDouble() < 0)) {
                throw new IllegalArgumentException(src.path() + ": summary." + key + " must be "
                        + (SUMMARY_COUNTS.contains(key) ? "a whole number" : "a number") + " >= 0, got " + kind(n));
            }
        }
        return run;
    }

    /**
     * A merged result ({@code kbench merge}) as {@link #read} takes a run, for {@code compare}: its summary,
     * histograms, workers, issues and counts per partition, named {@code merged <runId>+<runId>...} (the first 3, then
     * how many more), with the workload's name when every source ran the same one; it has no intervals, profile or
     * provenance of one run. Null when {@code result} is not a merged result.
     */
    public static JsonNode mergedAsRun(JsonNode result) {
        if (result == null || !result.isObject() || result.has("runId") || !result.path("merged").isArray()) {
            return null;
        }
        com.fasterxml.jackson.databind.node.ObjectNode run = ((com.fasterxml.jackson.databind.node.ObjectNode) result)
                .deepCopy();
        JsonNode sources = run.remove("merged");
        List<String> ids = new ArrayList<>();
        java.util.TreeSet<String> names = new java.util.TreeSet<>();
        for (JsonNode s : sources) {
            ids.add(s.path("runId").asText("?"));
            names.add(s.path("workload").asText(""));
        }
        run.put("runId", "merged " + String.join("+", ids.subList(0, Math.min(3, ids.size())))
                + (ids.size() > 3 ? " and " + (ids.size() - 3) + " more" : ""));
        if (names.size() == 1 && !names.first().isEmpty()) {
            run.putObject("workload").put("name", names.first());
        }
        return run;
    }

    /**
     * One interval of a result read as a stream, checked as {@link #read} checks a whole result.
     *
     * @throws IllegalArgumentException one line naming the file, the interval and the key
     */
    public static ResultFile.Interval readInterval(String path, int index, JsonNode node) {
        try {
            return STRICT.treeToValue(node, ResultFile.Interval.class);
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException(path + ": intervals[" + index + "]." + describe(e, node));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(path + ": intervals[" + index + "]: " + e.getOriginalMessage());
        }
    }

    /**
     * Checks what a page draws besides the summary: the run's intervals, each with its publish and consume figures.
     *
     * @throws IllegalArgumentException one line naming the file and the first interval that lacks them
     */
    public static void requireIntervals(String path, ResultFile.Run run) {
        if (run.intervals() == null) {
            throw new IllegalArgumentException(path + ": intervals is missing (a list of the run's intervals)");
        }
        for (int i = 0; i < run.intervals().size(); i++) {
            ResultFile.Interval in = run.intervals().get(i);
            String missing = in == null ? "" : in.publish() == null ? ".publish" : in.consume() == null ? ".consume" : null;
            if (missing != null) {
                throw new IllegalArgumentException(path + ": intervals[" + i + "]" + missing + " is missing");
            }
        }
    }

    /** "summary.sent must be a whole number >= 0, got the string "lots"", from Jackson's refusal. */
    private static String describe(JsonMappingException e, JsonNode root) {
        StringBuilder path = new StringBuilder();
        JsonNode at = root;
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
                at = at == null ? null : at.get(ref.getFieldName());
            } else {
                path.append('[').append(ref.getIndex()).append(']');
                at = at == null ? null : at.get(ref.getIndex());
            }
        }
        Matcher missing = MISSING.matcher(e.getOriginalMessage());
        if (missing.find()) {
            String name = missing.group(1);
            String p = path.toString();
            return (p.equals(name) || p.endsWith("." + name) ? p : p.isEmpty() ? name : p + "." + name) + " is missing";
        }
        Class<?> type = e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException m
                ? m.getTargetType() : null;
        return path + " must be " + expected(type, path.toString()) + ", got " + kind(at);
    }

    private static String expected(Class<?> type, String path) {
        if (type == null) {
            return "of another type";
        }
        if (type == long.class || type == Long.class || type == int.class || type == Integer.class) {
            return "a whole number >= 0";
        }
        if (type == double.class || type == Double.class) {
            return "a number >= 0";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return path.startsWith("histograms.") ? "a base64 string" : "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "an object";
    }

    private static String kind(JsonNode n) {
        if (n == null || n.isNull()) {
            return "nothing";
        }
        String text = n.toString();
        return (n.isTextual() ? "the string " : n.isObject() ? "an object " : n.isArray() ? "a list " : "")
                + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
