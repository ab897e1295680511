package io.kbench.coordinator.report;

import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.Metric;
import io.kbench.coordinator.merge.Summary;
import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;

/**
 * Combines the results of runs that ran at the same time against one cluster (for example from two
 * coordinators) into one: counts and rates add, histograms add (so every percentile is exact over all
 * samples), workers are listed together. Intervals are not merged (the runs' intervals do not line up);
 * each source is named instead. Pure: result documents in, a result document out.
 */
public final class ResultMerge {
    private ResultMerge() { }

    /** One input: where it came from and its parsed result.json. */
    public record Source(String path, JsonNode result) { }

    /** The merged document and its summary (for printing). */
    public record Merged(Map<String, Object> document, Summary summary) { }

    /**
     * @throws IllegalArgumentException naming the source that is not a kbench result
     */
    public static Map<String, Object> merge(List<Source> sources) {
        return combine(sources).document();
    }

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
        List<Object> workers = new ArrayList<>();
        List<Map<String, Object>> from = new ArrayList<>();
        java.util.Map<String, String> runIds = new java.util.HashMap<>();
        for (Source src : sources) {
            Fields f = new Fields(src.path());
            JsonNode r = src.result();
            if (r == null || !r.isObject() || r.get("summary") == null || r.get("histograms") == null
                    || r.get("runId") == null) {
                throw new IllegalArgumentException(src.path() + ": not a kbench result.json (no runId, summary or histograms)");
            }
            String runId = f.text(r, "runId");
            String earlier = runIds.putIfAbsent(runId, src.path());
            if (earlier != null) {
                throw new IllegalArgumentException(src.path() + ": run " + runId + " is given twice (also " + earlier
                        + "); each run may be merged once, or its counts would be doubled");
            }
            f.text(r, "status");
            JsonNode s = f.object(r, "summary");
            sent += f.whole(s, "summary", "sent", true);
            acked += f.whole(s, "summary", "acked", true);
            failed += f.whole(s, "summary", "failed", true);
            received += f.whole(s, "summary", "received", true);
            clamped += f.whole(s, "summary", "clamped", false);
            negative += f.whole(s, "summary", "negativeEndToEnd", false);
            seconds = Math.max(seconds, f.number(s, "summary", "measuredSeconds", true));
            publishRate += f.number(s, "summary", "publishRate", true);
            publishMBps += f.number(s, "summary", "publishMBps", true);
            consumeRate += f.number(s, "summary", "consumeRate", true);
            consumeMBps += f.number(s, "summary", "consumeMBps", true);
            JsonNode v = s.get("verification");
            verified &= v != null && !v.isNull();
            if (v != null && !v.isNull()) {
                f.object(s, "verification");
                lost += f.whole(v, "summary.verification", "lost", true);
                duplicated += f.whole(v, "summary.verification", "duplicated", true);
                outOfOrder += f.whole(v, "summary.verification", "outOfOrder", true);
                untracked += f.whole(v, "summary.verification", "untracked", false);
            }
            JsonNode e2e = s.get(Metric.END_TO_END.key());
            if (e2e != null && !e2e.isNull()) {
                f.object(s, Metric.END_TO_END.key());
                uncertainty = Math.max(uncertainty, f.whole(e2e, "summary." + Metric.END_TO_END.key(),
                        "uncertaintyMicros", false));
            }
            saturatedIntervals += f.whole(s, "summary", "saturatedIntervals", false);
            JsonNode encoded = f.object(r, "histograms");
            for (Metric m : Metric.values()) {
                JsonNode h = encoded.get(m.key());
                if (h != null && !h.isNull()) {
                    if (!h.isTextual()) {
                        throw new IllegalArgumentException(src.path() + ": histograms." + m.key()
                                + " must be a base64 string, got " + kind(h));
                    }
                    try {
                        histograms.get(m).add(LatencyHistograms.decode(Base64.getDecoder().decode(h.asText())));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(src.path() + ": histograms." + m.key() + " is not a kbench "
                                + "histogram: " + e.getMessage());
                    }
                }
            }
            JsonNode ws = r.get("workers");
            if (ws != null && !ws.isArray()) {
                throw new IllegalArgumentException(src.path() + ": workers must be a list, got " + kind(ws));
            }
            allCompleted &= "COMPLETED".equals(r.path("status").asText());
            r.path("workers").forEach(workers::add);
            Map<String, Object> origin = new LinkedHashMap<>();
            origin.put("path", src.path());
            origin.put("runId", runId);
            origin.put("status", r.path("status").asText());
            origin.put("workload", r.path("workload").path("name").asText());
            from.add(origin);
        }
        Summary merged = new Summary(sent, acked, failed, received, clamped, negative, seconds, 0, 0, 0,
                round(publishRate), round(publishMBps), round(consumeRate), round(consumeMBps), histograms,
                verified ? new Summary.Verification(lost, duplicated, outOfOrder, untracked) : null, uncertainty,
                saturatedIntervals);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("kbenchVersion", io.kbench.protocol.Versions.kbench());
        doc.put("merged", from);
        doc.put("status", allCompleted ? "COMPLETED" : "FAILED");
        doc.put("workers", workers);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("sent", sent);
        summary.put("acked", acked);
        summary.put("failed", failed);
        summary.put("received", received);
        summary.put("measuredSeconds", seconds);
        summary.put("publishRate", merged.publishRate());
        summary.put("publishMBps", merged.publishMBps());
        summary.put("consumeRate", merged.consumeRate());
        summary.put("consumeMBps", merged.consumeMBps());
        for (Metric m : Metric.values()) {
            summary.put(m.key(), LatencyStats.of(histograms.get(m)));
        }
        summary.put(Metric.END_TO_END.key(), ResultDocument.endToEnd(LatencyStats.of(histograms.get(Metric.END_TO_END)),
                uncertainty));
        summary.put("saturatedIntervals", saturatedIntervals);
        if (verified) {
            summary.put("verification", ResultDocument.verification(lost, duplicated, outOfOrder, untracked));
        }
        summary.put("clamped", clamped);
        summary.put("negativeEndToEnd", negative);
        doc.put("summary", summary);
        Map<String, Object> encoded = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            encoded.put(m.key(), Base64.getEncoder().encodeToString(LatencyHistograms.encode(histograms.get(m))));
        }
        doc.put("histograms", encoded);
        return new Merged(doc, merged);
    }

    /** Typed reads of one source's fields; a missing required field or one of another type names file and key. */
    private record Fields(String path) {
        long whole(JsonNode obj, String where, String key, boolean required) {
            JsonNode n = field(obj, where, key, required);
            if (n == null) {
                return 0;
            }
            if (!n.isNumber() || !n.canConvertToExactIntegral() || !n.canConvertToLong() || n.asLong() < 0) {
                throw new IllegalArgumentException(path + ": " + where + "." + key + " must be a whole number >= 0, got "
                        + kind(n));
            }
            return n.asLong();
        }

        double number(JsonNode obj, String where, String key, boolean required) {
            JsonNode n = field(obj, where, key, required);
            if (n == null) {
                return 0;
            }
            if (!n.isNumber() || !Double.isFinite(n.asDouble()) || n.asDouble() < 0) {
                throw new IllegalArgumentException(path + ": " + where + "." + key + " must be a number >= 0, got "
                        + kind(n));
            }
            return n.asDouble();
        }

        /** The field, or null when it is absent and optional. */
        private JsonNode field(JsonNode obj, String where, String key, boolean required) {
            JsonNode n = obj.get(key);
            if ((n == null || n.isNull()) && required) {
                throw new IllegalArgumentException(path + ": " + where + "." + key + " is missing");
            }
            return n == null || n.isNull() ? null : n;
        }

        JsonNode object(JsonNode obj, String key) {
            JsonNode n = obj.get(key);
            if (n == null || !n.isObject()) {
                throw new IllegalArgumentException(path + ": " + key + " must be an object, got " + kind(n));
            }
            return n;
        }

        String text(JsonNode obj, String key) {
            JsonNode n = obj.get(key);
            if (n == null || !n.isTextual() || n.asText().isEmpty()) {
                throw new IllegalArgumentException(path + ": " + key + " must be a non-empty string, got " + kind(n));
            }
            return n.asText();
        }
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
