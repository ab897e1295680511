package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.coordinator.dashboard.DashboardState;
import io.kbench.coordinator.merge.ClientSample;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.workload.Workload;
import io.kbench.driver.DriverConfig;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.kbench.worker.RunSpec;
import io.kbench.worker.WorkerMetrics;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deployment/grafana/kbench.json}: every query names only metrics kbench exports (the names are taken
 * from real scrapes of the coordinator's and a worker's endpoints, not from a list kept by hand), and every
 * query is valid PromQL ({@code promtool check rules} parses them, when Prometheus is installed).
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of(System.getProperty("basedir", "."))
            .resolve("../deployment/grafana/kbench.json");
    private static final Pattern METRIC = Pattern.compile("\\bkbench_[a-z0-9_]+");

    @TempDir
    Path dir;

    @Test
    void shouldQueryOnlyMetricsKbenchExportsInValidPromQl() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode t : panel.path("targets")) {
                queries.add(t.get("expr").asText());
            }
        }
        for (JsonNode v : dashboard.at("/templating/list")) {
            if (v.path("type").asText().equals("query")) {
                queries.add(v.at("/query/query").asText());
            }
        }
        JsonNode annotations = dashboard.at("/annotations/list");
        for (JsonNode a : annotations) {
            queries.add(a.get("expr").asText());
        }
        assertTrue(queries.size() >= 30, "queries: " + queries.size());
        // imported as it is: no import input it does not use, what it needs declared, the run's phases annotated
        assertTrue(dashboard.path("__inputs").isMissingNode(), "no __inputs: the datasource is a variable");
        assertTrue(dashboard.path("__requires").size() >= 2, "__requires declares Grafana and Prometheus");
        assertTrue(annotations.size() >= 1 && annotations.get(0).get("expr").asText().contains("kbench_run_state"),
                annotations.toString());
        // a time series draws a counter as a rate or an increase, never its ever-growing total
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode t : panel.path("targets")) {
                String q = t.get("expr").asText();
                if (panel.path("type").asText().equals("timeseries") && q.contains("_total")) {
                    assertTrue(q.contains("rate(") || q.contains("increase("), panel.get("title") + ": " + q);
                }
            }
        }

        Set<String> exported = exportedNames();
        Set<String> used = new TreeSet<>();
        for (String q : queries) {
            Matcher m = METRIC.matcher(q);
            while (m.find()) {
                used.add(m.group());
                assertTrue(exported.contains(m.group()), m.group() + " (in '" + q + "') is not a metric kbench exports; "
                        + "it exports " + exported);
            }
        }
        // the dashboard shows every family kbench exports (a histogram by its buckets)
        List<String> unshown = new ArrayList<>();
        for (String name : exported) {
            String base = name.replaceAll("_(count|sum)$", "");
            if (!used.contains(name) && !(used.contains(base) && exported.contains(base))
                    && !used.contains(base + "_bucket")) {
                unshown.add(name);
            }
        }
        assertEquals(List.of(), unshown, "exported, but no panel shows them");

        if (!Files.isExecutable(Path.of("/usr/bin/promtool"))) {
            System.out.println("PromQL check SKIPPED: no promtool here; .ci/run installs it");
            return;
        }
        StringBuilder rules = new StringBuilder("groups:\n  - name: kbench-dashboard\n    rules:\n");
        for (int i = 0; i < queries.size(); i++) {
            String expr = queries.get(i).replace("$__rate_interval", "1m").replace("$run_id", ".*")
                    .replace("$worker", ".*");
            if (expr.startsWith("label_values(")) {
                expr = expr.substring("label_values(".length(), expr.indexOf(','));
            }
            rules.append("      - record: kbench:dashboard_query_").append(i).append("\n        expr: '")
                    .append(expr.replace("'", "''")).append("'\n");
        }
        Path file = Files.writeString(dir.resolve("rules.yml"), rules);
        Process p = new ProcessBuilder("/usr/bin/promtool", "check", "rules", file.toString()).redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "promtool check rules on the dashboard's queries:\n" + out + "\n" + rules);
    }

    /** Every sample name the two endpoints write, scraped from a coordinator and a worker that measured. */
    private Set<String> exportedNames() throws IOException {
        Path yaml = Files.writeString(dir.resolve("w.yaml"), """
                name: names
                topics: 1
                partitionsPerTopic: 1
                messageSize: 10
                producersPerTopic: 1
                subscriptionsPerTopic: 1
                consumersPerSubscription: 1
                producerRate: 100
                durationSeconds: 10
                verification: true
                shareGroupsPerTopic: 1
                """);
        DashboardState coordinator = new DashboardState(event -> { });
        coordinator.on(new RunEvent.Begin("r1", Workload.load(yaml)));
        coordinator.on(new RunEvent.WorkerHeard("w1", 1_000_000));
        Map<Metric, Histogram> none = new java.util.EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            none.put(m, LatencyHistograms.create());
        }
        coordinator.on(new RunEvent.Interval(new MergedInterval(0, 0, 1_000_000, new Counters(1, 1, 0, 10, 1, 10, 0, 0),
                MergedInterval.statsOf(none), 1, List.of(), 0, ClientSample.NONE, ClientSample.NONE,
                new io.kbench.coordinator.merge.HostFigures(1, 0.5, 0.5, "w1", 1_000, 0.1, 2_000, 0.6, 0.0, 0.1))));
        String text = new String(coordinator.metrics(null, 2_000_000).body(), StandardCharsets.UTF_8);

        WorkerMetrics worker = new WorkerMetrics("w1");
        RunSpec spec = new RunSpec("r1", "c:1", "names", 0, "kafka", new DriverConfig(Map.of(), Map.of(), Map.of(),
                Map.of()), List.of(), List.of(), List.of(new RunSpec.Producer(0, "t", 100, 0)), List.of(), 1_000_000,
                RunSpec.Values.generated(10, 0), RunSpec.KeyChoice.NONE, RunSpec.ConsumerStart.AT_END,
                RunSpec.Transactions.NONE, true, true, "d", false, List.of(), RunSpec.Share.NONE, RunSpec.ConsumerWork.NONE, false);
        worker.prepared(spec, () -> Counters.ZERO);
        byte[] e = new byte[0];
        worker.snapshot(spec, new IntervalSnapshot("w1", 0, 0, 1_000_000, Counters.ZERO,
                IntervalSnapshot.histograms(e, e, e, e, e), false, 0, 0, false, "", 0,
                io.kbench.protocol.ClientMetricsSample.NONE, io.kbench.protocol.ClientMetricsSample.NONE, List.of(),
                new io.kbench.protocol.HostSample(2, 1_000_000, 1_000_000, 1_000, 1, 100, 1_000, "", 2_000, 0.6, 0.0,
                        100_000), List.of()));
        text += new String(worker.families().write(null).body(), StandardCharsets.UTF_8);

        Set<String> names = new TreeSet<>();
        for (String line : text.split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                names.add(line.substring(0, line.indexOf('{') > 0 ? line.indexOf('{') : line.indexOf(' ')));
            }
        }
        assertFalse(names.isEmpty());
        return names;
    }
}
