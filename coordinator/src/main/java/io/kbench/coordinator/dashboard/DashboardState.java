package io.kbench.coordinator.dashboard;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.files.ChartSeries;
import io.kbench.coordinator.report.files.HtmlReport;
import io.kbench.coordinator.report.files.PageData;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.report.RunEvent;
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
    /** The producers' planned sending time from the start, µs; -1 when not known. */
    private long plannedMicros = -1;
    private long saturationMicros = Long.MAX_VALUE;
    private long clockBoundMicros;
    private boolean verification;
    private boolean share;
    /** Share groups per topic of the run shown (0: none). */
    private int shareGroups;
    private boolean sending;
    private FaultTimeline faults = new FaultTimeline();
    /**
     * The latest {@link #LIVE_INTERVALS} intervals for {@code /api/run}, each as its result.json text (a third of the
     * objects' memory), read by pages without the lock.
     */
    private volatile AppendOnlyList<RawValue> intervals = new AppendOnlyList<>();
    /** What the live page draws: the whole run so far in at most {@link HtmlReport#MAX_POINTS} points. */
    private ChartSeries series;
    /** The run so far in figures (the page's summary), kept up to date instead of recomputed from every interval. */
    private Summary.Accumulator totals = new Summary.Accumulator(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
    private long lastEndMicros;
    /** The last page data built, and what it was built from: pages asking within one interval share it. */
    private Cached cached;

    /** Page data as JSON, the page, and the state they were built from. */
    private record Cached(int intervals, String state, boolean final_, String json, String page) { }
    private final Map<String, Long> lastHeard = new LinkedHashMap<>();
    private ResultFile.Run result;
    private final CoordinatorMetrics metrics = new CoordinatorMetrics();
    /**
     * Which part of a sweep or a max-rate search the run shown is ("sweep 2 of 4: producer.acks=all"); null for a
     * run of its own. Kept across the runs' begins: the sweep or search sets it before each.
     */
    private String context;
    /** The sweep's or search's own page once it has ended (its data as JSON, and the page); null until then. */
    private Cached whole;

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

    /** Keeps what the page shows from {@code event}, passes the event on to the console, then tells the listeners. */
    @Override
    public void on(RunEvent event) {
        boolean changed;
        if (event instanceof RunEvent.Begin e) {
            changed = begin(e.runId(), e.workload());
        } else if (event instanceof RunEvent.Info e) {
            changed = onInfo(e.line());
        } else if (event instanceof RunEvent.SaturationThreshold e) {
            changed = saturationThreshold(e.micros());
        } else if (event instanceof RunEvent.Started e) {
            changed = started(e.runStartMicros(), e.measureStartMicros());
        } else if (event instanceof RunEvent.ClockBound e) {
            changed = clockBound(e.micros());
        } else if (event instanceof RunEvent.Faults e) {
            changed = faults(e.timeline());
        } else if (event instanceof RunEvent.WorkerHeard e) {
            changed = workerHeard(e.workerId(), e.micros());
        } else if (event instanceof RunEvent.IntervalHistograms e) {
            changed = intervalHistograms(e.histograms());
        } else if (event instanceof RunEvent.Interval e) {
            changed = interval(e.interval());
        } else if (event instanceof RunEvent.Result e) {
            changed = result(e.result());
        } else {
            changed = false;
        }
        console.on(event);
        if (changed) {
            changed();
        }
    }

    private synchronized boolean begin(String id, Workload w) {
        runId = id;
        workload = ResultDocument.JSON.valueToTree(w);
        verification = w.verification();
        share = w.shareGroups().any();
        shareGroups = w.shareGroups().groupsPerTopic();
        state = "preparing";
        plannedMicros = w.plannedSendingMicros();
        reason = null;
        intervals = new AppendOnlyList<>(); // a page still reading the last run's keeps its own
        series = null;
        totals = new Summary.Accumulator(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
        lastEndMicros = 0;
        cached = null;
        lastHeard.clear();
        result = null;
        whole = null;
        metrics.reset();
        return true;
    }

    /**
     * Says which part of a sweep or a max-rate search the next runs are ({@code text}, e.g. "sweep 2 of 4:
     * producer.acks=all"; null: a run of its own): in the page's title and {@code /api/run}'s {@code context}, so a
     * combination's COMPLETED is not read as the sweep's.
     */
    public void context(String text) {
        synchronized (this) {
            context = text;
            cached = null;
        }
        changed();
    }

    /**
     * Shows the sweep's or the search's own page from now on ({@code json}: its page data, as its report.html
     * embeds it), with the context {@code text} ("sweep of 4 combinations: done").
     */
    public void whole(String title, String json, String text) {
        synchronized (this) {
            context = text;
            whole = new Cached(intervals.size(), state, true, json, HtmlReport.page(title, json));
        }
        changed();
    }

    private synchronized boolean onInfo(String line) {
        if (!line.startsWith(RunEvent.Info.RUN_FAILED)) {
            return false;
        }
        reason = line.substring(RunEvent.Info.RUN_FAILED.length()).replaceFirst("; stopping all workers$", "");
        state = "failed";
        return true;
    }

    private synchronized boolean saturationThreshold(long micros) {
        saturationMicros = micros;
        totals = new Summary.Accumulator(measureStartMicros, Long.MAX_VALUE, micros);
        return false;
    }

    private synchronized boolean started(long runStart, long measureStart) {
        runStartMicros = runStart;
        measureStartMicros = measureStart;
        totals.measureFrom(measureStart);
        if (!state.equals("failed")) {
            state = "warm-up";
        }
        return true;
    }

    private synchronized boolean clockBound(long micros) {
        clockBoundMicros = micros;
        return false;
    }

    private synchronized boolean faults(FaultTimeline timeline) {
        faults = timeline;
        return false;
    }

    private synchronized boolean workerHeard(String workerId, long micros) {
        lastHeard.put(workerId, micros);
        return false;
    }

    private synchronized boolean intervalHistograms(java.util.EnumMap<Metric, org.HdrHistogram.Histogram> histograms) {
        metrics.addHistograms(histograms);
        return false;
    }

    /** The merge path: a few additions, one conversion and an append; no page is built here. */
    private synchronized boolean interval(MergedInterval i) {
        totals.add(i);
        lastEndMicros = i.endMicros();
        metrics.add(i, i.saturated(saturationMicros));
        ResultFile.Interval interval = ResultDocument.interval(i, measureStartMicros, saturationMicros, verification,
                share, faults.downDuring(i.startMicros(), i.endMicros()));
        if (series == null) {
            series = HtmlReport.liveSeries(runStartMicros / 1000, workload);
        }
        series.add(interval);
        // /api/run keeps the latest LIVE_INTERVALS and the page a fixed number of points (a week-long run's
        // dashboard must not hold the week); the final report, drawn from the run's result, has every interval
        intervals.add(new RawValue(json(interval)));
        if (intervals.size() - intervals.first() > LIVE_INTERVALS + AppendOnlyList.CHUNK) {
            intervals.keepFrom(intervals.size() - LIVE_INTERVALS);
        }
        if (!state.equals("failed")) {
            boolean measuring = i.endMicros() > measureStartMicros;
            sending |= i.counters().sent() > 0;
            // after the planned end the window is over, also while a generator behind its schedule still sends
            boolean after = plannedMicros >= 0 && i.startMicros() >= runStartMicros + plannedMicros;
            state = !measuring ? "warm-up" : after || sending && i.counters().sent() == 0 ? "draining" : "measuring";
        }
        return true;
    }

    private synchronized boolean result(ResultFile.Run r) {
        result = r;
        state = "COMPLETED".equals(r.status()) ? "done" : "failed";
        reason = r.error();
        return true;
    }

    /** The run's state: preparing, warm-up, measuring, draining, done or failed. */
    public synchronized String state() {
        return state;
    }

    /**
     * Intervals {@code /api/run} keeps: the latest 10 minutes of 1-s intervals (about 1 MB); a script that asks at
     * least that often misses none, and the run's result has them all.
     */
    static final int LIVE_INTERVALS = 600;

    /** Most intervals one {@code /api/run} answer carries; {@code nextSince} pages through the rest. */
    static final int API_PAGE = 250;

    /**
     * The answer of {@code /api/run}, as it is written (JSON, keys in this order).
     *
     * @param runId            the run shown ("" before the first)
     * @param state            preparing, warm-up, measuring, draining, done or failed
     * @param reason           why it failed, or null
     * @param context          which part of a sweep or max-rate search the run is ("sweep 2 of 4: producer.acks=all");
     *                         absent for a run of its own
     * @param workers          each worker heard from, with the seconds since its last snapshot
     * @param clockBoundMicros the bound on the clock error of end-to-end samples
     * @param intervalCount    intervals merged so far
     * @param firstKept        the index of the oldest interval still kept (the latest {@link #LIVE_INTERVALS} are)
     * @param since            the index of the first interval in this answer
     * @param nextSince        where the next page starts, or null when none is left
     * @param intervals        at most {@link #API_PAGE} intervals, each as result.json has it
     */
    public record ApiRun(String runId, String state, String reason,
                         @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                         String context, List<PageData.Worker> workers,
                         long clockBoundMicros, int intervalCount, int firstKept, int since, Integer nextSince,
                         List<RawValue> intervals) { }

    /**
     * {@code /api/run}: state, workers' health, clock bound, and the intervals from index {@code since}, at most
     * {@link #API_PAGE} of them, with {@code intervalCount} and {@code nextSince} (null when none are left).
     */
    public ApiRun api(long nowMicros, int since) {
        String id;
        String st;
        String why;
        String part;
        List<PageData.Worker> heard;
        long bound;
        AppendOnlyList<RawValue> all;
        synchronized (this) {
            id = runId;
            st = state;
            why = reason;
            part = context;
            heard = workers(nowMicros);
            bound = clockBoundMicros;
            all = intervals;
        }
        int count = all.size();
        int from = Math.min(Math.max(all.first(), since), count);
        int to = (int) Math.min(count, (long) from + API_PAGE);
        return new ApiRun(id, st, why, part, heard, bound, count, all.first(), from, to < count ? to : null, all.view(from, to));
    }

    /** Each worker heard from, with the seconds since its last snapshot; under the lock. */
    private List<PageData.Worker> workers(long nowMicros) {
        List<PageData.Worker> out = new ArrayList<>();
        lastHeard.forEach((w, at) -> out.add(new PageData.Worker(w, Math.max(0, nowMicros - at) / 1e6)));
        return out;
    }

    /** {@code /api/run} from the first interval. */
    public ApiRun api(long nowMicros) {
        return api(nowMicros, 0);
    }

    /** {@code /metrics}: the run's merged figures, in the format {@code accept} asks for. */
    public synchronized MetricFamilies.Scrape metrics(String accept, long nowMicros) {
        String name = workload == null ? "" : workload.path("name").asText();
        long target = workload == null ? -1 : workload.path("producerRate").asLong(-1);
        return metrics.families(runId, name, context, state, target, verification, share, clockBoundMicros,
                CoordinatorMetrics.ages(lastHeard, nowMicros)).write(accept);
    }

    /**
     * The page's data as JSON — the final report once the run has its result, the run so far until then — built
     * once per interval whatever the number of pages asking.
     */
    public String reportJson(long nowMicros) {
        return build(nowMicros).json();
    }

    /** The page itself, built once per interval whatever the number of pages asking. */
    public String page(long nowMicros) {
        return build(nowMicros).page();
    }

    /**
     * Builds the page data outside the lock the merge path takes: under it only the scalars, the summary so far and
     * the intervals' count are read (O(1)); the intervals are read through a fixed view while new ones arrive.
     * Pages asking again before the next interval get the same data.
     */
    private Cached build(long nowMicros) {
        Cached c = current();
        if (c != null) {
            return c;
        }
        synchronized (buildLock) { // one build at a time: the pages that asked meanwhile take its result
            c = current();
            return c != null ? c : rebuild(nowMicros);
        }
    }

    /** The cached page data if the run has not moved since it was built, else null. */
    private synchronized Cached current() {
        if (whole != null) {
            return whole;
        }
        Cached c = cached;
        return c != null && c.intervals() == intervals.size() && c.state().equals(state) && c.final_() == (result != null)
                ? c : null;
    }

    private final Object buildLock = new Object();
    private static final com.fasterxml.jackson.databind.ObjectWriter COMPACT = ResultDocument.JSON.writer()
            .without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);

    private Cached rebuild(long nowMicros) {
        String name;
        PageData.Live live = null;
        ResultFile.Run run;
        PageData data;
        ChartSeries drawn = null;
        String st;
        String part;
        int count;
        synchronized (this) {
            st = state;
            count = intervals.size();
            name = (workload == null ? "" : workload.path("name").asText() + " ") + runId;
            part = context == null ? "" : " — " + context;
            if (result != null) {
                run = result;
            } else {
                live = new PageData.Live(state, reason, workers(nowMicros), clockBoundMicros);
                run = partial();
                // a copy of at most MAX_POINTS small points: the page is drawn from it outside the lock
                drawn = series == null ? HtmlReport.liveSeries(runStartMicros / 1000, workload) : series.copy();
            }
        }
        data = live == null ? HtmlReport.data("kbench " + name + part, List.of(new HtmlReport.Named(name, run)), null)
                : HtmlReport.liveData("kbench " + name + " (live)" + part, new HtmlReport.Named(name, run), drawn, live);
        String json;
        try {
            json = COMPACT.writeValueAsString(data);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("the dashboard's data cannot be written as JSON", e);
        }
        Cached built = new Cached(count, st, live == null, json, HtmlReport.page(data.title(), json));
        synchronized (this) {
            if (intervals.size() == count && state.equals(st) && whole == null) {
                cached = built;
            }
        }
        return built;
    }

    /** The run so far as a result: figures from the intervals; the exact histograms come with the final report. */
    private ResultFile.Run partial() {
        EnumMap<Metric, Histogram> none = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            none.put(m, LatencyHistograms.create());
        }
        long end = lastEndMicros == 0 ? runStartMicros : lastEndMicros;
        long start = Math.min(measureStartMicros, end);
        Summary s = totals.summary(none).withClocks(clockBoundMicros);
        return new ResultFile.Run(ResultFile.SCHEMA_VERSION, null, runId, state, reason, null, runStartMicros / 1000,
                start / 1000, end / 1000, saturationMicros, workload, Map.of(), null, List.of(), List.of(), List.of(),
                List.of(), List.of(), ResultDocument.summary(s, null, null, shareGroups,
                        io.kbench.protocol.ShareSpread.NONE, s.acked()), null, List.of(), null, null);
    }

    private static String json(ResultFile.Interval i) {
        try {
            return COMPACT.writeValueAsString(i);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("an interval cannot be written as JSON", e);
        }
    }

    /** Coordinator time now, for the health figures. */
    static long now() {
        return MicrosClock.SYSTEM.micros();
    }
}
