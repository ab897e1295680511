package io.kbench.coordinator.dashboard;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.HtmlReport;
import io.kbench.coordinator.report.ResultDocument;
import io.kbench.coordinator.report.ResultFile;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.kbench.protocol.MicrosClock;
import io.kbench.protocol.metrics.MetricFamilies;
import org.HdrHistogram.Histogram;

/**
 * What the dashboard shows, kept as the run reports it: a {@link RunReporter} in front of the console's,
 * passing everything on. State: preparing → warm-up → measuring → draining → done or failed (with why);
 * the intervals so far; each worker's last snapshot; the clock bound; at the end the run's result, which
 * the page then shows as the final report. Listeners hear of every change (the server pushes them as
 * server-sent events). Thread-safe.
 */
public final class DashboardState implements RunReporter {
    private final RunReporter console;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private String runId = "";
    private JsonNode workload;
    private String state = "preparing";
    private String reason;
    private long runStartMicros;
    private long measureStartMicros = Long.MAX_VALUE;
    private long saturationMicros = Long.MAX_VALUE;
    private long clockBoundMicros;
    private boolean verification;
    private boolean sending;
    private FaultTimeline faults = new FaultTimeline();
    private final List<MergedInterval> merged = new ArrayList<>();
    private final List<ResultFile.Interval> intervals = new ArrayList<>();
    private final Map<String, Long> lastHeard = new LinkedHashMap<>();
    private ResultFile.Run result;
    private final CoordinatorMetrics metrics = new CoordinatorMetrics();

    public DashboardState(RunReporter console) {
        this.console = console;
    }

    /** Calls {@code listener} (on the reporting thread) after every change. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void changed() {
        listeners.forEach(Runnable::run);
    }

    @Override
    public void begin(String id, Workload w) {
        synchronized (this) {
            runId = id;
            workload = ResultDocument.JSON.valueToTree(w);
            verification = w.verification();
            state = "preparing";
            reason = null;
            merged.clear();
            intervals.clear();
            lastHeard.clear();
            result = null;
            metrics.reset();
        }
        console.begin(id, w);
        changed();
    }

    @Override
    public void info(String line) {
        console.info(line);
        if (line.startsWith("run failed: ")) {
            synchronized (this) {
                reason = line.substring("run failed: ".length()).replaceFirst("; stopping all workers$", "");
                state = "failed";
            }
            changed();
        }
    }

    @Override
    public void prepared(long prepareStartMicros, long readyMicros, long rebalanceMicros) {
        console.prepared(prepareStartMicros, readyMicros, rebalanceMicros);
    }

    @Override
    public void saturationThreshold(long micros) {
        synchronized (this) {
            saturationMicros = micros;
        }
        console.saturationThreshold(micros);
    }

    @Override
    public void started(long runStart, long measureStart) {
        synchronized (this) {
            runStartMicros = runStart;
            measureStartMicros = measureStart;
            if (!state.equals("failed")) {
                state = "warm-up";
            }
        }
        console.started(runStart, measureStart);
        changed();
    }

    @Override
    public void clockBound(long micros) {
        synchronized (this) {
            clockBoundMicros = micros;
        }
        console.clockBound(micros);
    }

    @Override
    public void faults(FaultTimeline timeline) {
        synchronized (this) {
            faults = timeline;
        }
        console.faults(timeline);
    }

    @Override
    public void workerHeard(String workerId, long micros) {
        synchronized (this) {
            lastHeard.put(workerId, micros);
        }
        console.workerHeard(workerId, micros);
    }

    @Override
    public void interval(MergedInterval i) {
        console.interval(i);
        synchronized (this) {
            merged.add(i);
            metrics.add(i, i.saturated(saturationMicros));
            intervals.add(ResultDocument.interval(i, measureStartMicros, saturationMicros, verification,
                    faults.downDuring(i.startMicros(), i.endMicros())));
            if (!state.equals("failed")) {
                boolean measuring = i.endMicros() > measureStartMicros;
                sending |= i.counters().sent() > 0;
                state = !measuring ? "warm-up" : sending && i.counters().sent() == 0 ? "draining" : "measuring";
            }
        }
        changed();
    }

    @Override
    public void result(ResultFile.Run r) {
        synchronized (this) {
            result = r;
            state = "COMPLETED".equals(r.status()) ? "done" : "failed";
            reason = r.error();
        }
        console.result(r);
        changed();
    }

    @Override
    public void summary(String title, Summary summary, int subscriptionsPerTopic) {
        console.summary(title, summary, subscriptionsPerTopic);
    }

    /** The run's state: preparing, warm-up, measuring, draining, done or failed. */
    public synchronized String state() {
        return state;
    }

    /** {@code /api/run}: state, workers' health, clock bound and the intervals so far. */
    public synchronized Map<String, Object> api(long nowMicros) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runId", runId);
        m.put("state", state);
        m.put("reason", reason);
        m.put("workers", workers(nowMicros));
        m.put("clockBoundMicros", clockBoundMicros);
        m.put("intervals", List.copyOf(intervals));
        return m;
    }

    private List<Map<String, Object>> workers(long nowMicros) {
        List<Map<String, Object>> out = new ArrayList<>();
        lastHeard.forEach((id, at) -> {
            Map<String, Object> w = new LinkedHashMap<>();
            w.put("id", id);
            w.put("ageSeconds", Math.max(0, nowMicros - at) / 1e6);
            out.add(w);
        });
        return out;
    }

    /** {@code /metrics}: the run's merged figures, in the format {@code accept} asks for. */
    public synchronized MetricFamilies.Scrape metrics(String accept, long nowMicros) {
        String name = workload == null ? "" : workload.path("name").asText();
        long target = workload == null ? -1 : workload.path("producerRate").asLong(-1);
        return metrics.families(runId, name, state, target, verification, clockBoundMicros,
                CoordinatorMetrics.ages(lastHeard, nowMicros)).write(accept);
    }

    /** The page's data: the final report once the run has its result, the run so far until then. */
    public synchronized Map<String, Object> reportData(long nowMicros) {
        String name = (workload == null ? "" : workload.path("name").asText() + " ") + runId;
        if (result != null) {
            return HtmlReport.data("kbench " + name, List.of(new HtmlReport.Named(name, result)), null);
        }
        Map<String, Object> live = new LinkedHashMap<>();
        live.put("state", state);
        live.put("reason", reason);
        live.put("workers", workers(nowMicros));
        live.put("clockBoundMicros", clockBoundMicros);
        return HtmlReport.data("kbench " + name + " (live)", List.of(new HtmlReport.Named(name, partial())), live);
    }

    /** The run so far as a result: figures from the intervals; the exact histograms come with the final report. */
    private ResultFile.Run partial() {
        EnumMap<Metric, Histogram> none = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            none.put(m, LatencyHistograms.create());
        }
        long end = merged.isEmpty() ? runStartMicros : merged.get(merged.size() - 1).endMicros();
        long start = Math.min(measureStartMicros, end);
        Summary s = Summary.of(merged, start, Math.max(start, end), saturationMicros, none).withClocks(clockBoundMicros);
        return new ResultFile.Run(ResultFile.SCHEMA_VERSION, null, runId, state, reason, null, runStartMicros / 1000,
                start / 1000, end / 1000, saturationMicros, workload, Map.of(), null, List.of(), List.of(), List.of(),
                List.of(), List.copyOf(intervals), ResultDocument.summary(s, null, null), null, List.of(), null);
    }

    /** Coordinator time now, for the health figures. */
    static long now() {
        return MicrosClock.SYSTEM.micros();
    }
}
