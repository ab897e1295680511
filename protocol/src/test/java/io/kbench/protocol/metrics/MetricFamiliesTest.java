package io.kbench.protocol.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.prometheus.metrics.model.snapshots.Unit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class MetricFamiliesTest {
    @Test
    void shouldPutEachSampleInTheFirstBucketAtOrAboveIt() {
        Histogram h = LatencyHistograms.create();
        h.recordValue(100);         // exactly the first bound: in it
        h.recordValue(101);         // just above it
        h.recordValue(2_500);       // 2.5 ms
        h.recordValue(120_000_000); // two minutes: above every bound
        long[] b = MetricFamilies.emptyBuckets();
        MetricFamilies.addToBuckets(h, b);
        MetricFamilies.addToBuckets(LatencyHistograms.create(), b); // nothing
        assertEquals(MetricFamilies.BUCKETS_SECONDS.length + 1, b.length);
        assertEquals(1, b[0]);
        assertEquals(1, b[1], "101 us: the 250 us bucket");
        assertEquals(1, b[4], "2.5 ms: its own bound");
        assertEquals(1, b[b.length - 1], "+Inf");
        assertEquals(4, java.util.Arrays.stream(b).sum());
        assertThrows(IllegalArgumentException.class, () -> new MetricFamilies().histogram("kbench_x_seconds", "x",
                new long[3], 0));
    }

    @Test
    void shouldWritePrometheusTextWithConventionalNamesLabelsAndNoTimestamps() {
        Map<String, Double> ages = new LinkedHashMap<>();
        ages.put("w1", 0.5);
        ages.put("w\"2", 1.5);
        MetricFamilies f = new MetricFamilies("run_id", "r1", "workload", "a \"quoted\" name\n")
                .gauges("kbench_snapshot_age_seconds", "age", Unit.SECONDS, "worker", ages)
                .state("kbench_run_state", "state", List.of("preparing", "measuring"), "measuring")
                .buildInfo("0.1.0", "", 7)
                .counter("kbench_messages_acked", "acked", 42)
                .histogram("kbench_" + MetricFamilies.name(Metric.PUBLISH_LATENCY), "latency", buckets(), 0.126);
        MetricFamilies.Scrape scrape = f.write(null);
        String text = new String(scrape.body(), StandardCharsets.UTF_8);
        assertTrue(scrape.contentType().startsWith("text/plain; version=0.0.4"), scrape.contentType());
        assertTrue(text.contains("# TYPE kbench_messages_acked_total counter\n"), text);
        // no explicit timestamp on any sample: Prometheus takes the scrape's, and staleness works
        assertTrue(text.contains("kbench_messages_acked_total{run_id=\"r1\",workload=\"a \\\"quoted\\\" name\\n\"} 42.0\n"),
                "labels escaped by the library, no timestamp: " + text);
        assertTrue(text.contains("kbench_publish_latency_seconds_bucket{run_id=\"r1\",workload=\"a \\\"quoted\\\" name\\n\","
                + "le=\"0.001\"} 40\n"), "cumulative buckets: " + text);
        assertTrue(text.contains("le=\"0.0025\"} 42\n") && text.contains("le=\"+Inf\"} 42\n"), text);
        assertTrue(text.contains("kbench_snapshot_age_seconds{run_id=\"r1\",worker=\"w\\\"2\",workload=\"a \\\"quoted\\\" "
                + "name\\n\"} 1.5\n"), text);
        assertTrue(text.contains("kbench_run_state{run_id=\"r1\",state=\"measuring\",workload=") && text.contains(
                "kbench_run_state{run_id=\"r1\",state=\"preparing\",workload="), "a state label: " + text);
        assertTrue(text.contains("# TYPE kbench_build_info gauge\n") && text.contains("kbench_build_info{commit=\"unknown\","
                + "protocol=\"7\",run_id=\"r1\",version=\"0.1.0\""), text);
        for (String line : text.lines().filter(l -> !l.startsWith("#")).toList()) {
            assertTrue(line.matches(".*} \\S+$"), "one value, no timestamp: " + line);
        }
    }

    @Test
    void shouldWriteOpenMetricsWhenTheScraperAsksForIt() {
        MetricFamilies.Scrape scrape = new MetricFamilies("run_id", "r").counter("kbench_intervals", "n", 3)
                .write("application/openmetrics-text; version=1.0.0,text/plain;version=0.0.4;q=0.5");
        String text = new String(scrape.body(), StandardCharsets.UTF_8);
        assertTrue(scrape.contentType().startsWith("application/openmetrics-text"), scrape.contentType());
        assertTrue(text.contains("# TYPE kbench_intervals counter\n") && text.endsWith("# EOF\n"), text);
    }


    private static long[] buckets() {
        long[] b = MetricFamilies.emptyBuckets();
        b[3] = 40;
        b[4] = 2;
        return b;
    }
}
