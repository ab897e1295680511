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
    void shouldExportTheHistogramsOwnPercentilesInSeconds() {
        Histogram h = LatencyHistograms.create();
        for (long v = 1; v <= 100_000; v++) {
            h.recordValue(v);
        }
        double[] q = MetricFamilies.quantileSeconds(h);
        assertEquals(h.getValueAtPercentile(50) / 1e6, q[0]);
        assertEquals(h.getValueAtPercentile(99) / 1e6, q[3]);
        assertEquals(h.getValueAtPercentile(99.99) / 1e6, q[5]);
        assertEquals(h.getMaxValue() / 1e6, q[6], "quantile 1 is the maximum");
        for (double v : MetricFamilies.quantileSeconds(LatencyHistograms.create())) {
            assertTrue(Double.isNaN(v), "an interval without samples has no quantiles (NaN, as Prometheus expects)");
        }
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
                .summary("kbench_" + MetricFamilies.name(Metric.PUBLISH_LATENCY), "latency",
                        new double[] {0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007}, 42, 0.126);
        MetricFamilies.Scrape scrape = f.write(null);
        String text = new String(scrape.body(), StandardCharsets.UTF_8);
        assertTrue(scrape.contentType().startsWith("text/plain; version=0.0.4"), scrape.contentType());
        assertTrue(text.contains("# TYPE kbench_messages_acked_total counter\n"), text);
        // no explicit timestamp on any sample: Prometheus takes the scrape's, and staleness works
        assertTrue(text.contains("kbench_messages_acked_total{run_id=\"r1\",workload=\"a \\\"quoted\\\" name\\n\"} 42.0\n"),
                "labels escaped by the library, no timestamp: " + text);
        assertTrue(text.contains("kbench_publish_latency_seconds{run_id=\"r1\",workload=\"a \\\"quoted\\\" name\\n\","
                + "quantile=\"0.99\"} 0.004\n"), text);
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

    @Test
    void shouldRefuseASummaryWithTheWrongNumberOfQuantiles() {
        assertThrows(IllegalArgumentException.class, () -> new MetricFamilies().summary("kbench_x_seconds", "x",
                new double[] {1}, 1, 1));
    }
}
