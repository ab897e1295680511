package io.kbench.coordinator.report.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.report.result.ResultFileTest;
import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
    private static JsonNode data(String html) throws Exception {
        String open = "<script id=\"kbench-data\" type=\"application/json\">";
        int a = html.indexOf(open) + open.length();
        int b = html.indexOf("</script>", a);
        return ResultDocument.JSON.readTree(html.substring(a, b));
    }

    @Test
    void shouldDrawTheDistributionFromTheHistogramsOwnValues() {
        Histogram h = LatencyHistograms.create();
        Random random = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            h.recordValue(1 + (long) Math.exp(random.nextDouble() * Math.log(2e6)));
        }
        Map<String, List<Double>> d = HtmlReport.distribution(h);
        assertEquals(HtmlReport.DISTRIBUTION_POINTS, d.get("x").size());
        for (int k = 0; k < HtmlReport.DISTRIBUTION_POINTS; k++) {
            double x = d.get("x").get(k);
            double percentile = HtmlReport.percentileAt(x);
            assertEquals(Math.max(0.001, h.getValueAtPercentile(percentile) / 1000.0), d.get("y").get(k), 1e-9,
                    "percentile " + percentile);
        }
        assertEquals(0.0, HtmlReport.percentileAt(1), 1e-12);
        assertEquals(99.999, HtmlReport.percentileAt(d.get("x").get(50)), 1e-9);
        assertTrue(HtmlReport.distribution(LatencyHistograms.create()).get("x").isEmpty(), "no samples, no points");
    }

    @Test
    void shouldCarryOnePointPerIntervalAndEveryShadedInterval() throws Exception {
        ResultFile.Run run = ResultFileTest.run();
        String html = HtmlReport.render("kbench t", List.of(new HtmlReport.Named("t", run)));
        JsonNode r = data(html).get("runs").get(0);
        int intervals = run.intervals().size();
        assertEquals(intervals, r.get("t").size());
        assertEquals(intervals, r.get("publishRate").size());
        assertEquals(intervals, r.get("latency").get("endToEndLatencyMicros").get("p99").size());
        assertEquals(intervals, r.get("client").get("batch-size-avg").size());
        assertEquals(1, r.get("bands").get("warmup").size(), "the first interval is warm-up");
        assertEquals(3.0, r.get("target").asDouble());
        assertFalse(html.contains("cdn") || html.contains("http://") && !html.contains("http://www.w3.org"),
                "nothing fetched from the network");
        assertTrue(html.contains("uPlot"), "the chart library is inlined");
    }

    @Test
    void shouldListTheMaxRateSearchsTrialsAsTheConsoleDoes() throws Exception {
        ResultFile.Run plain = ResultFileTest.run();
        assertTrue(data(HtmlReport.render("t", List.of(new HtmlReport.Named("t", plain)))).get("runs").get(0)
                .path("rateSearch").isMissingNode(), "no search, no table");
        ResultFile.Run run = plain.withRateSearch(new ResultFile.RateSearch(50_000L, true, 0.02, 12,
                List.of("publishResponse.p99<=50ms"), "max sustainable rate 50,000 msg/s", "cluster",
                "50,000 msg/s passed 2 of 2 trial(s)", List.of(
                        new ResultFile.Trial(1, "probe", -1, 81_234.5, false, "run", List.of("a probe has no target"),
                                List.of(), List.of(new ResultFile.SloFigure("publishResponse.p99<=50ms", 612_000, 50_000, false)),
                                "r1", plain.summary(), "generator"),
                        new ResultFile.Trial(2, "bracket", 50_000, 49_990, true, "none", List.of(),
                                List.of("1 of 30 interval(s) saturated (publish delay p99 above 10 ms)"),
                                List.of(new ResultFile.SloFigure("publishResponse.p99<=50ms", 7_250, 50_000, true)),
                                "r2", plain.summary(), "none"))));
        JsonNode search = data(HtmlReport.render("t", List.of(new HtmlReport.Named("t", run)))).get("runs").get(0)
                .get("rateSearch");
        assertEquals("max sustainable rate 50,000 msg/s", search.get("outcome").asText());
        assertEquals(2, search.get("trials").size());
        assertEquals("cluster", search.get("limitedBy").asText());
        assertEquals("50,000 msg/s passed 2 of 2 trial(s)", search.get("confidence").asText());
        assertEquals("[\"1\",\"probe\",\"unthrottled\",\"81,235\",\"publishResponse.p99<=50ms: 612.00 ms !\",\"fail (run)\","
                + "\"a probe has no target\",\"\",\"generator\"]", search.get("trials").get(0).toString());
        assertEquals("[\"2\",\"bracket\",\"50,000\",\"49,990\",\"publishResponse.p99<=50ms: 7.25 ms\",\"pass\",\"\","
                + "\"1 of 30 interval(s) saturated (publish delay p99 above 10 ms)\",\"none\"]",
                search.get("trials").get(1).toString());
    }

    @Test
    void shouldDrawALongRunInBucketsShowingTheWorstOfEach() throws Exception {
        ResultFile.Run run = ResultFileTest.run();
        ResultFile.Interval model = run.intervals().get(1);
        java.util.List<ResultFile.Interval> many = new java.util.ArrayList<>();
        for (int k = 0; k < 5000; k++) {
            ResultFile.Publish p = model.publish();
            var lat = p.latencyMicros();
            long p99 = k == 4321 ? 9_000_000 : lat.p99(); // one stall, which must stay visible
            var stats = new io.kbench.coordinator.merge.LatencyStats(lat.count(), lat.mean(), lat.p50(), lat.p75(),
                    lat.p95(), p99, Math.max(p99, lat.p999()), Math.max(p99, lat.p9999()), Math.max(p99, lat.max()));
            many.add(new ResultFile.Interval(k, run.startMillis() + 1000L * k, run.startMillis() + 1000L * (k + 1), k < 10,
                    k % 2 == 0, 1, new ResultFile.Publish(p.sent(), p.acked(), p.failed(), p.bytes(), p.rate(), p.mbps(),
                            stats, p.responseMicros(), p.delayMicros()), model.consume(), null, 0, 0, model.client(),
                    List.of(), List.of(), model.hosts(), model.brokers()));
        }
        ResultFile.Run longRun = new ResultFile.Run(run.schemaVersion(), run.kbenchVersion(), run.runId(), run.status(),
                null, run.startedAt(), run.startMillis(), run.measureStartMillis(), run.startMillis() + 5_000_000L,
                run.saturationThresholdMicros(), run.workload(), run.profile(), run.provenance(), run.topics(), run.workers(),
                run.lostWorkers(), run.faults(), many, run.summary(), run.histograms(), run.issues(), null, null);
        JsonNode r = data(HtmlReport.render("long", List.of(new HtmlReport.Named("long", longRun)))).get("runs").get(0);
        assertEquals(3, r.get("intervalsPerPoint").asInt());
        assertEquals(1667, r.get("t").size(), "5,000 intervals in buckets of 3");
        assertEquals(1667, r.get("latency").get("publishLatencyMicros").get("p99").size());
        assertEquals(9000.0, r.get("latency").get("publishLatencyMicros").get("p99").get(4321 / 3).asDouble(),
                "the bucket shows its worst interval");
        assertEquals(1, r.get("bands").get("warmup").size(), "contiguous warm-up intervals are one band");
        assertEquals(1, r.get("bands").get("saturated").size(),
                "every other interval saturated: each bucket of 3 has one, so the whole run is shaded at this resolution");
    }

    @Test
    void shouldKeepHostileTextInsideTheDataAndOverlaySeveralRuns() throws Exception {
        ResultFile.Run run = ResultFileTest.run();
        ResultFile.Run evil = new ResultFile.Run(run.schemaVersion(), run.kbenchVersion(), run.runId(), "FAILED",
                "</script><script>alert(1)</script> /*DATA*/", run.startedAt(), run.startMillis(),
                run.measureStartMillis(), run.measureEndMillis(), run.saturationThresholdMicros(), run.workload(),
                run.profile(), run.provenance(), run.topics(), run.workers(), run.lostWorkers(), run.faults(), run.intervals(),
                run.summary(), run.histograms(), List.of("<b>issue</b>"), null, null);
        String html = HtmlReport.render("a </title> b", List.of(new HtmlReport.Named("one", run),
                new HtmlReport.Named("two", evil)));
        assertFalse(html.contains("</script><script>alert(1)"), "an error text cannot end the data element");
        assertEquals(2, data(html).get("runs").size());
        assertTrue(data(html).get("runs").get(1).get("header").asText().contains("</script><script>alert(1)"),
                "the text itself is kept, as data");
        assertTrue(html.contains("<title>a &lt;/title&gt; b</title>"));
    }

    @Test
    void shouldWriteThePageDataFromItsRecordsKeyForKey() throws Exception {
        ResultFile.Run run = ResultFileTest.run().withNetwork(new ResultFile.Network(10, 3, 6, 3, 1, 1192.09, 1192.09,
                "in", 11.92, "brokers", 0.01, "b1:9999", 29.8, 0.025));
        JsonNode page = data(HtmlReport.render("t", List.of(new HtmlReport.Named("one", run))));
        assertEquals(components(PageData.class, "live"), names(page), "a finished report has no live state");
        JsonNode r = page.get("runs").get(0);
        List<String> expected = new java.util.ArrayList<>();
        for (String c : components(PageData.Run.class)) {
            if (c.equals("charts")) {
                expected.addAll(components(PageData.Charts.class)); // unwrapped into the run
            } else if (!(c.equals("rateSearch") && run.rateSearch() == null || c.equals("diagnosis") && run.diagnosis() == null)) {
                expected.add(c); // those two only when the run has them
            }
        }
        assertEquals(expected, names(r));
        assertEquals(components(PageData.Summary.class), names(r.get("summary")));
        assertTrue(r.get("network").asText().startsWith("at 10 Gbit/s per broker (1192 MB/s each way), 3 broker(s), 6 "
                + "partition(s), RF 3, 1 group(s): at most 1192.1 MB/s produced") && r.get("network").asText()
                .endsWith("this run 11.92 MB/s (the brokers' bytes in) = 1.0% of it; busiest link: broker b1:9999 at 29.80 "
                        + "MB/s = 2.5% of it"), r.get("network").asText());
    }

    /** A share-group run has no classic consumers: its consume rate and end-to-end latency are absent, not 0. */
    @Test
    void shouldLeaveOutTheFiguresARunCouldNotHave() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode doc = ResultDocument.JSON.valueToTree(ResultFileTest.run());
        ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("workload")).put("subscriptionsPerTopic", 0)
                .put("shareGroupsPerTopic", 1);
        ResultFile.Run share = ResultDocument.JSON.treeToValue(doc, ResultFile.Run.class);
        JsonNode sum = data(HtmlReport.render("t", List.of(new HtmlReport.Named("share", share)))).get("runs").get(0)
                .get("summary");
        for (String absent : List.of("consumeRate", "e2eP50", "e2eP99", "e2eP999")) {
            assertTrue(sum.path(absent).isNull() || sum.path(absent).isMissingNode(), absent + ": " + sum);
        }
        assertTrue(sum.get("publishRate").isNumber(), sum.toString());
        JsonNode classic = data(HtmlReport.render("t", List.of(new HtmlReport.Named("one", ResultFileTest.run()))))
                .get("runs").get(0).get("summary");
        assertTrue(classic.get("consumeRate").isNumber() && classic.get("e2eP99").isNumber(), classic.toString());
    }

    /**
     * An unthrottled run has no publish delay: the finished page says why in the chart's place; a throttled run's
     * chart is drawn, and the live page (samples still to come) draws every chart.
     */
    @Test
    void shouldSayWhyAChartHasNoSamples() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode doc = ResultDocument.JSON.valueToTree(ResultFileTest.run());
        ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("workload")).put("producerRate", -1);
        ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("summary")).set("publishDelayMicros",
                ResultDocument.JSON.valueToTree(io.kbench.coordinator.merge.LatencyStats.EMPTY));
        ResultFile.Run unthrottled = ResultDocument.JSON.treeToValue(doc, ResultFile.Run.class);
        JsonNode delay = heading(data(HtmlReport.render("t", List.of(new HtmlReport.Named("u", unthrottled)))),
                "publishDelayMicros");
        assertTrue(delay.path("empty").asText().startsWith("no samples: unthrottled producers"), delay.toString());
        assertTrue(heading(data(HtmlReport.render("t", List.of(new HtmlReport.Named("u", unthrottled)))),
                "publishLatencyMicros").path("empty").isMissingNode(), "a chart with samples is drawn");
        // beside a run that has samples, the chart is drawn for it
        JsonNode both = data(HtmlReport.render("t", List.of(new HtmlReport.Named("u", unthrottled),
                new HtmlReport.Named("one", ResultFileTest.run()))));
        assertTrue(heading(both, "publishDelayMicros").path("empty").isMissingNode(), both.get("metrics").toString());
    }

    private static JsonNode heading(JsonNode page, String id) {
        for (JsonNode m : page.get("metrics")) {
            if (m.get("id").asText().equals(id)) {
                return m;
            }
        }
        throw new AssertionError("no heading " + id + ": " + page.get("metrics"));
    }

    private static List<String> components(Class<? extends Record> type, String... leftOut) {
        return java.util.Arrays.stream(type.getRecordComponents()).map(java.lang.reflect.RecordComponent::getName)
                .filter(n -> !List.of(leftOut).contains(n)).toList();
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** A run of the gzip sweep with {@code producer} its profile's producer section. */
    private static io.kbench.coordinator.report.result.ResultFile.Run sweepRun(String producer) throws Exception {
        return io.kbench.coordinator.report.result.ResultDocument.JSON.readValue("""
                {"runId": "r", "status": "COMPLETED", "histograms": {}, "summary": {"sent": 1, "acked": 1, "failed": 0,
                 "received": 1, "measuredSeconds": 1, "publishRate": 1, "publishMBps": 0, "consumeRate": 1, "consumeMBps": 0},
                 "workload": {"name": "gz", "durationSeconds": 15},
                 "profile": {"name": "p", "producer": {%s}, "consumer": {}}}
                """.formatted(producer), io.kbench.coordinator.report.result.ResultFile.Run.class);
    }

    /**
     * The combinations of a sweep overlaid with kbench report were named only by workload and run id: the page did not
     * say that one was gzip and the other not. Each overlaid run's header now says what differs from the first's.
     */
    @Test
    void shouldSayWhatAnOverlaidRunChangesAgainstTheFirst() throws Exception {
        var first = io.kbench.coordinator.report.compare.SetupDiff.setup(sweepRun("\"compression.type\": \"none\""));
        assertEquals(" · against the first run: producer.compression.type none -> gzip",
                HtmlReport.againstFirst(first, sweepRun("\"compression.type\": \"gzip\"")));
        assertEquals(" · the first run's setup", HtmlReport.againstFirst(first, sweepRun("\"compression.type\": \"none\"")));
        String five = HtmlReport.againstFirst(first, sweepRun(
                "\"compression.type\": \"gzip\", \"a\": \"2\", \"b\": \"2\", \"c\": \"2\", \"d\": \"2\""));
        assertEquals(5, five.split("; ").length, "4 differences shown, then how many more: " + five);
        assertTrue(five.endsWith("; and 1 more (kbench compare lists them)"), five);
    }
}
