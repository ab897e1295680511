package io.kbench.coordinator;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.kbench.coordinator.merge.CatchUp;
import io.kbench.coordinator.merge.IntervalMerger;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.merge.SummaryHistograms;
import io.kbench.coordinator.merge.WorkerSnapshot;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.plan.Planner;
import io.kbench.coordinator.report.HistogramLogs;
import io.kbench.coordinator.report.OutputDirectory;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.report.ResultDocument;
import io.kbench.coordinator.rpc.ClientSecurity;
import io.kbench.coordinator.rpc.WorkerCallException;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.workload.Fault;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.MicrosClock;
import io.kbench.protocol.Versions;

/**
 * Runs one workload across workers: identify, clock offsets, plan, prepare (topics, clients, consumers
 * assigned), start all at one agreed instant, merge the snapshot streams while printing progress, let
 * consumers drain, stop, and write {@code result.json}.
 *
 * <p>Setup problems (unreachable worker or cluster, a worker busy with another run or refusing this
 * coordinator, a refused assignment) throw {@link UserException} before any load starts. A failure during the
 * run (a worker's connection lost, a worker aborting, {@code maxSendErrors} exceeded, a fault that failed)
 * stops every other worker at once, writes the results gathered so far with status FAILED and the lost
 * workers named, and returns a failed {@link Outcome}. No worker is left with load running: the run streams
 * are their leases. A workload's faults are carried out on the local cluster by a thread of their own.
 *
 * <p>Threads: {@link #run()} on the caller's thread; snapshots arrive on gRPC threads and go through the
 * synchronized {@link IntervalMerger} and {@link ProgressPrinter}; during the run, {@code kbench-clock-recheck}
 * re-estimates clocks, {@code kbench-stream-watch} declares silent workers lost ({@link StreamWatch}) and
 * {@code kbench-faults} carries out the workload's faults.
 */
public final class RunController {
    /** Pings per worker; the first ones are slow (class loading, JIT), best-of-N keeps the tightest. */
    private static final int CLOCK_SAMPLES = 24;
    /** Pings per re-estimate during the run, and how often. */
    private static final int RECHECK_SAMPLES = 12;
    private static final Duration RECHECK_EVERY = Duration.ofSeconds(10);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration START_DELAY = Duration.ofMillis(1500);
    private static final Duration DRAIN_IDLE = Duration.ofSeconds(10);
    private static final Duration DRAIN_MAX = Duration.ofSeconds(60);
    private static final Duration MAX_RECORDS_RUN = Duration.ofDays(7);
    private static final DateTimeFormatter RUN_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    /**
     * @param outputDir      where result.json goes; null for {@code results/<name>-<runId>}
     * @param keepTopics     leave the run's topics on the cluster
     * @param intervalMicros reporting interval
     */
    public record Options(Path outputDir, boolean keepTopics, long intervalMicros) { }

    /**
     * How the run ended.
     *
     * @param completed true when the run ran its course
     * @param resultFile the result.json written (also for a failed run), or null if it could not be written
     * @param error      why it failed, or null
     * @param summary    the run's figures (of what was gathered, for a failed run)
     */
    public record Outcome(boolean completed, Path resultFile, String error, Summary summary) { }

    private final Workload workload;
    private final Profile profile;
    private final List<String> addresses;
    private final ClientSecurity security;
    private final ClusterControl cluster;
    private final Options options;
    private final RunReporter out;
    private final MicrosClock clock = MicrosClock.SYSTEM;
    private final AtomicReference<String> failure = new AtomicReference<>();
    /** Longest time a consumer took from being built to its first assignment (µs), as prepare reported. */
    private volatile long rebalanceMicros;
    /** When a backlog run's consumers were released (coordinator µs), 0 before. */
    private volatile long releaseMicros;
    private final CountDownLatch done = new CountDownLatch(1);
    /** Renews the workers' leases while the run goes; interrupted once every worker has stopped. */
    private volatile Thread leaseThread;

    public RunController(Workload workload, Profile profile, List<String> workerAddresses, Options options,
                         RunReporter out) {
        this(workload, profile, workerAddresses, ClientSecurity.NONE, null, options, out);
    }

    /**
     * @param security how to authenticate to the workers and check them
     * @param cluster  the local embedded cluster the workload's faults act on, or null when the cluster is not
     *                 kbench's own (a workload with faults is then refused)
     * @throws UserException when the workload schedules faults this cluster cannot take
     */
    public RunController(Workload workload, Profile profile, List<String> workerAddresses, ClientSecurity security,
                         ClusterControl cluster, Options options, RunReporter out) {
        if (profile.bootstrapServers() == null) {
            throw new IllegalArgumentException("profile without bootstrap servers");
        }
        checkFaults(workload, cluster == null ? 0 : cluster.brokers());
        this.security = security;
        this.cluster = cluster;
        this.workload = workload;
        // consumers of a transactional run see only committed messages unless the profile says otherwise
        this.profile = workload.transactional() && !profile.consumer().containsKey("isolation.level")
                ? profile.with(java.util.Map.of("consumer.isolation.level", "read_committed")) : profile;
        this.addresses = List.copyOf(workerAddresses);
        this.options = options;
        this.out = out;
    }

    /**
     * Checks that the workload's faults can act on the cluster: only on kbench's own embedded cluster, and only
     * on brokers it has.
     *
     * @param embeddedBrokers nodes of the embedded cluster kbench starts, or 0 when the cluster is not its own
     * @throws UserException one line, when they cannot
     */
    public static void checkFaults(Workload workload, int embeddedBrokers) {
        if (workload.faults().isEmpty()) {
            return;
        }
        if (embeddedBrokers == 0) {
            throw new UserException("workload " + workload.name() + " schedules faults: they act only on the "
                    + "embedded cluster kbench starts itself (no --bootstrap-servers, no bootstrap.servers, no --workers; "
                    + "e.g. --brokers 3); kbench never stops brokers of another cluster");
        }
        for (Fault f : workload.faults()) {
            if (f.broker() > embeddedBrokers) {
                throw new UserException("workload " + workload.name() + ": fault '" + f.describe() + "' names broker "
                        + f.broker() + ", but the embedded cluster has " + embeddedBrokers
                        + " (start more with --brokers N)");
            }
        }
    }

    /**
     * Ends the run early from another thread (Ctrl-C): workers are stopped and the results so far written
     * with status FAILED and {@code reason}. Returns at once; see {@link #awaitDone}.
     */
    public void interrupt(String reason) {
        failure.compareAndSet(null, reason);
    }

    /** Waits until {@link #run()} has returned (results written), at most {@code millis}. */
    public boolean awaitDone(long millis) throws InterruptedException {
        return done.await(millis, TimeUnit.MILLISECONDS);
    }

    public Outcome run() {
        List<WorkerClient> clients = new ArrayList<>();
        try {
            for (String a : addresses) {
                clients.add(new WorkerClient(a, security));
            }
            return run(clients);
        } finally {
            Thread leases = leaseThread;
            if (leases != null) {
                leases.interrupt(); // also when the run ended with an exception
            }
            clients.forEach(WorkerClient::close);
            done.countDown();
        }
    }

    private Outcome run(List<WorkerClient> clients) {
        Instant startedAt = Instant.now();
        String runId = newRunId();
        // the output directory is made and probed before any worker is contacted: data is never lost to it
        Path dir = options.outputDir() != null ? options.outputDir() : defaultOutput(workload.name(), runId);
        boolean created = OutputDirectory.prepare(dir, options.outputDir() != null ? "--output" : "results directory");
        try {
            return run(clients, startedAt, runId, dir);
        } catch (RuntimeException e) {
            if (created) {
                OutputDirectory.removeIfEmpty(dir); // refused before anything was gathered
            }
            throw e;
        }
    }

    private Outcome run(List<WorkerClient> clients, Instant startedAt, String runId, Path dir) {
        List<WorkerClient.Identity> ids = identifyAll(clients);
        Plan plan = Planner.plan(workload, clients.size(), runId);
        List<ClockEstimator.WorkerClock> clocks = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            WorkerClient client = clients.get(i);
            ClockEstimator.WorkerClock wc = ids.get(i).clockId().equals(clock.id()) ? ClockEstimator.WorkerClock.same()
                    : ClockEstimator.WorkerClock.estimated(setup(() -> client.clock(CLOCK_SAMPLES, clock)));
            clocks.add(wc);
            offsets.add(wc.offset());
        }
        out.info(String.format("run %s: workload %s, %d worker(s), %d producer(s), %d consumer(s), target %s, %d s warm-up + %s",
                runId, workload.name(), clients.size(), plan.producerCount(), plan.consumerCount(),
                workload.producerCount() == 0 ? "consumers only"
                        : workload.producerRate() < 0 ? "unthrottled" : String.format("%,d msg/s", workload.producerRate()),
                workload.warmupSeconds(), workload.numRecords() > 0
                        ? String.format("%,d records in all", workload.numRecords())
                        : workload.durationSeconds() + " s"));
        List<String> topicNames = plan.topics().stream().map(Plan.Topic::name).toList();
        long prepareStart = clock.micros();
        try {
            prepareAll(clients, plan, offsets, runId);
            out.prepared(prepareStart, clock.micros(), rebalanceMicros);
        } catch (RuntimeException e) {
            stopAll(clients, runId, options.keepTopics() ? List.of() : topicNames, new ArrayList<>(), Set.of());
            throw e;
        }

        long runStart = clock.micros() + START_DELAY.toNanos() / 1000;
        long measureStart = runStart + workload.warmupSeconds() * 1_000_000L;
        // a record-count run ends when its producers have sent their share (bounded by the longest duration)
        long plannedEnd = measureStart + (workload.numRecords() > 0 ? MAX_RECORDS_RUN.toNanos() / 1000
                : workload.durationSeconds() * 1_000_000L);
        RunReporter printer = out;
        printer.saturationThreshold(workload.saturationDelayMillis() * 1000);
        // warm-up by count: lines are warm-up until the interval that completes it (then the reporter learns
        // where measurement starts); the summary recomputes it from the merged intervals
        printer.started(runStart, workload.warmupRecords() > 0 ? Long.MAX_VALUE : measureStart);
        java.util.concurrent.atomic.AtomicLong liveAcked = new java.util.concurrent.atomic.AtomicLong();
        IntervalMerger merger = new IntervalMerger(ids.stream().map(WorkerClient.Identity::id).toList(),
                workload.warmupRecords() > 0 ? SummaryHistograms.afterRecords(workload.warmupRecords(), measureStart)
                        : SummaryHistograms.from(measureStart));
        // the run keeps each interval's figures (not its histograms) for result.json; the merger hands each
        // out once, on whichever thread completed it
        List<MergedInterval> emitted = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.function.Consumer<MergedInterval> emit = i -> {
            emitted.add(i);
            printer.interval(i);
        };
        HistogramLogs hlogs = new HistogramLogs(dir, runStart, workload.transactional());
        CountDownLatch ended = new CountDownLatch(clients.size());
        FaultTimeline faults = new FaultTimeline();
        printer.faults(faults);
        Map<Integer, String> lost = new java.util.concurrent.ConcurrentHashMap<>();
        StreamWatch watch = new StreamWatch(clients.size(), runStart, options.intervalMicros());
        // a worker whose connection broke, or that went silent: the run fails, its stream is given up, and
        // intervals stop waiting for it
        java.util.function.BiConsumer<Integer, String> loseWorker = (index, reason) -> {
            failure.compareAndSet(null, reason);
            watch.closed(index);
            if (lost.putIfAbsent(index, reason) == null) {
                clients.get(index).abandon();
                merger.workerLost(ids.get(index).id()).forEach(emit);
            }
        };
        for (int w = 0; w < clients.size(); w++) {
            WorkerClient c = clients.get(w);
            int index = w;
            c.run(runId, runStart, plannedEnd, new WorkerClient.RunListener() {
                @Override
                public void onSnapshot(WorkerSnapshot s) {
                    watch.heard(index, clock.micros());
                    try {
                        hlogs.add(s);
                        for (MergedInterval i : merger.add(s)) {
                            emit.accept(i);
                            long before = liveAcked.getAndAdd(i.counters().acked());
                            long threshold = workload.warmupRecords();
                            if (threshold > 0 && before < threshold && before + i.counters().acked() >= threshold) {
                                printer.started(runStart, i.endMicros());
                            }
                        }
                    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
                        failure.compareAndSet(null, "worker " + c.address() + ": " + e.getMessage());
                    }
                }

                @Override
                public void onError(String reason, boolean connectionLost) {
                    if (connectionLost) {
                        loseWorker.accept(index, reason);
                    } else {
                        failure.compareAndSet(null, reason);
                        watch.closed(index);
                    }
                    ended.countDown();
                }

                @Override
                public void onCompleted() {
                    watch.closed(index);
                    ended.countDown();
                }
            });
        }
        List<String> issues = new ArrayList<>();
        List<Boolean> producing = plan.workers().stream().map(a -> !a.producers().isEmpty()).toList();
        List<Boolean> consuming = plan.workers().stream().map(a -> !a.consumers().isEmpty()).toList();
        printer.clockBound(ClockEstimator.endToEndBound(clocks, producing, consuming));
        Thread recheck = new Thread(() -> recheckClocks(clients, clocks, runId, producing, consuming, printer),
                "kbench-clock-recheck");
        recheck.setDaemon(true);
        recheck.start();
        // renewed until every worker has stopped: a worker whose lease lapses stops its load on its own
        Thread leases = new Thread(() -> renewLeases(clients, runId, lost.keySet()), "kbench-lease");
        leases.setDaemon(true);
        leaseThread = leases;
        leases.start();
        Thread watcher = new Thread(() -> watchStreams(watch, clients, loseWorker), "kbench-stream-watch");
        watcher.setDaemon(true);
        watcher.start();
        Thread faulter = new Thread(() -> injectFaults(runStart, faults, printer), "kbench-faults");
        faulter.setDaemon(true);
        if (!workload.faults().isEmpty()) {
            faulter.start();
        }
        try {
            awaitEnd(clients, runId, merger, plannedEnd, issues);
        } finally {
            recheck.interrupt();
            watcher.interrupt();
            faulter.interrupt();
            try {
                recheck.join(15_000);
                faulter.join(120_000); // a broker being restarted is left serving, not half started
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        String error = failure.get();
        if (error != null) {
            printer.info("run failed: " + error + "; stopping all workers");
        }
        // a graceful stop lets every reachable worker send its last snapshot; a stream that stays open after
        // that is cancelled, which ends that worker's lease
        stopAll(clients, runId, options.keepTopics() ? List.of() : topicNames, issues, lost.keySet());
        try {
            if (!ended.await(20, TimeUnit.SECONDS)) {
                issues.add("some workers did not close their run stream within 20 s; cancelled");
                clients.forEach(WorkerClient::cancelRun);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            clients.forEach(WorkerClient::cancelRun);
        } finally {
            leases.interrupt();
        }
        merger.finish().forEach(emit);
        hlogs.close();
        issues.addAll(0, merger.issues());
        measureStart = merger.measureStartMicros();
        List<MergedInterval> intervals;
        synchronized (emitted) { // handed out in order, but appended by several stream threads
            intervals = emitted.stream().sorted(java.util.Comparator.comparingLong(MergedInterval::index)).toList();
        }
        // a record-count run ends when its last producer finished, a consumer-only one with its last receipt
        // (each worker reports those instants)
        long measureEnd = workload.numRecords() == 0 ? plannedEnd
                : workload.producerCount() > 0 ? merger.producersDoneMicros()
                : merger.lastReceiveMicros();
        if (workload.numRecords() > 0 && measureEnd <= measureStart) {
            measureEnd = lastSendingInterval(intervals, measureStart);
        }
        Summary summary = Summary.of(intervals, measureStart, measureEnd, workload.saturationDelayMillis() * 1000,
                        merger.summaryHistograms())
                .withClocks(ClockEstimator.endToEndBound(clocks, producing, consuming));
        if (workload.verification() && workload.consumerCount() > 0) {
            // the tail never received counts as lost only when the run had the chance to drain
            long expectedDistinct = error == null && workload.producerCount() > 0
                    ? summary.acked() * workload.subscriptionsPerTopic() : 0;
            summary = summary.withVerification(merger.totals(), expectedDistinct);
        }
        long expected = expectedReceived(summary.acked());
        if (error == null && workload.consumerCount() > 0 && summary.received() < expected) {
            issues.add(String.format("consumers received %,d of the %,d messages expected (x%d subscriptions)",
                    summary.received(), expected, workload.subscriptionsPerTopic()));
        }
        List<ResultDocument.WorkerEntry> entries = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            Plan.WorkerAssignment a = plan.workers().get(i);
            var t = merger.totals(ids.get(i).id());
            ClockEstimator.WorkerClock wc = clocks.get(i);
            entries.add(new ResultDocument.WorkerEntry(ids.get(i).id(), clients.get(i).address(),
                    wc.initialOffset(), wc.uncertainty(), wc.offset() - wc.initialOffset(), wc.estimates(),
                    wc.corrections(), a.producers().size(), a.consumers().size(), a.rate(), t.sent(), t.acked(),
                    t.failed(), t.received()));
        }
        CatchUp catchUp = releaseMicros == 0 ? null
                : CatchUp.of(intervals, releaseMicros, workload.subscriptionsPerTopic());
        if (releaseMicros != 0 && catchUp == null) {
            issues.add("the consumers did not catch up with the backlog");
        }
        String status = error == null ? "COMPLETED" : "FAILED";
        printer.summary(String.format("kbench %s %s: %s", workload.name(), runId, status), summary,
                workload.subscriptionsPerTopic());
        if (catchUp != null) {
            printer.info(String.format("  catch-up: a backlog of %,d messages read in %.3f s: %,.1f msg/s, %.2f MB/s%s",
                    catchUp.backlogRecords(), catchUp.seconds(), catchUp.rate(), catchUp.mbps(),
                    workload.subscriptionsPerTopic() > 1 ? " (all subscriptions)" : ""));
        }
        List<ResultDocument.LostWorker> lostWorkers = new ArrayList<>();
        for (Map.Entry<Integer, String> l : new java.util.TreeMap<>(lost).entrySet()) {
            String id = ids.get(l.getKey()).id();
            lostWorkers.add(new ResultDocument.LostWorker(id, clients.get(l.getKey()).address(), l.getValue(),
                    merger.received(id) - 1));
            printer.info("  lost worker " + id + ": " + l.getValue() + "; the other workers were stopped");
        }
        issues.forEach(i -> printer.info("  issue: " + i));
        Path file = null;
        try {
            file = ResultDocument.write(dir, ResultDocument.build(runId, status, error, startedAt, workload, profile,
                    entries, topicNames, runStart, measureStart, measureEnd, intervals, summary, catchUp,
                    rebalanceMicros, issues, lostWorkers, faults));
            printer.info("result: " + file);
        } catch (IOException e) {
            printer.info("could not write results to " + dir + ": " + e.getMessage());
        }
        return new Outcome(error == null, file, error, summary);
    }

    private List<WorkerClient.Identity> identifyAll(List<WorkerClient> clients) {
        List<WorkerClient.Identity> ids = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (WorkerClient c : clients) {
            WorkerClient.Identity id = setup(c::identify);
            if (!id.busyRunId().isEmpty()) {
                throw new UserException("worker " + c.address() + " is busy with run " + id.busyRunId()
                        + " of the coordinator at " + id.busyCoordinator() + "; wait for it to end or stop that coordinator");
            }
            if (!id.version().equals(Versions.kbench())) {
                out.info("note: worker " + c.address() + " runs kbench " + id.version() + ", this coordinator "
                        + Versions.kbench() + " (same protocol " + Versions.PROTOCOL + ")");
            }
            if (!seen.add(id.id())) {
                throw new UserException("worker " + id.id() + " is listed twice (" + c.address() + ")");
            }
            ids.add(id);
        }
        return ids;
    }

    private void prepareAll(List<WorkerClient> clients, Plan plan, List<Long> offsets, String runId) {
        // the first worker creates the topics, before anyone builds clients for them
        List<byte[]> payloads = workload.payloadValues();
        List<WorkerClient.Share> shares = new ArrayList<>();
        List<String> names = plan.topics().stream().map(Plan.Topic::name).toList();
        for (int i = 0; i < clients.size(); i++) {
            boolean first = i == 0;
            shares.add(new WorkerClient.Share(runId, offsets.get(i), profile,
                    first && !workload.existingTopics() ? plan.topics() : List.of(),
                    first && workload.existingTopics() ? names : List.of(),
                    plan.workers().get(i), workload, payloads, options.intervalMicros()));
        }
        WorkerClient first = clients.get(0);
        Map<String, Integer> topicPartitions = setup(() -> first.prepare(shares.get(0))).topicPartitions();
        Map<String, Integer> groupPartitions = new HashMap<>();
        for (Plan.WorkerAssignment a : plan.workers()) {
            for (Plan.ConsumerTask c : a.consumers()) {
                groupPartitions.put(c.group(), topicPartitions.getOrDefault(c.topic(), workload.partitionsPerTopic()));
            }
        }
        List<CompletableFuture<WorkerClient.Readiness>> rest = new ArrayList<>();
        for (int i = 1; i < clients.size(); i++) {
            int w = i;
            rest.add(CompletableFuture.supplyAsync(() -> clients.get(w).prepare(shares.get(w))));
        }
        for (CompletableFuture<WorkerClient.Readiness> f : rest) {
            setup(() -> joinUnwrapped(f));
        }
        // consumers must own every partition before the first message is sent
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        int stableChecks = 0;
        while (true) {
            Map<String, Integer> assigned = new HashMap<>();
            boolean allJoined = true;
            for (int i = 0; i < clients.size(); i++) {
                WorkerClient client = clients.get(i);
                WorkerClient.Readiness r = setup(() -> client.prepareStatus(runId));
                allJoined &= r.ready();
                for (WorkerClient.ConsumerReadiness c : r.consumers()) {
                    assigned.merge(c.group(), c.assignedPartitions(), Integer::sum);
                    rebalanceMicros = Math.max(rebalanceMicros, c.joinMicros());
                }
            }
            boolean complete = allJoined && groupPartitions.entrySet().stream()
                    .allMatch(g -> assigned.getOrDefault(g.getKey(), 0).intValue() == g.getValue());
            if (failure.get() != null) {
                throw new UserException(failure.get());
            }
            stableChecks = complete ? stableChecks + 1 : 0;
            if (stableChecks >= 2) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new UserException("consumers did not get their partitions within " + READY_TIMEOUT.toSeconds()
                        + " s (assigned per group: " + assigned + ", partitions per group: " + groupPartitions + ")");
            }
            sleep(200);
        }
    }

    /**
     * Messages the consumers must receive before the run may stop: every acknowledged message once per
     * subscription; in a run without producers, {@code numRecords} per subscription (0 for a timed one).
     */
    private long expectedReceived(long acked) {
        long perSubscription = workload.producerCount() == 0 ? workload.numRecords() : acked;
        return perSubscription * workload.subscriptionsPerTopic();
    }

    /** {@code results/<name>-<run id>}: where results go without {@code --output}. */
    public static Path defaultOutput(String name, String id) {
        return Path.of("results", name + "-" + id);
    }

    /** A new run id: UTC time and 16 random bits. */
    public static String newRunId() {
        return RUN_ID_TIME.format(Instant.now()) + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    }

    /**
     * End of the last measured interval in which anything was sent (the producers' end in a count run), or
     * received when the run has no producers.
     */
    private long lastSendingInterval(List<MergedInterval> intervals, long measureStart) {
        boolean consumersOnly = workload.producerCount() == 0;
        long end = measureStart;
        for (MergedInterval i : intervals) {
            long moved = consumersOnly ? i.counters().received() : i.counters().sent();
            if (moved > 0 && i.startMicros() >= measureStart) {
                end = Math.max(end, i.endMicros());
            }
        }
        return end;
    }

    private void awaitEnd(List<WorkerClient> clients, String runId, IntervalMerger merger, long plannedEnd,
                          List<String> issues) {
        long lastReceived = -1;
        long lastProgress = System.nanoTime();
        long drainStart = 0;
        while (failure.get() == null) {
            sleep(100);
            long failed = merger.totals().failed();
            if (workload.maxSendErrors() >= 0 && failed > workload.maxSendErrors()) {
                failure.compareAndSet(null, String.format("%,d sends failed, more than maxSendErrors (%,d)", failed,
                        workload.maxSendErrors()));
                return;
            }
            if (workload.consumerBacklogRecords() > 0 && releaseMicros == 0) {
                boolean built = merger.totals().acked() >= workload.consumerBacklogRecords();
                if (built || merger.allProducersDone()) {
                    if (!built) {
                        issues.add(String.format("the backlog of %,d messages was not reached (%,d acknowledged); "
                                + "consumers started when the producers finished", workload.consumerBacklogRecords(),
                                merger.totals().acked()));
                    }
                    releaseConsumers(clients, runId, merger.totals().acked());
                }
                continue;
            }
            boolean sending = workload.numRecords() == 0 && clock.micros() < plannedEnd;
            if (sending || !merger.allProducersDone()) {
                continue;
            }
            long now = System.nanoTime();
            if (drainStart == 0) {
                drainStart = now;
            }
            var totals = merger.totals();
            long expected = expectedReceived(totals.acked());
            if (workload.consumerCount() == 0 || totals.received() >= expected) {
                return;
            }
            if (totals.received() != lastReceived) {
                lastReceived = totals.received();
                lastProgress = now;
            }
            boolean consumersOnly = workload.producerCount() == 0;
            if (now - lastProgress > DRAIN_IDLE.toNanos() || !consumersOnly && now - drainStart > DRAIN_MAX.toNanos()) {
                issues.add("consumers stopped making progress while draining");
                return;
            }
        }
    }

    /**
     * Re-estimates the clock offsets of workers that do not share the coordinator's clock every
     * {@link #RECHECK_EVERY} until interrupted, and hands a worker its new offset when the estimate is
     * replaced. A worker that does not answer is skipped: its run stream reports the failure.
     */
    private void recheckClocks(List<WorkerClient> clients, List<ClockEstimator.WorkerClock> clocks, String runId,
                               List<Boolean> producing, List<Boolean> consuming, RunReporter printer) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(RECHECK_EVERY.toMillis());
                boolean changed = false;
                for (int i = 0; i < clients.size(); i++) {
                    ClockEstimator.WorkerClock wc = clocks.get(i);
                    if (wc.sameClock()) {
                        continue;
                    }
                    try {
                        ClockEstimator.Estimate e = clients.get(i).clock(RECHECK_SAMPLES, clock);
                        synchronized (wc) {
                            if (wc.offer(e)) {
                                clients.get(i).adjustClock(runId, wc.offset());
                                changed = true;
                            }
                        }
                    } catch (WorkerCallException e) {
                        // the run stream reports an unreachable worker
                    }
                }
                if (changed) {
                    printer.clockBound(ClockEstimator.endToEndBound(clocks, producing, consuming));
                }
            }
        } catch (InterruptedException e) {
            // the run ended
        }
    }

    /** Renews every reachable worker's lease about every second until interrupted (every worker stopped). */
    private static void renewLeases(List<WorkerClient> clients, String runId, Set<Integer> lost) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                for (int i = 0; i < clients.size(); i++) {
                    if (!lost.contains(i)) {
                        clients.get(i).renewLease(runId);
                    }
                }
                Thread.sleep(1_000);
            }
        } catch (InterruptedException e) {
            // every worker has stopped
        }
    }

    /**
     * Until interrupted (the run ended), declares lost every worker whose run stream has brought no snapshot
     * for longer than the watch's threshold.
     */
    private void watchStreams(StreamWatch watch, List<WorkerClient> clients,
                              java.util.function.BiConsumer<Integer, String> loseWorker) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(200);
                for (long[] s : watch.silent(clock.micros())) {
                    int index = (int) s[0];
                    loseWorker.accept(index, String.format("lost the connection to worker %s: no snapshot for %.1f s "
                            + "(one is due every %d s)", clients.get(index).address(), s[1] / 1e6,
                            options.intervalMicros() / 1_000_000));
                }
            }
        } catch (InterruptedException e) {
            // the run ended
        }
    }

    /**
     * Runs the workload's faults against the local cluster, each at its instant after {@code runStart}, until
     * all are done or the thread is interrupted (the run ended). A fault that fails ends the run.
     */
    private void injectFaults(long runStart, FaultTimeline timeline, RunReporter printer) {
        for (Fault f : workload.faults()) {
            long at = runStart + f.atSeconds() * 1_000_000L;
            long wait;
            while ((wait = at - clock.micros()) > 0) {
                try {
                    Thread.sleep(Math.max(1, Math.min(wait / 1000, 200)));
                } catch (InterruptedException e) {
                    return;
                }
            }
            int event = timeline.begin(f, clock.micros());
            printer.info(String.format("  fault: %s broker %d (at %d s)", f.action() == Fault.Action.stop ? "stopping"
                    : "starting", f.broker(), f.atSeconds()));
            try {
                if (f.action() == Fault.Action.stop) {
                    cluster.stopBroker(f.broker());
                } else {
                    cluster.startBroker(f.broker());
                }
                long done = clock.micros();
                timeline.done(event, done, null);
                printer.info(String.format("  fault: broker %d %s after %.1f s", f.broker(),
                        f.action() == Fault.Action.stop ? "stopped" : "serves again", (done - at) / 1e6));
            } catch (RuntimeException e) {
                timeline.done(event, 0, e.getMessage());
                failure.compareAndSet(null, "fault '" + f.describe() + "' failed: " + e.getMessage());
                return;
            }
        }
    }

    /** Releases every worker's held consumers (a backlog run). */
    private void releaseConsumers(List<WorkerClient> clients, String runId, long acked) {
        releaseMicros = clock.micros();
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (WorkerClient c : clients) {
            calls.add(CompletableFuture.runAsync(() -> c.startConsumers(runId)));
        }
        for (CompletableFuture<Void> f : calls) {
            try {
                joinUnwrapped(f);
            } catch (WorkerCallException e) {
                failure.compareAndSet(null, e.getMessage());
            }
        }
        out.info(String.format("backlog built (%,d of %,d messages acknowledged, as last reported); consumers start reading",
                acked, workload.consumerBacklogRecords()));
    }

    /**
     * Stops the run on every worker not in {@code lost} (their connection is gone; their lease ends the load),
     * in parallel; the first reachable worker deletes {@code deleteTopics}.
     */
    private void stopAll(List<WorkerClient> clients, String runId, List<String> deleteTopics, List<String> issues,
                         Set<Integer> lost) {
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        List<Integer> stopped = new ArrayList<>();
        boolean deleting = false;
        for (int i = 0; i < clients.size(); i++) {
            if (lost.contains(i)) {
                continue;
            }
            WorkerClient c = clients.get(i);
            List<String> delete = deleting ? List.of() : deleteTopics;
            deleting = true;
            stops.add(CompletableFuture.runAsync(() -> c.stop(runId, delete, failure.get() != null)));
            stopped.add(i);
        }
        for (int i = 0; i < stops.size(); i++) {
            try {
                joinUnwrapped(stops.get(i));
            } catch (WorkerCallException e) {
                if (!lost.contains(stopped.get(i))) { // a worker lost meanwhile is reported as lost
                    issues.add(e.getMessage());
                }
            }
        }
    }

    private static <T> T joinUnwrapped(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** Runs a setup call; a worker's refusal or unreachability becomes a one-line {@link UserException}. */
    private static <T> T setup(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (WorkerCallException e) {
            throw new UserException(e.getMessage(), e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
