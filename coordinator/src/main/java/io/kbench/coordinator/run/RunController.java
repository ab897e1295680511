package io.kbench.coordinator.run;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.kbench.coordinator.ClockEstimator;
import io.kbench.coordinator.ClusterControl;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.merge.IntervalMerger;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.plan.Planner;
import io.kbench.coordinator.report.files.HistogramLogs;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.files.Written;
import io.kbench.coordinator.report.files.OutputDirectory;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.rpc.ClientSecurity;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.HostFacts;
import io.kbench.protocol.Versions;

/**
 * Runs one workload across workers. {@link #run()} reads as its steps: connect and identify the workers,
 * estimate their clocks, plan, prepare ({@link Preparation}: topics, clients, consumers assigned), start all
 * at one agreed instant ({@link RunWindow}, {@link LiveRun}), supervise until the {@link EndCondition} says
 * the run is over, stop, and assemble the result ({@link ResultAssembly}: console summary and
 * {@code result.json}).
 *
 * <p>Setup problems (unreachable worker or cluster, a worker busy with another run or refusing this
 * coordinator, a refused assignment) throw {@link UserException} before any load starts. A failure during the
 * run (a worker's connection lost, a worker aborting, {@code maxSendErrors} exceeded, a fault that failed)
 * stops every other worker at once, writes the results gathered so far with status FAILED and the lost
 * workers named, and returns a failed {@link RunOutcome}. No worker is left with load running: the run streams
 * are their leases, renewed by each worker's {@link WorkerSupervisor}.
 *
 * <p>Threads: {@link #run()} on the caller's thread, which also polls the end condition; snapshots arrive on
 * gRPC threads and go through the synchronized merger and reporter; every background loop is a {@link Loop}:
 * per worker {@code kbench-worker-N-heartbeat} (lease, stream watch) and {@code kbench-worker-N-clock}
 * (re-estimates), and {@code kbench-faults} for the workload's faults. Time is the injected
 * {@link CoordinatorClock}.
 *
 * <p>Size: under 400 lines, half of them comments (its options and outcome are {@link RunOptions} and
 * {@link RunOutcome}); {@link #run()} is under 30 lines and each step it names is a method of a dozen lines or a
 * class of its own.
 */
public final class RunController {
    /** Pings per worker; the first ones are slow (class loading, JIT), best-of-N keeps the tightest. */
    private static final int CLOCK_SAMPLES = 24;
    /** How often the end condition is polled. */
    private static final Duration END_POLL = Duration.ofMillis(100);
    /** How long a fault under way may take to finish once the run ends (a broker restart is not cut short). */
    private static final Duration FAULT_FINISH = Duration.ofSeconds(120);

    private final Workload workload;
    private final Profile profile;
    private final List<String> addresses;
    private final Function<String, WorkerClient> connector;
    private final ClusterControl cluster;
    private final RunOptions options;
    private final RunReporter out;
    private final CoordinatorClock clock;
    /** The run's files: what was written and what could not be. */
    private final Written written = new Written();
    private final RunFailure failure;
    private final CountDownLatch done = new CountDownLatch(1);

    public RunController(Workload workload, Profile profile, List<String> workerAddresses, RunOptions options,
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
                         ClusterControl cluster, RunOptions options, RunReporter out) {
        this(workload, profile, workerAddresses, a -> new WorkerClient(a, security), cluster, options, out,
                CoordinatorClock.system());
    }

    /**
     * @param connect builds the client of one worker address (network channels, or in-process ones in tests)
     * @param cluster the local embedded cluster the workload's faults act on, or null when the cluster is not
     *                kbench's own (a workload with faults is then refused)
     * @param clock   the coordinator's time
     * @throws UserException when the workload schedules faults this cluster cannot take
     */
    public RunController(Workload workload, Profile profile, List<String> workerAddresses,
                         Function<String, WorkerClient> connect, ClusterControl cluster, RunOptions options,
                         RunReporter out, CoordinatorClock clock) {
        if (profile.bootstrapServers() == null) {
            throw new IllegalArgumentException("profile without bootstrap servers");
        }
        FaultInjector.check(workload, cluster == null ? 0 : cluster.brokers());
        this.connector = connect;
        this.cluster = cluster;
        this.workload = workload;
        // consumers of a transactional run see only committed messages unless the profile says otherwise
        this.profile = workload.transactional() && !profile.consumer().containsKey("isolation.level")
                ? profile.with(java.util.Map.of("consumer.isolation.level", "read_committed")) : profile;
        this.addresses = List.copyOf(workerAddresses);
        this.options = options;
        this.out = out;
        this.clock = clock;
        this.failure = new RunFailure(clock::micros);
    }

    /**
     * Ends the run early from another thread (Ctrl-C): workers are stopped and the results so far written
     * with status FAILED and {@code reason}. Returns at once; see {@link #awaitDone}.
     */
    public void interrupt(String reason) {
        failure.fail(reason);
    }

    /** Waits until {@link #run()} has returned (results written), at most {@code millis}. */
    public boolean awaitDone(long millis) throws InterruptedException {
        return done.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Runs the workload: the steps below, in order; see the class comment for what a failure does. */
    public RunOutcome run() {
        String runId = RunIds.next(Instant.EPOCH.plus(clock.micros(), ChronoUnit.MICROS));
        Path dir = options.outputDir() != null ? options.outputDir() : RunIds.defaultOutput(workload.name(), runId);
        // the output directory is made and probed before any worker is contacted: data is never lost to it
        boolean created = OutputDirectory.prepare(dir, options.outputDir() != null ? "--output" : "results directory");
        try (Workers workers = Workers.connect(addresses, connector)) {
            return run(workers, runId, dir);
        } catch (RuntimeException e) {
            if (created) {
                OutputDirectory.removeIfEmpty(dir); // refused before anything was gathered
            }
            throw e;
        } finally {
            done.countDown();
        }
    }

    private RunOutcome run(Workers workers, String runId, Path dir) {
        Instant startedAt = Instant.EPOCH.plus(clock.micros(), ChronoUnit.MICROS);
        List<WorkerClient.Identity> ids = workers.identify(out::info);
        List<ClockEstimator.WorkerClock> clocks = estimateClocks(workers, ids);
        Plan plan = Planner.plan(workload, workers.size(), runId, options.intervalMicros(),
                new Planner.Consumers(options.consumerGroup(), options.consumersFromCommitted()));
        announce(plan, workers.size());
        io.kbench.protocol.HeapNeed.Buffers buffers = HeapCheck.buffers(profile, workload);
        HeapCheck.check(plan, ids, buffers); // before any worker makes a topic or a client
        Preparation preparation = new Preparation(workload, profile, options.intervalMicros(), clock, failure::reason,
                out::info).dumpClientMetrics(options.dumpClientMetrics()).brokerSources(options.brokerSources())
                // an existing topic's partitions, and so its consumers' fetches, are known once the first worker found it
                .topicsKnown(partitions -> {
                    if (workload.existingTopics()) {
                        HeapCheck.check(plan.withPartitions(partitions), ids, buffers);
                    }
                });
        long rebalanceMicros = prepare(preparation, workers, plan, clocks);
        ResultFile.Provenance provenance = provenance(ids, preparation.cluster());
        RunWindow window = RunWindow.of(workload, clock.micros(), RunWindow.lead(workers.size(),
                clocks.stream().mapToLong(ClockEstimator.WorkerClock::uncertainty).max().orElse(0)));
        out.info(eta(window, plan.workers().stream().allMatch(w -> w.consumers().isEmpty())));
        FaultTimeline faults = new FaultTimeline();
        LiveRun live = start(workers, ids, clocks, plan, window, dir, faults);
        List<String> ended;
        String error;
        List<String> stopping;
        try {
            ended = supervise(live, window, faults);
            error = failure.reason();
            stopping = stop(live, plan);
        } finally {
            live.closeSupervisors();
        }
        IntervalMerger merger = live.finish();
        // the merger's issues first (what the figures lack), then how the run ended and stopped, then the spool's
        List<String> issues = new ArrayList<>(merger.issues());
        issues.addAll(ended);
        issues.addAll(stopping);
        if (live.spoolProblem() != null) {
            issues.add(live.spoolProblem());
        }
        return new ResultAssembly(workload, profile, dir, out, written).assemble(new ResultAssembly.Gathered(runId, startedAt,
                error, plan, ids, addresses, clocks, window, merger, live.intervals(), rebalanceMicros,
                live.releaseMicros(), live.lost(), issues, faults, provenance, failure.atMicros(),
                options.intervalMicros()));
    }

    /** When the run starts, measures and should end, in the coordinator's local time. */
    private String eta(RunWindow window, boolean noConsumers) {
        java.time.format.DateTimeFormatter hms = java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss")
                .withZone(java.time.ZoneId.systemDefault());
        java.util.function.LongFunction<String> at = micros -> hms.format(Instant.EPOCH.plus(micros, ChronoUnit.MICROS));
        String zone = java.time.ZoneId.systemDefault().getDisplayName(java.time.format.TextStyle.SHORT, java.util.Locale.ROOT);
        String start = "start " + at.apply(window.runStartMicros()) + " " + zone + (workload.warmupSeconds() > 0
                ? ", measuring from " + at.apply(window.measureStartMicros()) : "");
        if (workload.numRecords() <= 0) {
            return start + ", producers stop " + at.apply(window.plannedEndMicros()) + "; done about "
                    + at.apply(window.plannedEndMicros() + 1_000_000L) + (noConsumers ? "" : " once the consumers have "
                    + "drained (at most " + EndCondition.DRAIN_MAX.toSeconds() + " s more)");
        }
        if (workload.producerRate() > 0) {
            long eta = window.measureStartMicros() + workload.numRecords() * 1_000_000L / workload.producerRate();
            return start + String.format(", %,d records at %,d msg/s: producers done about %s", workload.numRecords(),
                    workload.producerRate(), at.apply(eta));
        }
        return start + String.format(", %,d records %s: no estimate of the end", workload.numRecords(),
                workload.roundTrip() ? "one at a time" : "unthrottled");
    }

    /** The build, command line, hosts and cluster this run's figures come from. */
    private ResultFile.Provenance provenance(List<WorkerClient.Identity> ids, ResultFile.Cluster described) {
        List<ResultFile.WorkerHost> hosts = new ArrayList<>();
        for (WorkerClient.Identity id : ids) {
            hosts.add(new ResultFile.WorkerHost(id.id(), id.version(), id.commit(), id.drivers(), host(id.hostFacts())));
        }
        boolean embedded = cluster != null;
        int brokers = embedded ? cluster.brokers() : 0;
        boolean processes = embedded && cluster.processPerBroker();
        ResultFile.Cluster c = described == null
                ? new ResultFile.Cluster(embedded, brokers, processes, options.brokerSettings(), "", Map.of(), List.of(),
                        Map.of(), "not described by any worker")
                : new ResultFile.Cluster(embedded, brokers, processes, options.brokerSettings(), described.clusterId(),
                        described.features(),
                        described.brokers(), described.topics(), described.error());
        return new ResultFile.Provenance(Versions.kbench(), Versions.commit(), options.commandLine(),
                host(HostFacts.local()), hosts, c);
    }

    private static ResultFile.Host host(HostFacts h) {
        return h == null ? null : new ResultFile.Host(h.hostName(), h.cores(), h.memoryBytes(), h.os(), h.jvm(),
                h.maxHeapBytes());
    }

    /** Estimates every worker's clock offset; a worker in this process reads this very clock: offset 0. */
    private List<ClockEstimator.WorkerClock> estimateClocks(Workers workers, List<WorkerClient.Identity> ids) {
        List<ClockEstimator.WorkerClock> clocks = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            WorkerClient client = workers.get(i);
            clocks.add(ids.get(i).clockId().equals(clock.id()) ? ClockEstimator.WorkerClock.same()
                    : ClockEstimator.WorkerClock.estimated(Workers.setup(() -> client.clock(CLOCK_SAMPLES, clock::micros))));
        }
        return clocks;
    }

    /**
     * With several workers, how a figure splits over them: " (2+2+1 per worker)", or " (1 to 2 per worker)" beyond 8
     * workers; "" with one worker, or when every worker has none.
     */
    static String perWorker(Plan plan, java.util.function.ToLongFunction<Plan.WorkerAssignment> figure) {
        if (plan.workers().size() < 2) {
            return "";
        }
        List<Long> counts = plan.workers().stream().map(figure::applyAsLong).toList();
        if (counts.stream().allMatch(c -> c == 0)) {
            return "";
        }
        if (counts.size() > 8) {
            return String.format(java.util.Locale.ROOT, " (%,d to %,d per worker)", java.util.Collections.min(counts),
                    java.util.Collections.max(counts));
        }
        return counts.stream().map(c -> String.format(java.util.Locale.ROOT, "%,d", c))
                .collect(java.util.stream.Collectors.joining("+", " (", " per worker)"));
    }

    private void announce(Plan plan, int workers) {
        out.on(new RunEvent.Begin(plan.runId(), workload));
        int share = plan.shareConsumerCount();
        // with several workers, each figure's split over them: what each worker's share of the load is
        out.info(String.format("run %s: workload %s, %d worker(s), %d producer(s)%s, %d consumer(s)%s%s, target %s, %d s "
                        + "warm-up + %s",
                plan.runId(), workload.name(), workers, plan.producerCount(), perWorker(plan, w -> w.producers().size()),
                plan.consumerCount() - share, perWorker(plan, w -> w.consumers().stream().filter(c -> !c.share()).count()),
                share == 0 ? "" : String.format(", %d share consumer(s) in %d share group(s)%s", share,
                        workload.topics() * workload.shareGroups().groupsPerTopic(),
                        perWorker(plan, w -> w.consumers().stream().filter(Plan.ConsumerTask::share).count())),
                workload.producerCount() == 0 ? "consumers only" : workload.roundTrip() ? "round trip, one message in flight"
                        : workload.producerRate() < 0 ? "unthrottled" : String.format("%,d msg/s", workload.producerRate())
                        + perWorker(plan, w -> w.producers().stream().mapToLong(Plan.ProducerTask::ratePerSecond).sum()),
                workload.warmupSeconds(), workload.numRecords() > 0
                        ? String.format("%,d records in all", workload.numRecords())
                        : workload.durationSeconds() + " s"));
        // the records a poll may return, as the share consumers are built: the profile's common, then consumer section
        String maxPoll = profile.consumer().getOrDefault("max.poll.records",
                profile.common().getOrDefault("max.poll.records", "")).strip();
        int pollRecords = -1;
        try {
            pollRecords = Integer.parseInt(maxPoll); // the client's check took it as an INT of at least 1
        } catch (NumberFormatException e) {
            // not set (or not the client's to judge): Kafka's default
        }
        workload.shareGroups().warnings(workload.consumerProcessing(), pollRecords > 0 ? pollRecords
                : io.kbench.coordinator.workload.ShareGroups.DEFAULT_MAX_POLL_RECORDS, pollRecords > 0)
                .forEach(w -> out.info("warning: " + w));
        if (!workload.existingTopics() && workload.producerCount() > 0) {
            workload.messages().partitionWarnings(workload.partitionsPerTopic()).forEach(w -> out.info("warning: " + w));
        }
        String acks = profile.producer().getOrDefault("acks", profile.common().getOrDefault("acks", "")).strip();
        if (acks.equals("0") && workload.producerCount() > 0) {
            out.info("note: producer acks=0: the brokers acknowledge nothing — Kafka completes an acks=0 send once its "
                    + "request is written, so 'acked' counts the messages sent and publish latency ends there; only "
                    + "the consumers (verification) can tell a message lost");
        }
    }

    /** Prepares every worker's share (see {@link Preparation}); a failure stops the workers prepared so far. */
    private long prepare(Preparation preparation, Workers workers, Plan plan, List<ClockEstimator.WorkerClock> clocks) {
        long started = clock.micros();
        try {
            long rebalanceMicros = preparation.prepare(workers, plan,
                    clocks.stream().map(ClockEstimator.WorkerClock::offset).toList());
            out.on(new RunEvent.Prepared(started, clock.micros(), rebalanceMicros));
            return rebalanceMicros;
        } catch (RuntimeException e) {
            workers.stopAll(plan.runId(), topicsToDelete(plan), failure.failed(), Set.of());
            throw e;
        }
    }

    /** Opens the run streams at the agreed start instant, with a supervisor per worker. */
    private LiveRun start(Workers workers, List<WorkerClient.Identity> ids, List<ClockEstimator.WorkerClock> clocks,
                          Plan plan, RunWindow window, Path dir, FaultTimeline faults) {
        out.on(new RunEvent.SaturationThreshold(workload.saturationDelayMillis() * 1000));
        // warm-up by count: lines are warm-up until the interval that completes it (the live run then tells the
        // reporter where measurement starts)
        out.on(new RunEvent.Started(window.runStartMicros(), workload.warmupRecords() > 0 ? Long.MAX_VALUE : window.measureStartMicros()));
        out.on(new RunEvent.Faults(faults));
        LiveRun live = new LiveRun(workload, plan.runId(), window, workers, ids, clocks, plan,
                new HistogramLogs(dir, window.runStartMicros(), workload.transactional(),
                        workload.shareGroups().any(), written),
                new io.kbench.coordinator.merge.IntervalSpool(dir.resolve(".intervals.spool")), out, clock,
                options.intervalMicros(), failure);
        live.open();
        out.on(new RunEvent.ClockBound(ResultAssembly.clockBound(clocks, plan)));
        return live;
    }

    /**
     * Until the {@link EndCondition} says the run is over: polls the merged totals, releases a backlog run's
     * consumers when due, and carries out the workload's faults on a loop of their own.
     *
     * @return the notes worth an issue on the way (a backlog released late, the run out of time, consumers that
     *         never drained ...); a failure is {@link #failure}'s
     */
    private List<String> supervise(LiveRun live, RunWindow window, FaultTimeline timeline) {
        Loop faults = workload.faults().isEmpty() ? null : Loop.start("kbench-faults", FaultInjector.TURN, clock,
                new FaultInjector(workload.faults(), cluster, window.runStartMicros(), timeline, clock, out::info,
                        failure::fail)::turn,
                e -> failure.fail("faults: " + e));
        List<String> notes = new ArrayList<>();
        try {
            EndCondition.Rules rules = EndCondition.Rules.of(workload, window.plannedEndMicros());
            if (options.drainIdleMicros() > 0) {
                rules = rules.withDrainIdle(options.drainIdleMicros());
            }
            EndCondition.Drain drain = EndCondition.Drain.NOT_STARTED;
            long livePoll = livePollMicros(addresses.size(), options.intervalMicros());
            long nextLive = 0;
            while (true) {
                pause(END_POLL);
                EndCondition.Totals totals = live.totals();
                long now = clock.micros();
                EndCondition.Decision d = EndCondition.decide(rules, totals, now, drain);
                drain = d.drain();
                // the workers' live counts, not the next interval's snapshots (up to an interval later), release a
                // backlog run's consumers once the backlog is built, and end the run once nothing more is due to be
                // sent and the consumers have read everything
                boolean backlogPending = rules.backlogRecords() > 0 && !totals.consumersReleased();
                // a count run's end can come at any time, but not before what is left could have been sent: until
                // then the calls (every 100 ms, each worker) cost the coordinator and the workers CPU for nothing
                if (d.action() == EndCondition.Action.CONTINUE && livePoll > 0 && now >= nextLive
                        && (backlogPending || now >= rules.plannedEndMicros() || rules.countRun()
                                && EndCondition.mayEndSoon(rules, totals, live.peakDone(), live.peakRead()))) {
                    nextLive = now + livePoll;
                    EndCondition.Totals current = live.liveTotals();
                    if (current != null && backlogPending && current.acked() >= rules.backlogRecords()) {
                        live.releaseConsumers(current.acked());
                    } else if (current != null && EndCondition.complete(rules, current, clock.micros())) {
                        return notes;
                    }
                }
                switch (d.action()) {
                    case CONTINUE -> { }
                    case RELEASE_CONSUMERS -> {
                        if (d.note() != null) {
                            notes.add(d.note());
                        }
                        live.releaseConsumers(totals.acked());
                    }
                    case END -> {
                        if (d.note() != null) {
                            notes.add(d.note());
                        }
                        return notes;
                    }
                    case FAIL -> {
                        failure.fail(d.note());
                        return notes;
                    }
                }
            }
        } finally {
            live.endSupervision();
            if (faults != null) {
                faults.finish(FAULT_FINISH); // a broker being restarted is left serving, not half started
            }
        }
    }

    /**
     * Stops the workers (at once when the run failed, letting consumers drain otherwise) and deletes the run's
     * topics unless kept.
     *
     * @return what went wrong while stopping (issues; the run's failure was decided before)
     */
    private List<String> stop(LiveRun live, Plan plan) {
        if (failure.failed()) {
            out.info(io.kbench.coordinator.report.RunEvent.Info.RUN_FAILED + failure.reason() + "; stopping all workers");
        }
        return live.stop(topicsToDelete(plan));
    }

    private List<String> topicsToDelete(Plan plan) {
        return options.keepTopics() ? List.of() : ResultAssembly.topicNames(plan);
    }

    /**
     * How often the workers' live counts are read once nothing more is due ({@link LiveRun#liveTotals}): every
     * {@link #END_POLL}, slower with many workers (2 ms per worker: at most 500 calls a second); 0, never, when that
     * is an interval or more (the snapshots are as fresh).
     */
    static long livePollMicros(int workers, long intervalMicros) {
        long every = Math.max(END_POLL.toNanos() / 1000, workers * 2_000L);
        return every >= intervalMicros ? 0 : every;
    }

    private void pause(Duration d) {
        try {
            clock.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.fail("interrupted");
        }
    }


}
