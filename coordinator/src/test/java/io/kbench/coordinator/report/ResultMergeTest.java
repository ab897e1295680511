package io.kbench.coordinator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.Metric;
import io.kbench.protocol.LatencyHistograms;
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
        @SuppressWarnings("unchecked")
        Map<String, Object> summary = (Map<String, Object>) m.document().get("summary");
        assertEquals(20_000L, summary.get("acked"));
        assertEquals(3000.75, summary.get("publishRate"));
        assertEquals(LatencyStats.of(all), summary.get("publishLatencyMicros"), "percentiles over all samples");
        assertEquals(2, ((List<?>) m.document().get("workers")).size());
        assertEquals("COMPLETED", m.document().get("status"));
    }

    @Test
    void shouldNameTheFileThatIsNotAResult() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResultMerge.combine(List.of(
                new ResultMerge.Source("a.json", result("r1", LatencyHistograms.create(), 0, 0, "w1")),
                new ResultMerge.Source("x.json", JSON.createObjectNode().put("hello", 1)))));
        assertEquals("x.json: not a kbench result.json (no runId, summary or histograms)", e.getMessage());
    }
}
