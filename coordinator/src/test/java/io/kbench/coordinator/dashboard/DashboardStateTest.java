package io.kbench.coordinator.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DashboardStateTest {
    @TempDir
    Path dir;

    private static final RunReporter QUIET = event -> { };

    private static final Map<Metric, LatencyStats> STATS = stats();

    private static Map<Metric, LatencyStats> stats() {
        java.util.EnumMap<Metric, org.HdrHistogram.Histogram> h = new java.util.EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            h.put(m, io.kbench.protocol.LatencyHistograms.create());
            h.get(m).recordValue(1_500);
        }
        return MergedInterval.statsOf(h);
    }

    private static MergedInterval interval(int i) {
        return new MergedInterval(i, i * 1_000_000L, (i + 1) * 1_000_000L, new Counters(1000, 1000, 0, 100_000, 1000,
                100_000, 0, 0), STATS, 1, List.of());
    }

    private DashboardState state() throws Exception {
        Path w = Files.writeString(dir.resolve("w.yaml"), "name: long\ndurationSeconds: 604800\nproducerRate: 1000\n");
        DashboardState s = new DashboardState(QUIET);
        s.on(new RunEvent.Begin("r1", Workload.load(w)));
        s.on(new RunEvent.SaturationThreshold(10_000));
        s.on(new RunEvent.Started(0, 0));
        return s;
    }

    /**
     * A sweep's dashboard showed each combination as a run of its own: between two combinations its page said
     * COMPLETED with no word of the sweep going on, and at the end it kept the last combination's page.
     */
    @Test
    void shouldSayWhichPartOfASweepRunsAndShowTheSweepsPageAtTheEnd() throws Exception {
        DashboardState s = state();
        assertNull(s.api(0).context(), "a run of its own");
        s.context("sweep 2 of 4: producer.acks=all");
        s.on(new RunEvent.Begin("r2", Workload.load(dir.resolve("w.yaml"))));
        s.on(new RunEvent.Interval(interval(0)));
        assertEquals("sweep 2 of 4: producer.acks=all", s.api(0).context(), "kept across the combination's begin");
        String scrape = new String(s.metrics(null, 0).body(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(scrape.contains("kbench_run_state{part=\"sweep 2 of 4: producer.acks=all\",run_id=\"r2\""),
                scrape.lines().filter(l -> l.startsWith("kbench_run_state")).findFirst().orElse(scrape));
        assertTrue(s.page(0).contains("<title>kbench long r2 (live) — sweep 2 of 4: producer.acks=all</title>"),
                s.page(0).substring(0, 300));
        assertTrue(s.reportJson(0).contains("\"title\":\"kbench long r2 (live) — sweep 2 of 4: producer.acks=all\""));
        s.whole("kbench sweep long", "{\"title\":\"kbench sweep long\",\"sweep\":{}}", "sweep of 4 combinations: 4 completed");
        assertEquals("{\"title\":\"kbench sweep long\",\"sweep\":{}}", s.reportJson(0), "the sweep's page from now on");
        assertTrue(s.page(0).contains("<title>kbench sweep long</title>"));
        s.on(new RunEvent.Interval(interval(1)));
        assertEquals("{\"title\":\"kbench sweep long\",\"sweep\":{}}", s.reportJson(0), "whatever comes after");
        assertEquals("sweep of 4 combinations: 4 completed", s.api(0).context());
    }

    /**
     * After the producers' planned end the window is over: draining, also while a generator behind its schedule
     * still sends the window's messages (a cold run at 790,000 msg/s sent for 14 s past its 20).
     */
    @Test
    void shouldSayDrainingAfterThePlannedEndEvenWhileTheProducersStillSend() throws Exception {
        Path w = Files.writeString(dir.resolve("short.yaml"), "name: short\ndurationSeconds: 2\nproducerRate: 1000\n");
        DashboardState s = new DashboardState(QUIET);
        s.on(new RunEvent.Begin("r1", Workload.load(w)));
        s.on(new RunEvent.Started(0, 0));
        s.on(new RunEvent.Interval(interval(0)));
        assertEquals("measuring", s.api(0).state());
        s.on(new RunEvent.Interval(interval(1)));
        assertEquals("measuring", s.api(0).state(), "the window's last second");
        s.on(new RunEvent.Interval(interval(2)));
        assertEquals("draining", s.api(0).state(), "1,000 sent after the planned end: late sends, not the window");
    }

    @Test
    void shouldPageApiRunAndKeepTheSummaryUpToDateWithoutTheIntervals() throws Exception {
        DashboardState s = state();
        for (int i = 0; i < 2_500; i++) {
            s.on(new RunEvent.Interval(interval(i)));
        }
        DashboardState.ApiRun first = s.api(0, 0);
        assertEquals(2_500, first.intervalCount());
        int kept = first.firstKept();
        assertTrue(kept >= 2_500 - DashboardState.LIVE_INTERVALS - AppendOnlyList.CHUNK && kept <= 2_500 - DashboardState.LIVE_INTERVALS,
                "the latest intervals are kept: from " + kept);
        assertEquals(kept, first.since(), "an index before the kept ones reads from the first kept");
        assertEquals(DashboardState.API_PAGE, first.intervals().size());
        assertEquals(kept + DashboardState.API_PAGE, first.nextSince());
        DashboardState.ApiRun last = s.api(0, 2_400);
        assertEquals(100, last.intervals().size());
        assertNull(last.nextSince());
        assertEquals(2_400, new com.fasterxml.jackson.databind.ObjectMapper().readTree(io.kbench.coordinator.report
                .result.ResultDocument.JSON.writeValueAsString(last)).get("intervals").get(0).get("index").asInt(),
                "each interval as result.json has it");
        List<String> keys = new ArrayList<>();
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(io.kbench.coordinator.report.result.ResultDocument.JSON
                .writeValueAsString(last)).fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("runId", "state", "reason", "workers", "clockBoundMicros", "intervalCount", "firstKept",
                "since", "nextSince", "intervals"), keys, "the keys docs/results.md lists, in its order");
        assertEquals(0, s.api(0, 99_999).intervals().size(), "past the end: nothing, not an error");
        assertEquals(kept, s.api(0, -5).since(), "a negative index reads from the first kept");
        String json = s.reportJson(0);
        List<com.fasterxml.jackson.databind.JsonNode> rates = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json)
                .findValues("publishRate");
        assertTrue(rates.stream().anyMatch(r -> r.isNumber() && r.asDouble() == 1000.0),
                "the live summary's rate, kept up to date without the intervals: " + rates.stream()
                        .filter(com.fasterxml.jackson.databind.JsonNode::isNumber).toList());
        assertTrue(s.reportJson(0) == json, "pages asking within one interval share one build");
    }

    /**
     * 20 pages reading a 200,000-interval run as fast as they can: the merge path's call into the dashboard keeps
     * a p99 under 50 ms (it built every page under the lock it takes before, hundreds of ms each at this size).
     */
    @Test
    void shouldNotHoldUpTheMergePathWhile20PagesReadALongRun() throws Exception {
        DashboardState s = state();
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            s.on(new RunEvent.Interval(interval(i)));
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong builds = new AtomicLong();
        List<Thread> pages = new ArrayList<>();
        for (int p = 0; p < 20; p++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    builds.addAndGet(s.page(0).length() > 0 ? 1 : 0);
                    s.api(0, (int) (builds.get() % n));
                }
            }, "page-" + p);
            t.setDaemon(true);
            t.start();
            pages.add(t);
        }
        long[] took = new long[300];
        for (int k = 0; k < took.length; k++) {
            long t0 = System.nanoTime();
            s.on(new RunEvent.Interval(interval(n + k)));
            took[k] = System.nanoTime() - t0;
            Thread.sleep(5); // intervals arrive over time; the pages rebuild after each
        }
        stop.set(true);
        for (Thread t : pages) {
            t.join(60_000);
        }
        Arrays.sort(took);
        long p99 = took[(int) (took.length * 0.99)];
        System.out.printf("dashboard: merge path p99 %.3f ms, max %.3f ms over %d intervals; %d page builds read%n",
                p99 / 1e6, took[took.length - 1] / 1e6, took.length, builds.get());
        assertTrue(builds.get() >= 20, "the pages were read meanwhile: " + builds.get());
        assertTrue(p99 < 50_000_000L, "merge path p99 " + p99 / 1e6 + " ms");
        DashboardState.ApiRun api = s.api(0, 0);
        assertEquals(n + took.length, api.intervalCount());
        int first = api.firstKept();
        assertTrue(n + took.length - first <= DashboardState.LIVE_INTERVALS + AppendOnlyList.CHUNK,
                "the live state keeps the latest intervals only: from " + first);
        assertEquals(first, api.since(), "an index before the kept ones reads from the first kept");
        com.fasterxml.jackson.databind.JsonNode page = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(s.reportJson(0)).get("runs").get(0);
        assertTrue(page.get("t").size() <= io.kbench.coordinator.report.files.HtmlReport.MAX_POINTS,
                "the live page draws the whole run in a bounded number of points: " + page.get("t").size());
        assertEquals(n + took.length, page.get("t").get(page.get("t").size() - 1).asDouble(),
                "the last point ends with the last interval");
        assertEquals(1000.0, page.get("publishRate").get(0).asDouble(), "a bucket's rate is its intervals' average");
    }
}
