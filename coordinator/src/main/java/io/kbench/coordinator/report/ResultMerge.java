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
        for (Source src : sources) {
            JsonNode r = src.result();
            JsonNode s = r.get("summary");
            if (s == null || r.get("histograms") == null || r.get("runId") == null) {
                throw new IllegalArgumentException(src.path() + ": not a kbench result.json (no runId, summary or histograms)");
            }
            sent += s.path("sent").asLong();
            acked += s.path("acked").asLong();
            failed += s.path("failed").asLong();
            received += s.path("received").asLong();
            clamped += s.path("clamped").asLong();
            negative += s.path("negativeEndToEnd").asLong();
            seconds = Math.max(seconds, s.path("measuredSeconds").asDouble());
            publishRate += s.path("publishRate").asDouble();
            publishMBps += s.path("publishMBps").asDouble();
            consumeRate += s.path("consumeRate").asDouble();
            consumeMBps += s.path("consumeMBps").asDouble();
            JsonNode v = s.get("verification");
            verified &= v != null;
            if (v != null) {
                lost += v.path("lost").asLong();
                duplicated += v.path("duplicated").asLong();
                outOfOrder += v.path("outOfOrder").asLong();
                untracked += v.path("untracked").asLong();
            }
            uncertainty = Math.max(uncertainty, s.path(Metric.END_TO_END.key()).path("uncertaintyMicros").asLong());
            saturatedIntervals += s.path("saturatedIntervals").asLong();
            for (Metric m : Metric.values()) {
                JsonNode h = r.get("histograms").get(m.key());
                if (h != null) {
                    try {
                        histograms.get(m).add(LatencyHistograms.decode(Base64.getDecoder().decode(h.asText())));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(src.path() + ": histograms." + m.key() + " is not an "
                                + "encoded HdrHistogram: " + e.getMessage());
                    }
                }
            }
            allCompleted &= "COMPLETED".equals(r.path("status").asText());
            r.path("workers").forEach(workers::add);
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("path", src.path());
            f.put("runId", r.get("runId").asText());
            f.put("status", r.path("status").asText());
            f.put("workload", r.path("workload").path("name").asText());
            from.add(f);
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

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
