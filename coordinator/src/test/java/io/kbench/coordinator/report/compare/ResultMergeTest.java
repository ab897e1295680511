package io.kbench.coordinator.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ResultMergeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode result(String runId, Histogram latency, long acked, double rate, String worker) {
        ObjectNode r = JSON.createObjectNode();
        r.put("runId", runId);
        r.put("status", "COMPLETED");
        r.putObject("workload").put("name", "w");
        r.putArray("workers").addObject().put("id", worker);
        ObjectNode s = r.putObject("summary");
        s.put("sent", acked).put("acked", acked).put("failed", 0).put("received", acked).put("measuredSeconds", 10.0)
                .put("publishRate", rate).put("publishMBps", 1.0).put("consumeRate", rate).put("consumeMBps", 1.0);
        ObjectNode h = r.putObject("histograms");
        for (Metric m : Metric.values()) {
            Histogram hist = m == Metric.PUBLISH_LATENCY ? latency : LatencyHistograms.create();
            h.put(m.key(), Base64.getEncoder().encodeToString(LatencyHistograms.encode(hist)));
        }
        return r;
    }

    @Test
    void shouldAddCountsRatesAndHistogramsExactly() {
        Random random = new Random(42);
        Histogram a = LatencyHistograms.create();
        Histogram b = LatencyHistograms.create();
        Histogram all = LatencyHistograms.create();
        for (int i = 0; i < 20_000; i++) {
            long v = 1 + (long) Math.exp(random.nextDouble() * Math.log(1e6));
            (i % 3 == 0 ? a : b).recordValue(v);
            all.recordValue(v);
        }
        ResultMerge.Merged m = ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", result("r1", a, a.getTotalCount(), 1000.5, "w1")),
                new ResultMerge.Source("b.json", result("r2", b, b.getTotalCount(), 2000.25, "w2"))));
        ResultFile.Summary summary = m.document().summary();
        assertEquals(20_000L, summary.acked());
        assertEquals(3000.75, summary.publishRate());
        assertEquals(LatencyStats.of(all), summary.publishLatencyMicros(), "percentiles over all samples");
        assertEquals(2, m.document().workers().size());
        assertEquals("COMPLETED", m.document().status());
    }

    private static JsonNode window(String runId, long startMillis, long endMillis) {
        ObjectNode r = (ObjectNode) result(runId, LatencyHistograms.create(), 100, 10, "w-" + runId);
        r.put("measureStartMillis", startMillis).put("measureEndMillis", endMillis);
        return r;
    }

    /**
     * Two results of different hours merged: "16,006.1 msg/s ... over the 20.0-s measured window" added the rate of
     * a run at 14:18 to one at 14:34, which the cluster never took together. Refused now; windows that overlap in
     * part are merged with an issue saying how little they share.
     */
    @Test
    void shouldRefuseRunsMeasuredApartAndSayWhenTheyOverlapInPart() {
        long t = 1_796_000_000_000L; // 2026-11-30 00:53:20 UTC
        IllegalArgumentException apart = assertThrows(IllegalArgumentException.class, () -> ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", window("r1", t, t + 20_000)),
                new ResultMerge.Source("b.json", window("r2", t + 960_000, t + 970_000)))));
        assertEquals("a.json was measured 2026-11-30 00:53:20-00:53:40 UTC and b.json 2026-11-30 01:09:20-01:09:30 "
                + "UTC: no time in common, so their rates never added up on the cluster; "
                + "merge combines runs that loaded it at the same time (give results of concurrent runs)", apart.getMessage());
        ResultMerge.Merged part = ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", window("r1", t, t + 20_000)),
                new ResultMerge.Source("b.json", window("r2", t + 12_000, t + 32_000))));
        assertEquals(List.of("the runs' measured windows have 8.0 s in common of the longest's 20.0 s (b.json starts "
                + "2026-11-30 00:53:32 UTC, a.json ends 2026-11-30 00:53:40 UTC): each rate added is over its own run's "
                + "window, so the sums are more than the cluster took at any one time"), part.document().issues());
        // started 1 s apart by hand: 19 of 20 s together, merged without a word
        assertEquals(List.of(), ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", window("r1", t, t + 20_000)),
                new ResultMerge.Source("b.json", window("r2", t + 1_000, t + 21_000)))).document().issues());
        // a result without its window (an older file) is not judged
        assertEquals(List.of(), ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", window("r1", t, t + 20_000)),
                new ResultMerge.Source("b.json", result("r2", LatencyHistograms.create(), 1, 1, "w2")))).document().issues());
    }

    /**
     * Two runs on one topic, each even over 3 partitions of it but writing different keys: together partition 0 took
     * half. A run on a topic of its own keeps its counts; a negative count is refused naming the file.
     */
    @Test
    void shouldAddTheCountsPerPartitionAndFindTheBusiestAgain() {
        ObjectNode a = (ObjectNode) result("r1", LatencyHistograms.create(), 300, 30, "w1");
        a.putObject("partitions").put("workers", 1).putObject("acked").putArray("t").add(100).add(100).add(100);
        ObjectNode b = (ObjectNode) result("r2", LatencyHistograms.create(), 600, 60, "w2");
        ObjectNode bAcked = b.putObject("partitions").put("workers", 2).putObject("acked");
        bAcked.putArray("t").add(500).add(50).add(50);
        bAcked.putArray("own").add(10).add(10);
        ObjectNode none = (ObjectNode) result("r3", LatencyHistograms.create(), 0, 0, "w3");
        ResultFile.Partitions p = ResultMerge.combine(List.of(new ResultMerge.Source("a.json", a),
                new ResultMerge.Source("b.json", b), new ResultMerge.Source("c.json", none))).document().partitions();
        assertEquals(3, p.workers());
        assertEquals(List.of(600L, 150L, 150L), java.util.Arrays.stream(p.acked().get("t")).boxed().toList());
        assertEquals(List.of(10L, 10L), java.util.Arrays.stream(p.acked().get("own")).boxed().toList());
        assertEquals("t", p.busiest().topic());
        assertEquals(0, p.busiest().partition());
        assertEquals(2.0, p.busiest().skew(), 1e-9);
        assertEquals(null, ResultMerge.combine(List.of(new ResultMerge.Source("c.json", none), new ResultMerge.Source(
                "d.json", result("r4", LatencyHistograms.create(), 0, 0, "w4")))).document().partitions(),
                "no run counted per partition");
        ObjectNode bad = (ObjectNode) result("r5", LatencyHistograms.create(), 1, 1, "w5");
        bad.putObject("partitions").put("workers", 1).putObject("acked").putArray("t").add(-1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", a), new ResultMerge.Source("bad.json", bad))));
        assertEquals("bad.json: partitions.acked: topic t partition 0: -1 acknowledged", e.getMessage());
    }

    @Test
    void shouldAddTheShareGroupsFiguresAndMergeTheirHistograms() {
        Histogram d1 = LatencyHistograms.create();
        Histogram d2 = LatencyHistograms.create();
        Histogram all = LatencyHistograms.create();
        for (int i = 1; i <= 3_000; i++) {
            (i % 2 == 0 ? d1 : d2).recordValue(i * 7L);
            all.recordValue(i * 7L);
        }
        ObjectNode a = (ObjectNode) result("r1", LatencyHistograms.create(), 100, 10, "w1");
        ObjectNode b = (ObjectNode) result("r2", LatencyHistograms.create(), 100, 10, "w2");
        ObjectNode plain = (ObjectNode) result("r3", LatencyHistograms.create(), 100, 10, "w3");
        int n = 0;
        for (ObjectNode r : List.of(a, b)) {
            Histogram d = n++ == 0 ? d1 : d2;
            ((ObjectNode) r.get("histograms")).put(Metric.SHARE_DELIVERY.key(),
                    Base64.getEncoder().encodeToString(LatencyHistograms.encode(d)));
            ObjectNode sh = ((ObjectNode) r.get("summary")).putObject("share");
            sh.put("delivered", 1_600).put("bytes", 16_000).put("redelivered", 100).put("accepted", 1_450)
                    .put("released", 100).put("rejected", 50).put("rate", 160.5).put("MBps", 0.5).put("acceptRate", 145.0)
                    .put("unsettled", n).put("verified", false);
            sh.putObject("deliveryLatencyMicros").put("count", d.getTotalCount());
            sh.putObject("acceptLatencyMicros").put("count", 0);
            sh.putObject("perConsumer").put("consumers", 4).put("min", 300 + n).put("max", 500 - n).put("mean", 400.0);
        }
        ResultFile.Share s = ResultMerge.combine(List.of(new ResultMerge.Source("a.json", a),
                new ResultMerge.Source("b.json", b), new ResultMerge.Source("c.json", plain))).document().summary().share();
        assertEquals(3_200, s.delivered());
        assertEquals(200, s.redelivered());
        assertEquals(2_900, s.accepted());
        assertEquals(100, s.rejected());
        assertEquals(321.0, s.rate());
        assertEquals(3L, s.unsettled());
        assertEquals(LatencyStats.of(all), s.deliveryLatencyMicros(), "percentiles over both runs' samples");
        assertEquals(new ResultFile.PerConsumer(8, 301, 499, 400.0), s.perConsumer());
        assertEquals(Boolean.FALSE, s.verified());
        assertEquals(null, ResultMerge.combine(List.of(new ResultMerge.Source("c.json", plain))).document().summary()
                .share(), "no share groups, no share figures");
    }

    @Test
    void shouldNameTheFileThatIsNotAResult() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", result("r1", LatencyHistograms.create(), 0, 0, "w1")),
                new ResultMerge.Source("x.json", JSON.createObjectNode().put("hello", 1)))));
        assertEquals("x.json: not a kbench result.json (no runId, summary or histograms)", e.getMessage());
    }

    private static String refusal(JsonNode bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", result("r1", LatencyHistograms.create(), 10, 1, "w1")),
                new ResultMerge.Source("b.json", bad))));
        return e.getMessage();
    }

    @Test
    void shouldRefuseTheSameRunTwice() {
        assertEquals("b.json: run r1 is given twice (also a.json); each run may be merged once, or its counts would be "
                + "doubled", refusal(result("r1", LatencyHistograms.create(), 10, 1, "w1")));
    }

    @Test
    void shouldRefuseFieldsOfTheWrongTypeNamingFileAndKey() {
        ObjectNode text = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        ((ObjectNode) text.get("summary")).put("sent", "lots");
        assertEquals("b.json: summary.sent must be a whole number >= 0, got the string \"lots\"", refusal(text));

        ObjectNode fraction = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        ((ObjectNode) fraction.get("summary")).put("acked", 1.5);
        assertEquals("b.json: summary.acked must be a whole number >= 0, got 1.5", refusal(fraction));

        ObjectNode missing = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        ((ObjectNode) missing.get("summary")).remove("received");
        assertEquals("b.json: summary.received is missing", refusal(missing));

        // null is not zero: merge adds these, compare judges them (found by a sweep of every key x 12 values)
        ObjectNode nullCount = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        ((ObjectNode) nullCount.get("summary")).putNull("sent");
        assertEquals("b.json: summary.sent must be a whole number >= 0, got nothing", refusal(nullCount));
        ObjectNode nullRate = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        ((ObjectNode) nullRate.get("summary")).putNull("publishRate");
        assertEquals("b.json: summary.publishRate must be a number >= 0, got nothing", refusal(nullRate));
        ObjectNode nullSummary = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        nullSummary.putNull("summary");
        assertEquals("b.json: summary must be an object, got nothing", refusal(nullSummary));

        ObjectNode list = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        list.putArray("summary").add(1);
        assertEquals("b.json: summary must be an object, got a list [1]", refusal(list));

        ObjectNode number = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        ((ObjectNode) number.get("histograms")).put(Metric.PUBLISH_LATENCY.key(), 7);
        assertEquals("b.json: histograms." + Metric.PUBLISH_LATENCY.key() + " must be a base64 string, got 7",
                refusal(number));
    }

    @Test
    void shouldRefuseATruncatedHistogramOrOneOfAnotherShape() {
        Histogram h = LatencyHistograms.create();
        h.recordValue(1234);
        String full = Base64.getEncoder().encodeToString(LatencyHistograms.encode(h));
        ObjectNode truncated = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        ((ObjectNode) truncated.get("histograms")).put(Metric.PUBLISH_LATENCY.key(), full.substring(0, full.length() / 2));
        String message = refusal(truncated);
        assertEquals("b.json: histograms." + Metric.PUBLISH_LATENCY.key() + " is not a kbench histogram: not a compressed "
                + "HdrHistogram (truncated or corrupt)", message.replaceFirst(" \\(truncated or corrupt: .*\\)$",
                " (truncated or corrupt)"));

        Histogram wide = new Histogram(1, 100_000_000_000L, 2);
        wide.recordValue(50_000_000_000L);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(wide.getNeededByteBufferCapacity());
        int n = wide.encodeIntoCompressedByteBuffer(b);
        ObjectNode other = (ObjectNode) result("r2", LatencyHistograms.create(), 10, 1, "w2");
        ((ObjectNode) other.get("histograms")).put(Metric.PUBLISH_LATENCY.key(),
                Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(b.array(), n)));
        assertTrue(refusal(other).startsWith("b.json: histograms." + Metric.PUBLISH_LATENCY.key() + " is not a kbench "
                + "histogram: a histogram of another shape (lowest 1, 2 significant digits"), refusal(other));
    }

    @Test
    void shouldReadAMergedResultAsARunForCompareAndRefuseOneThatIsNot() throws Exception {
        JsonNode merged = JSON.readTree("{\"merged\": [{\"runId\": \"r1\", \"workload\": \"w\"}, {\"runId\": \"r2\", "
                + "\"workload\": \"v\"}], \"status\": \"COMPLETED\", \"summary\": {}, \"histograms\": {}}");
        JsonNode run = ResultMerge.mergedAsRun(merged);
        assertEquals("merged r1+r2", run.get("runId").asText());
        assertTrue(!run.has("workload"), "two workloads: no one name");
        assertEquals(null, ResultMerge.mergedAsRun(result("r", LatencyHistograms.create(), 1, 1, "w")), "a run");
        IllegalArgumentException notList = assertThrows(IllegalArgumentException.class, () -> ResultMerge.read(
                new ResultMerge.Source("m.json", JSON.readTree("{\"merged\": \"x\", \"summary\": {}, \"histograms\": {}}"))));
        assertEquals("m.json: merged must be a list of the results merged, got the string \"x\"", notList.getMessage());
    }
}
