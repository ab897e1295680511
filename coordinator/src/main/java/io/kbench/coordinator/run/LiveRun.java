package io.kbench.coordinator.run;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.kbench.coordinator.ClockEstimator;
import io.kbench.coordinator.merge.IntervalMerger;
import io.kbench.coordinator.merge.IntervalSpool;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.SummaryHistograms;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.report.files.HistogramLogs;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.IntervalSnapshot;

/**
 * A run from the moment its streams open until every worker has stopped: the workers' run streams, one
 * {@link WorkerSupervisor} per worker, the merge of their snapshots into intervals (printed as they complete,
 * written to the {@code .hlog} files as they arrive), the workers lost, and the run's first failure.
 *
 * <p>Threads: snapshots and stream ends arrive on gRPC threads, silences on the supervisors' loops; the
 * merger, histogram logs and reporter are synchronized, the rest is concurrent or atomic. The owner's thread
 * calls {@link #open}, polls {@link #totals}, and ends with {@link #stop} and {@link #finish}.
 */
final class LiveRun {
    /** How long stopped workers have to close their run streams before they are cancelled. */
    static final Duration STREAM_CLOSE_WAIT = Duration.ofSeconds(20);

    private final Workload workload;
    private final String runId;
    private final RunWindow window;
    private final Workers workers;
    private final List<WorkerClient.Identity> ids;
    private final RunReporter out;
    private final CoordinatorClock clock;
    private final RunFailure failure;
    private final IntervalMerger merger;
    private final HistogramLogs hlogs;
    /** Each interval's figures (not its histograms) for result.json, appended as the merger hands them out. */
    /** The run's merged intervals, on disk (a week of them must not live in the heap). */
    private final IntervalSpool spool;
    private final AtomicLong liveAcked = new AtomicLong();
    private final Map<Integer, String> lost = new ConcurrentHashMap<>();
    private final List<WorkerSupervisor> supervisors = new ArrayList<>();
    private final CountDownLatch ended;
    private volatile long releaseMicros;
    /** The most sends acknowledged or failed, and the most messages read, in one merged interval so far. */
    private final AtomicLong peakDone = new AtomicLong();
    private final AtomicLong peakRead = new AtomicLong();

    /**
     * @param clocks  each worker's clock estimate (supervisors re-estimate them)
     * @param failure the run's first failure; set here when a worker is lost, aborts or sends what cannot be read
     */
    LiveRun(Workload workload, String runId, RunWindow window, Workers workers, List<WorkerClient.Identity> ids,
            List<ClockEstimator.WorkerClock> clocks, Plan plan, HistogramLogs hlogs, IntervalSpool spool, RunReporter out,
            CoordinatorClock clock, long intervalMicros, RunFailure failure) {
        this.spool = spool;
        this.workload = workload;
        this.runId = runId;
        this.window = window;
        this.workers = workers;
        this.ids = List.copyOf(ids);
        this.out = out;
        this.clock = clock;
        this.failure = failure;
        this.hlogs = hlogs;
        this.ended = new CountDownLatch(workers.size());
        this.merger = new IntervalMerger(ids.stream().map(WorkerClient.Identity::id).toList(),
                workload.warmupRecords() > 0
                        ? SummaryHistograms.afterRecords(workload.warmupRecords(), window.measureStartMicros())
                        : SummaryHistograms.from(window.measureStartMicros()))
                .onMerged((m, histograms) -> {
                    hlogs.addMerged(m.startMicros(), m.endMicros(), histograms);
                    out.on(new RunEvent.IntervalHistograms(m, histograms));
                });
        List<Boolean> producing = plan.workers().stream().map(a -> !a.producers().isEmpty()).toList();
        List<Boolean> consuming = plan.workers().stream().map(a -> !a.consumers().isEmpty()).toList();
        WorkerSupervisor.Events events = new WorkerSupervisor.Events() {
            @Override
            public void silent(int index, String reason) {
                loseWorker(index, reason);
            }

            @Override
            public void clockChanged(int index) {
                synchronized (clocks) {
                    out.on(new RunEvent.ClockBound(ClockEstimator.endToEndBound(clocks, producing, consuming)));
                }
            }
        };
        for (int i = 0; i < workers.size(); i++) {
            supervisors.add(new WorkerSupervisor(i, workers.get(i), clocks.get(i), runId, clock,
                    window.runStartMicros(), intervalMicros, events));
        }
    }

    /** Opens every worker's run stream and starts its supervisor. */
    void open() {
        for (int w = 0; w < workers.size(); w++) {
            int index = w;
            WorkerClient c = workers.get(w);
            c.run(runId, window.runStartMicros(),
                    workload.warmupSeconds() > 0 ? window.measureStartMicros() : 0, window.plannedEndMicros(), new WorkerClient.RunListener() {
                @Override
                public void onSnapshot(IntervalSnapshot s) {
                    long now = clock.micros();
                    supervisors.get(index).heard(now, s.host());
                    out.on(new RunEvent.WorkerHeard(ids.get(index).id(), now));
                    if (!s.roundTrips().isEmpty()) {
                        out.on(new RunEvent.RoundTrips(ids.get(index).id(), s.roundTrips()));
                    }
                    accept(c, s);
                }

                @Override
                public void onError(String reason, boolean connectionLost) {
                    if (connectionLost) {
                        loseWorker(index, reason);
                    } else {
                        failure.fail(reason);
                        supervisors.get(index).streamClosed();
                    }
                    ended.countDown();
                }

                @Override
                public void onCompleted() {
                    supervisors.get(index).streamClosed();
                    ended.countDown();
                }
            });
        }
        supervisors.forEach(WorkerSupervisor::start);
    }

    /** One snapshot: to the merger and the histogram logs; completed intervals to the reporter. */
    private void accept(WorkerClient from, IntervalSnapshot s) {
        try {
            long[] maxima = new long[io.kbench.protocol.Metric.values().length];
            List<MergedInterval> completed = merger.add(s, maxima);
            hlogs.add(s, maxima); // the merger read each histogram's maximum: the log need not decode it again
            if (s.last() && !s.metricsDumps().isEmpty()) {
                out.on(new RunEvent.ClientMetrics(s.metricsDumps()));
            }
            if (s.last() && !s.consumerTotals().isEmpty()) {
                out.on(new RunEvent.ConsumerTotals(s.consumerTotals()));
            }
            for (MergedInterval i : completed) {
                emit(i);
                // warm-up by count: the interval that completes it is where measurement starts
                long before = liveAcked.getAndAdd(i.counters().acked());
                long threshold = workload.warmupRecords();
                if (threshold > 0 && before < threshold && before + i.counters().acked() >= threshold) {
                    out.on(new RunEvent.Started(window.runStartMicros(), i.endMicros()));
                }
            }
        } catch (IllegalArgumentException | UncheckedIOException e) {
            failure.fail("worker " + from.address() + ": " + e.getMessage());
        }
    }

    private void emit(MergedInterval i) {
        spool.append(i);
        out.on(new RunEvent.Interval(i));
        peakDone.accumulateAndGet(i.counters().acked() + i.counters().failed(), Math::max);
        peakRead.accumulateAndGet(read(i.counters()), Math::max);
    }

    /** The most sends acknowledged or failed in one merged interval so far, all workers. */
    long peakDone() {
        return peakDone.get();
    }

    /** The most messages read ({@link #read}) in one merged interval so far, all workers. */
    long peakRead() {
        return peakRead.get();
    }

    /**
     * A worker whose connection broke, or that went silent: the run fails, its stream is given up, and
     * intervals stop waiting for it.
     */
    private void loseWorker(int index, String reason) {
        failure.fail(reason);
        supervisors.get(index).lost();
        if (lost.putIfAbsent(index, reason) == null) {
            workers.get(index).abandon();
            merger.workerLost(ids.get(index).id()).forEach(this::emit);
        }
    }

    /** The totals the end condition decides on. */
    EndCondition.Totals totals() {
        var t = merger.totals();
        return new EndCondition.Totals(failure.reason(), t.acked(), t.failed(), read(t), merger.allProducersDone(),
                releaseMicros != 0);
    }

    /**
     * What the drain counts as read of {@code t}: the messages received, each once — the duplicates verification
     * found are left out, so that a message received twice does not stand for one still on its way — and those a
     * share group is done with (accepted or rejected).
     */
    static long read(io.kbench.protocol.Counters t) {
        return t.received() - t.duplicated() + t.shareAccepted() + t.shareRejected();
    }

    /** How long the workers have to answer a {@link #liveTotals} round. */
    static final Duration PROGRESS_TIMEOUT = Duration.ofMillis(500);
    /** Set when a worker did not know the Progress call (an older build): not asked again this run. */
    private volatile boolean progressUnknown;

    /**
     * The totals the end condition decides on, read live from every worker ({@code Progress}) instead of from the
     * snapshots, which are up to an interval old: null when a worker did not answer within
     * {@link #PROGRESS_TIMEOUT}, does not hold the run (any more), does not know the call, or when the run has failed
     * or lost a worker. Only for ending the run sooner; no figure is taken from them.
     */
    EndCondition.Totals liveTotals() {
        if (progressUnknown || failure.failed() || !lost.isEmpty()) {
            return null;
        }
        List<Workers.Progress> all = workers.progress(runId, PROGRESS_TIMEOUT, () -> progressUnknown = true);
        if (all == null) {
            return null;
        }
        long acked = 0;
        long failed = 0;
        long received = 0;
        boolean producersDone = true;
        for (Workers.Progress p : all) {
            acked += p.totals().acked();
            failed += p.totals().failed();
            received += read(p.totals());
            producersDone &= p.producersDone();
        }
        return new EndCondition.Totals(failure.reason(), acked, failed, received, producersDone, releaseMicros != 0);
    }

    /**
     * Releases the held consumers of a backlog run.
     *
     * @param acked messages acknowledged as last reported (for the line that says so)
     */
    void releaseConsumers(long acked) {
        releaseMicros = clock.micros();
        merger.catchUpFrom(releaseMicros, acked, workload.subscriptionsPerTopic());
        String failed = workers.releaseConsumers(runId);
        if (failed != null) {
            failure.fail(failed);
        }
        out.info(String.format("backlog built (%,d of %,d messages acknowledged, as last reported); consumers start reading",
                acked, workload.consumerBacklogRecords()));
    }

    /** When a backlog run's consumers were released (coordinator µs), 0 if never. */
    long releaseMicros() {
        return releaseMicros;
    }

    /** The run's end is decided: supervisors stop watching and re-estimating; leases are still renewed. */
    void endSupervision() {
        supervisors.forEach(WorkerSupervisor::endOfRun);
    }

    /**
     * Stops every reachable worker (a graceful stop lets each send its last snapshot; a failed run stops at
     * once), waits for the run streams to close and cancels those that stay open, which ends those workers'
     * leases; then stops renewing.
     *
     * @return what went wrong while stopping: a worker that did not stop, streams that stayed open
     */
    List<String> stop(List<String> deleteTopics) {
        List<String> issues = new java.util.ArrayList<>(workers.stopAll(runId, deleteTopics, failure.failed(),
                lost.keySet()));
        try {
            if (!ended.await(STREAM_CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                issues.add("some workers did not close their run stream within " + STREAM_CLOSE_WAIT.toSeconds()
                        + " s; cancelled");
                workers.cancelRuns();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            workers.cancelRuns();
        } finally {
            closeSupervisors();
        }
        return issues;
    }

    /** Stops every supervisor (also when the run ended with an exception). */
    void closeSupervisors() {
        supervisors.forEach(WorkerSupervisor::close);
    }

    /** Flushes the merger's last intervals and closes the histogram logs; returns the merger (and its issues). */
    IntervalMerger finish() {
        merger.finish().forEach(this::emit);
        hlogs.close();
        return merger;
    }

    /** Every interval handed out, in index order, read back from the spool as it is iterated. */
    List<MergedInterval> intervals() {
        return spool.list();
    }

    /** Why the intervals could not all be kept on disk, or null. */
    String spoolProblem() {
        return spool.problem();
    }

    /** The workers lost, by index, with the reason. */
    Map<Integer, String> lost() {
        return new TreeMap<>(lost);
    }

    Set<Integer> lostIndexes() {
        return lost.keySet();
    }
}
