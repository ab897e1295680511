package io.kbench.coordinator.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.CatchUp;
import io.kbench.coordinator.merge.Counters;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Metric;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Versions;

/**
 * Builds and writes {@code result.json} (documented in docs/results.md). The document is assembled as
 * ordered maps so its key order is stable and readable; secrets in the profile are redacted.
 */
public final class ResultDocument {
    private static final double MB = 1024.0 * 1024.0;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One worker as the result lists it: its share (producers, consumers, target rate in msg/s, -1
     * unthrottled), its clock (offset to the coordinator as first estimated, the bound on the error of every
     * offset in effect, how far re-estimation moved it, estimates taken and corrections made), and the counts
     * it reported over the whole run.
     */
    public record WorkerEntry(String id, String address, long clockOffsetMicros, long clockUncertaintyMicros,
                              long clockDriftMicros, int clockEstimates, int clockCorrections,
                              int producers, int consumers, long targetRate, long sent, long acked, long failed,
                              long received) { }

    /**
     * A worker whose connection broke during the run (process killed, host or network down).
     *
     * @param lastInterval the last interval it reported (-1: none); later intervals lack its figures
     */
    public record LostWorker(String id, String address, String reason, long lastInterval) { }

    private ResultDocument() { }

    /**
     * @param status  COMPLETED or FAILED
     * @param error   why the run failed, or null
     * @param catchUp the catch-up read of a backlog run, or null
     * @param rebalanceMicros longest time a consumer took from subscribing to its first assignment
     * @param issues  problems seen (missing snapshots, incomplete drain), possibly empty
     * @param lostWorkers workers whose connection broke during the run, possibly empty
     * @param faults  the faults injected into the local cluster, and when
     */
    public static Map<String, Object> build(String runId, String status, String error, Instant startedAt,
                                            Workload workload, Profile profile, List<WorkerEntry> workers,
                                            List<String> topics, long runStartMicros, long measureStartMicros,
                                            long measureEndMicros, List<MergedInterval> intervals, Summary summary,
                                            CatchUp catchUp, long rebalanceMicros, List<String> issues,
                                            List<LostWorker> lostWorkers, FaultTimeline faults) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("kbenchVersion", Versions.kbench());
        doc.put("runId", runId);
        doc.put("status", status);
        doc.put("error", error);
        doc.put("startedAt", startedAt.toString());
        doc.put("startMillis", runStartMicros / 1000);
        doc.put("measureStartMillis", measureStartMicros / 1000);
        doc.put("measureEndMillis", measureEndMicros / 1000);
        doc.put("saturationThresholdMicros", workload.saturationDelayMillis() * 1000);
        doc.put("workload", workload);
        doc.put("profile", profile.redacted());
        doc.put("topics", topics);
        doc.put("workers", workers);
        doc.put("lostWorkers", lostWorkers);
        List<Map<String, Object>> injected = new ArrayList<>();
        for (FaultTimeline.Event e : faults.events()) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("action", e.fault().action().name());
            f.put("broker", e.fault().broker());
            f.put("atSeconds", e.fault().atSeconds());
            f.put("requestedMillis", e.requestMicros() / 1000);
            f.put("doneMillis", e.doneMicros() == 0 ? null : e.doneMicros() / 1000);
            f.put("error", e.error());
            injected.add(f);
        }
        doc.put("faults", injected);
        List<Map<String, Object>> list = new ArrayList<>();
        for (MergedInterval i : intervals) {
            Map<String, Object> m = interval(i, measureStartMicros, workload.saturationDelayMillis() * 1000,
                    workload.verification());
            m.put("faults", faults.downDuring(i.startMicros(), i.endMicros()));
            list.add(m);
        }
        doc.put("intervals", list);
        Map<String, Object> sum = summary(summary, rebalanceMicros);
        if (catchUp != null) {
            sum.put("catchUp", catchUp);
        }
        doc.put("summary", sum);
        Map<String, Object> histograms = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            histograms.put(m.key(), Base64.getEncoder().encodeToString(LatencyHistograms.encode(summary.histograms().get(m))));
        }
        doc.put("histograms", histograms);
        doc.put("issues", issues);
        return doc;
    }

    private static Map<String, Object> interval(MergedInterval i, long measureStartMicros, long saturationMicros,
                                                boolean verification) {
        Counters c = i.counters();
        double secs = i.seconds();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", i.index());
        m.put("startMillis", i.startMicros() / 1000);
        m.put("endMillis", i.endMicros() / 1000);
        m.put("warmup", i.startMicros() < measureStartMicros);
        m.put("saturated", i.saturated(saturationMicros));
        m.put("workers", i.workers());
        Map<String, Object> pub = new LinkedHashMap<>();
        pub.put("sent", c.sent());
        pub.put("acked", c.acked());
        pub.put("failed", c.failed());
        pub.put("bytes", c.ackedBytes());
        pub.put("rate", round(c.acked() / secs));
        pub.put("MBps", round(c.ackedBytes() / MB / secs));
        pub.put("latencyMicros", i.stats(Metric.PUBLISH_LATENCY));
        pub.put("responseMicros", i.stats(Metric.PUBLISH_RESPONSE));
        pub.put("delayMicros", i.stats(Metric.PUBLISH_DELAY));
        m.put("publish", pub);
        Map<String, Object> con = new LinkedHashMap<>();
        con.put("received", c.received());
        con.put("bytes", c.receivedBytes());
        con.put("rate", round(c.received() / secs));
        con.put("MBps", round(c.receivedBytes() / MB / secs));
        con.put("endToEndLatencyMicros", i.stats(Metric.END_TO_END));
        con.put("lag", i.consumerLag() < 0 ? null : i.consumerLag());
        m.put("consume", con);
        if (verification) {
            m.put("verification", verification(c.lost(), c.duplicated(), c.outOfOrder(), c.untracked()));
        }
        m.put("clamped", c.clamped());
        m.put("negativeEndToEnd", c.negativeEndToEnd());
        Map<String, Object> client = new LinkedHashMap<>();
        client.put("producer", i.producerClients().values().isEmpty() ? null : new java.util.TreeMap<>(i.producerClients().values()));
        client.put("consumer", i.consumerClients().values().isEmpty() ? null : new java.util.TreeMap<>(i.consumerClients().values()));
        m.put("client", client);
        m.put("errors", i.errors());
        return m;
    }

    /** A verification object: lost, duplicated, out of order, and untracked when there were any. */
    static Map<String, Object> verification(long lost, long duplicated, long outOfOrder, long untracked) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("lost", lost);
        v.put("duplicated", duplicated);
        v.put("outOfOrder", outOfOrder);
        if (untracked > 0) {
            v.put("untracked", untracked);
        }
        return v;
    }

    private static Map<String, Object> summary(Summary s, long rebalanceMicros) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sent", s.sent());
        m.put("acked", s.acked());
        m.put("failed", s.failed());
        m.put("received", s.received());
        m.put("measuredSeconds", s.measuredSeconds());
        m.put("publishRate", s.publishRate());
        m.put("publishMBps", s.publishMBps());
        m.put("consumeRate", s.consumeRate());
        m.put("consumeMBps", s.consumeMBps());
        for (Metric metric : Metric.values()) {
            m.put(metric.key(), s.stats(metric));
        }
        m.put(Metric.END_TO_END.key(), endToEnd(s.stats(Metric.END_TO_END), s.endToEndUncertaintyMicros()));
        m.put("saturatedIntervals", s.saturatedIntervals());
        m.put("consume", consume(s, rebalanceMicros));
        if (s.verification() != null) {
            Summary.Verification v = s.verification();
            m.put("verification", verification(v.lost(), v.duplicated(), v.outOfOrder(), v.untracked()));
        }
        m.put("clamped", s.clamped());
        m.put("negativeEndToEnd", s.negativeEndToEnd());
        return m;
    }

    /** The end-to-end latency object with the clock error bound of its samples. */
    static Map<String, Object> endToEnd(LatencyStats stats, long uncertaintyMicros) {
        @SuppressWarnings("unchecked")
        Map<String, Object> e2e = JSON.convertValue(stats, Map.class);
        e2e.put("uncertaintyMicros", uncertaintyMicros);
        return e2e;
    }

    /**
     * The figures kafka-consumer-perf-test prints, for the measured window: data consumed (MB, messages),
     * MB/s and msg/s over rebalance plus fetch time, rebalance time (longest time a consumer took from
     * subscribing to its first assignment), fetch time (the measured window: consumers are held until the
     * start instant, so it holds no rebalance), and MB/s and msg/s over fetch time only.
     */
    static Map<String, Object> consume(Summary s, long rebalanceMicros) {
        double mb = s.measuredReceivedBytes() / MB;
        long rebalanceMs = rebalanceMicros / 1000;
        long fetchMs = Math.round(s.measuredSeconds() * 1000);
        double total = (rebalanceMs + fetchMs) / 1000.0;
        double fetch = fetchMs / 1000.0;
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("MB", round4(mb));
        c.put("messages", s.measuredReceived());
        c.put("MBps", total <= 0 ? 0 : round4(mb / total));
        c.put("messagesPerSecond", total <= 0 ? 0 : round4(s.measuredReceived() / total));
        c.put("rebalanceTimeMs", rebalanceMs);
        c.put("fetchTimeMs", fetchMs);
        c.put("fetchMBps", fetch <= 0 ? 0 : round4(mb / fetch));
        c.put("fetchMessagesPerSecond", fetch <= 0 ? 0 : round4(s.measuredReceived() / fetch));
        return c;
    }

    private static double round4(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    /** Writes {@code doc} as {@code dir/result.json} and returns the file. */
    public static Path write(Path dir, Map<String, Object> doc) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("result.json");
        Path tmp = dir.resolve("result.json.tmp");
        JSON.writeValue(tmp.toFile(), doc);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return file;
    }
}
