package io.kbench.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.Driver;
import io.kbench.driver.DriverFactory;
import io.kbench.driver.ProducerHandle;
import io.kbench.driver.ProducerOptions;
import io.kbench.protocol.ClientMetricsDump;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.MicrosClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run on this worker: its driver, producer and consumer threads, and the snapshot thread that streams
 * an {@link IntervalSnapshot} per interval to the current {@link SnapshotSink} (the lease holder).
 *
 * <p>Life: {@link #prepare} (build clients; consumers start polling and join their groups) →
 * {@link #start} (producers start at the agreed instant, stop at the end instant and flush) →
 * {@link #stop} (normal end: consumers stop, last snapshot, clients closed) or {@link #abort} (lease lost or
 * a load thread failed: producers closed at once, stream ended with the reason). Stop and abort are
 * idempotent and may race; the first wins.
 *
 * <p>Threads: control methods from gRPC threads (serialized by {@link RunManager}); one thread per producer
 * and consumer; one snapshot thread.
 */
final class LoadRun {
    private static final Logger LOG = LoggerFactory.getLogger(LoadRun.class);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);
    /** Bound on describing the cluster for provenance: a slow answer costs the run only this. */
    private static final Duration DESCRIBE_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration REACH_TIMEOUT = Duration.ofSeconds(10);
    private static final long JOIN_MILLIS = 15_000;
    /** Producer-partition streams one consumer verifies at most (about 6 MB). */
    private static final int MAX_STREAMS = 65_536;

    enum State { PREPARED, RUNNING, ENDED }

    private final RunSpec spec;
    private final Driver driver;
    private final RunClock clock;
    private final List<String> createdTopics;
    private final java.util.Map<String, Integer> topicPartitions;
    private final io.kbench.driver.ClusterFacts cluster;
    private final ErrorSlot sendErrors = new ErrorSlot();
    private final ErrorSlot fatal = new ErrorSlot();
    private final List<ProducerLoop> producerLoops = new ArrayList<>();
    private final List<ProducerHandle> producerHandles = new ArrayList<>();
    private final List<ConsumerLoop> consumerLoops = new ArrayList<>();
    /** The share consumers' own figures (their loops are among {@link #consumerLoops}). */
    private final List<ShareConsumerMetrics> shareConsumers = new ArrayList<>();
    /** Each consumer's records and bytes so far, for the last snapshot; one per consumer, in the spec's order. */
    private final List<java.util.function.Supplier<io.kbench.protocol.ConsumerTotal>> consumerTotals = new ArrayList<>();
    private final List<Thread> producerThreads = new ArrayList<>();
    private final List<Thread> consumerThreads = new ArrayList<>();
    private final Snapshotter snapshotter;
    /** The worker process's CPU, GC and heap per interval; made at the start, so interval 0 counts from there. */
    private volatile HostSampler host;
    /** The brokers' own metrics this worker reads for the run (PrepareRequest.broker_sources); usually none. */
    private final List<BrokerScraper> brokers;
    /** Reads them off the snapshot thread, so a slow source cannot hold a snapshot up for long. */
    private volatile BrokerReads brokerReads;
    private final long preparedAtNanos;
    private volatile State state = State.PREPARED;
    private volatile SnapshotSink sink;
    private volatile RunObserver observer = RunObserver.NONE;
    private volatile long leaseRenewedNanos;
    private volatile boolean finishing;
    private Thread snapshotThread;
    /** The clients' metrics dumps the last snapshot carries (a normal end asked for them), set before it. */
    private volatile List<ClientMetricsDump> finalDumps = List.of();
    /** Reads the run's share groups' backlog (this worker reads it for the run); null on the other workers. */
    private volatile ShareBacklogReader backlog;
    private long startMicros;
    private long startNanos;
    private long nextSequence;
    private boolean ended;

    private LoadRun(String workerId, RunSpec spec, Driver driver, RunClock clock, List<String> createdTopics,
                    java.util.Map<String, Integer> topicPartitions, io.kbench.driver.ClusterFacts cluster,
                    List<BrokerScraper> brokers) {
        this.cluster = cluster;
        this.brokers = brokers;
        this.spec = spec;
        this.driver = driver;
        this.clock = clock;
        this.preparedAtNanos = clock.nanoClock().nanoTime();
        this.createdTopics = List.copyOf(createdTopics);
        this.topicPartitions = java.util.Map.copyOf(topicPartitions);
        List<ProducerMetrics> pm = new ArrayList<>();
        List<ConsumerMetrics> cm = new ArrayList<>();
        Payloads payloads = spec.monotonicProducers() > 0 ? null : spec.payloads().isEmpty()
                ? Payloads.generate(spec.messageSize(), spec.randomBytesRatio(), spec.runId().hashCode())
                : Payloads.of(spec.payloads());
        // one key table for all of this worker's producers; each producer reads it from its own offset
        Keys workerKeys = Keys.of(spec.keys(), spec.keyCount(), spec.zipfExponent(), spec.runId().hashCode());
        try {
            configureShareGroups(driver, spec);
            for (RunSpec.Consumer c : spec.consumers()) {
                // share consumers are not verified here but at the coordinator (their records spread over
                // consumers and workers): they send what they were delivered (ShareDeliveryLog)
                ConsumerMetrics metrics = new ConsumerMetrics(clock,
                        spec.verification() && !c.share() ? new SequenceTracker(spec.runNonce(), MAX_STREAMS) : null,
                        c.share() ? Processing.NONE : spec.processing(c.index())); // a share one: its own below
                long created = clock.nanoClock().nanoTime();
                ConsumerHandle handle;
                if (c.share()) {
                    RunSpec.Share s = spec.share();
                    ShareConsumerMetrics shareMetrics = new ShareConsumerMetrics(clock, spec.processing(c.index()),
                            s.releasePpm(), s.rejectPpm(), spec.runNonce() * 31L + c.index());
                    if (spec.verification()) {
                        // checked at the coordinator, where every worker's deliveries of the group meet
                        shareMetrics.verifyInto(new ShareDeliveryLog(c.group(), spec.runNonce()));
                    }
                    String id = clientId("s", c.index());
                    handle = new ShareConsumerAdapter(driver.createShareConsumer(c.topic(), c.group(), id,
                            s.explicit(), s.commitSync()), shareMetrics);
                    if (spec.consumersFromBeginning()) {
                        handle.hold(ConsumerHandle.Start.BEGINNING); // reads what is there: from the start on
                    }
                    shareConsumers.add(shareMetrics);
                    consumerTotals.add(() -> new io.kbench.protocol.ConsumerTotal(c.index(), true,
                            shareMetrics.delivered.get(), shareMetrics.deliveredBytes.get(), id));
                } else {
                    String id = clientId("c", c.index());
                    handle = driver.createConsumer(c.topic(), c.group(), id);
                    consumerTotals.add(() -> new io.kbench.protocol.ConsumerTotal(c.index(), false,
                            metrics.received.get(), metrics.receivedBytes.get(), id));
                    handle.hold(spec.consumersFromCommitted() ? ConsumerHandle.Start.COMMITTED
                            : spec.consumersFromBeginning() ? ConsumerHandle.Start.BEGINNING : ConsumerHandle.Start.END);
                }
                String name = "consumer " + c.index();
                ConsumerLoop loop = new ConsumerLoop(name, handle, metrics, fatal, created, clock.nanoClock());
                if (spec.dumpClientMetrics()) {
                    loop.dumpMetricsOnClose();
                }
                consumerLoops.add(loop);
                cm.add(metrics);
                // polling (joining the group) starts now, while the other clients are still being built: the
                // group's join then overlaps the producers' construction instead of following it
                Thread t = new Thread(loop, "kbench-consumer-" + c.index());
                t.setDaemon(true);
                consumerThreads.add(t);
                t.start();
            }
            for (RunSpec.Producer p : spec.producers()) {
                ProducerMetrics metrics = new ProducerMetrics(clock.nanoClock(), sendErrors, p.ratePerSecond() >= 0);
                ProducerHandle handle = driver.createProducer(new ProducerOptions(p.topic(), clientId("p", p.index()),
                        spec.transactional() ? "kbench-" + spec.runId() + "-p" + p.index() : null,
                        spec.verification() ? SequenceTracker.producerId(spec.runNonce(), p.index())
                                : ProducerOptions.NO_VERIFICATION, spec.stampMessages()), metrics);
                producerHandles.add(handle);
                Keys keys = workerKeys.forProducer(spec.runId().hashCode() * 31L + p.index());
                producerLoops.add(new ProducerLoop("producer " + p.index(), handle, metrics, clock,
                        p.ratePerSecond(), p.recordLimit(), spec.monotonicProducers() > 0
                                ? Payloads.monotonic(p.index(), spec.monotonicProducers()) : payloads,
                        keys, spec.transactionRecords(),
                        spec.transactionMillis(), fatal));
                pm.add(metrics);
            }
        } catch (RuntimeException e) {
            closeClientsNow();
            throw e;
        }
        this.snapshotter = new Snapshotter(workerId, pm, cm, producerHandles, shareConsumers);
        if (!spec.share().backlogGroups().isEmpty()) {
            // reading from the prepare on: the first interval has a reading (a cold Admin client's first answer can
            // take longer than an interval); stopped with the broker reads, on every end and abort
            ShareBacklogReader r = new ShareBacklogReader(driver, spec.share().backlogGroups(), spec.intervalMicros(),
                    clock.nanoClock(), spec.runId());
            backlog = r;
            r.start();
        }
    }

    /**
     * With share consumers here: checks that the cluster has share groups, and sets the groups' configs, before any
     * of the consumers is built.
     */
    private static void configureShareGroups(Driver driver, RunSpec spec) {
        List<String> groups = spec.consumers().stream().filter(RunSpec.Consumer::share).map(RunSpec.Consumer::group)
                .distinct().toList();
        if (groups.isEmpty()) {
            return;
        }
        driver.checkShareGroups(TOPIC_TIMEOUT);
        if (!spec.share().groupConfigs().isEmpty()) {
            driver.configureShareGroups(groups, spec.share().groupConfigs(), TOPIC_TIMEOUT);
        }
        String reset = spec.share().groupConfigs().get("share.auto.offset.reset");
        if (reset != null) {
            // started now, the groups get their partitions on their consumers' first heartbeat, not one heartbeat
            // interval (5 s by default) after it: the wait of a group's first use stays out of the measurement
            java.util.Map<String, String> groupTopics = new java.util.LinkedHashMap<>();
            spec.consumers().stream().filter(RunSpec.Consumer::share).forEach(c -> groupTopics.putIfAbsent(c.group(), c.topic()));
            List<String> started = driver.startShareGroups(groupTopics, reset, TOPIC_TIMEOUT);
            if (!started.isEmpty()) {
                LOG.info("run {}: share groups started at the {} offsets: {}", spec.runId(), reset, started);
            }
        }
    }

    private String clientId(String kind, int index) {
        return "kbench-" + spec.runId() + "-" + kind + index;
    }

    /**
     * Builds the run: loads the driver, checks the cluster answers, creates the topics this worker was asked
     * to create, builds producers and consumers (consumers start polling at once).
     *
     * @throws io.kbench.driver.DriverException when the cluster is unreachable or refuses
     */
    static LoadRun prepare(String workerId, RunSpec spec, DriverFactory factory, MicrosClock local, NanoClock nanos) {
        Driver driver = factory.create(spec.driverConfig());
        try {
            driver.checkReachable(REACH_TIMEOUT);
            List<String> created = List.of();
            java.util.Map<String, Integer> partitions = new java.util.LinkedHashMap<>();
            if (!spec.createTopics().isEmpty()) {
                created = driver.createTopics(spec.createTopics(), TOPIC_TIMEOUT);
                spec.createTopics().forEach(t -> partitions.put(t.name(), t.partitions()));
            }
            if (!spec.existingTopics().isEmpty()) {
                partitions.putAll(driver.describeTopics(spec.existingTopics(), TOPIC_TIMEOUT));
            }
            io.kbench.driver.ClusterFacts cluster = partitions.isEmpty() ? null : describe(driver, partitions.keySet());
            List<BrokerScraper> brokers = openBrokers(spec.brokerSources());
            try {
                return new LoadRun(workerId, spec, driver, new RunClock(local, spec.clockOffsetMicros(), nanos),
                        created, partitions, cluster, brokers);
            } catch (RuntimeException e) {
                brokers.forEach(BrokerScraper::close);
                throw e;
            }
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /** Connects to every broker source before any load: one that cannot be read refuses the run, naming it. */
    private static List<BrokerScraper> openBrokers(List<String> sources) {
        List<BrokerScraper> open = new ArrayList<>();
        for (String source : sources) {
            try {
                open.add(BrokerScraper.open(source, BROKER_READ_MILLIS));
            } catch (java.io.IOException | RuntimeException e) {
                open.forEach(BrokerScraper::close);
                throw new io.kbench.driver.DriverException("cannot read the broker metrics of " + (source.equals("local")
                        ? "the embedded broker" : BrokerScraper.isUrl(source) ? BrokerScraper.withoutCredentials(source)
                        : "JMX " + BrokerScraper.withoutCredentials(source)) + ": " + (e instanceof java.io.IOException
                        && e.getMessage() != null ? BrokerScraper.oneLine(e.getMessage()) : BrokerScraper.describe(e)), e,
                        noAnswer(e));
            }
        }
        return List.copyOf(open);
    }

    /**
     * True when {@code e} says nothing answered (connection refused, no route, timed out): the environment, not
     * the input (a login refused, an untrusted certificate, a page that is not metrics).
     */
    static boolean noAnswer(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.net.NoRouteToHostException
                    || t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Longest a snapshot waits for the brokers' figures; the interval goes without them after that. */
    static final long BROKER_READ_MILLIS = 500;

    /** The cluster for the result's provenance; what cannot be read is said, never fatal. */
    private static io.kbench.driver.ClusterFacts describe(Driver driver, java.util.Collection<String> topics) {
        try {
            return driver.describeCluster(List.copyOf(topics), DESCRIBE_TIMEOUT);
        } catch (RuntimeException e) {
            return new io.kbench.driver.ClusterFacts("", java.util.Map.of(), List.of(), java.util.Map.of(),
                    ErrorSlot.describe(e));
        }
    }

    RunSpec spec() {
        return spec;
    }

    State state() {
        return state;
    }

    long preparedAtNanos() {
        return preparedAtNanos;
    }

    PrepareStatus status() {
        List<PrepareStatus.Consumer> cs = new ArrayList<>();
        boolean ready = true;
        for (int i = 0; i < consumerLoops.size(); i++) {
            ConsumerHandle h = consumerLoops.get(i).handle();
            RunSpec.Consumer c = spec.consumers().get(i);
            cs.add(new PrepareStatus.Consumer(c.index(), c.group(), h.assignedPartitions(), h.joined(),
                    consumerLoops.get(i).metrics().joinMicros));
            ready &= h.joined();
        }
        if (state == State.PREPARED) {
            String f = fatal.take();
            if (!f.isEmpty()) {
                throw new IllegalStateException(f);
            }
        }
        return new PrepareStatus(ready, cs, topicPartitions, cluster);
    }

    /**
     * Starts producers and the snapshot stream. Times are coordinator time; {@code measureStartCoordinatorMicros}
     * 0 when there is no timed warm-up.
     */
    synchronized void start(long startCoordinatorMicros, long measureStartCoordinatorMicros, long endCoordinatorMicros,
                            SnapshotSink to) {
        if (state != State.PREPARED) {
            throw new IllegalStateException("run " + spec.runId() + " is " + state);
        }
        this.sink = to;
        this.leaseRenewedNanos = clock.nanoClock().nanoTime();
        observer.started(spec);
        this.startMicros = startCoordinatorMicros;
        this.startNanos = clock.localNanos(startCoordinatorMicros);
        this.host = HostSampler.ofThisJvm(snapshotter::takeOversleptMicros);
        if (!brokers.isEmpty()) {
            BrokerReads reads = new BrokerReads(brokers, spec.runId(), BROKER_READ_MILLIS);
            brokerReads = reads;
            reads.baseline(); // read meanwhile (the Run call returns at once): interval 0's figures count from it
        }
        long endNanos = clock.localNanos(endCoordinatorMicros);
        long measureNanos = measureStartCoordinatorMicros > startCoordinatorMicros
                ? clock.localNanos(measureStartCoordinatorMicros) : startNanos;
        for (int i = 0; i < producerLoops.size(); i++) {
            ProducerLoop loop = producerLoops.get(i);
            loop.window(startNanos, measureNanos, endNanos);
            snapshotter.producer(i).intervals(startNanos, spec.intervalMicros() * 1000L);
            Thread t = new Thread(loop, "kbench-producer-" + spec.producers().get(i).index());
            t.setDaemon(true);
            producerThreads.add(t);
        }
        if (!spec.holdConsumers()) {
            if (measureStartCoordinatorMicros > startCoordinatorMicros && !spec.consumersFromBeginning()
                    && !spec.consumersFromCommitted()) {
                // consumers that read what is produced now: the window's end-to-end latency is its own messages'
                consumerLoops.forEach(c -> c.metrics().measureFrom(measureStartCoordinatorMicros));
                shareConsumers.forEach(c -> c.measureFrom(measureStartCoordinatorMicros));
            }
            consumerLoops.forEach(c -> c.releaseAt(startNanos));
        }
        producerThreads.forEach(Thread::start);
        snapshotThread = new Thread(this::streamSnapshots, "kbench-snapshots-" + spec.runId());
        snapshotThread.setDaemon(true);
        state = State.RUNNING;
        snapshotThread.start();
    }

    /** Uses a newer estimate of the clock offset from now on. */
    void adjustClock(long offsetMicros) {
        clock.adjust(offsetMicros);
        observer.clockOffset(spec, offsetMicros);
    }

    /** The run's counters so far, live (not as of the last snapshot). */
    Counters liveCounters() {
        return snapshotter.live().withShare(snapshotter.shareLive());
    }

    /** Tells {@code o} of this run from now on. */
    void observe(RunObserver o) {
        this.observer = o;
    }

    /** Releases held consumers now (a backlog run's producers have built the backlog). */
    void startConsumers() {
        long now = clock.nanoClock().nanoTime();
        consumerLoops.forEach(c -> c.releaseAt(now));
    }

    /** The coordinator renewed the run's lease now. */
    void renewLease() {
        leaseRenewedNanos = clock.nanoClock().nanoTime();
    }

    /** When the lease was last renewed ({@link NanoClock} units); the start counts as a renewal. */
    long leaseRenewedNanos() {
        return leaseRenewedNanos;
    }

    /** Moves the lease to a new stream (a coordinator retransmitting Run). */
    void attach(SnapshotSink to) {
        this.sink = to;
    }

    SnapshotSink sink() {
        return sink;
    }

    private void streamSnapshots() {
        long intervalNanos = spec.intervalMicros() * 1000L;
        NanoClock nanos = clock.nanoClock();
        while (!finishing) {
            long seq = nextSequence;
            long boundary = startNanos + (seq + 1) * intervalNanos;
            long now;
            while (!finishing && (now = nanos.nanoTime()) < boundary) {
                nanos.park(boundary - now);
            }
            if (finishing) {
                return;
            }
            emit(snapshotter.harvest(seq, startMicros + seq * spec.intervalMicros(),
                    startMicros + (seq + 1) * spec.intervalMicros(), producersDone(), producersDoneMicros(), false,
                    sendErrors.take()).withHost(host.sample()).withBrokers(readBrokers())
                    .withShareBacklog(readBacklog()));
            nextSequence = seq + 1;
            String f = fatal.take();
            if (!f.isEmpty()) {
                Thread t = new Thread(() -> abort(f), "kbench-abort");
                t.setDaemon(true);
                t.start();
                return;
            }
        }
    }

    private boolean producersDone() {
        for (ProducerLoop p : producerLoops) {
            if (!p.done()) {
                return false;
            }
        }
        return true;
    }

    /** Coordinator time at which the last producer finished, or 0 while any runs (and without producers). */
    private long producersDoneMicros() {
        long last = Long.MIN_VALUE;
        for (ProducerLoop p : producerLoops) {
            if (!p.done()) {
                return 0;
            }
            last = Math.max(last, p.doneNanos());
        }
        return last == Long.MIN_VALUE ? 0 : clock.coordinatorMicros(last);
    }

    private void emit(IntervalSnapshot s) {
        observer.snapshot(spec, s);
        SnapshotSink to = sink;
        if (to != null) {
            to.onSnapshot(s);
        }
    }

    /**
     * Ordered end: stop producers (if still sending) and consumers, send the last snapshot, close clients, then
     * delete those of {@code topics} that this run created (never a topic that was there before). When the
     * run failed ({@code runFailed}), producers are closed at once (threads blocked in send() are
     * interrupted) and deletion is bounded at 5 s: the cluster may be what failed.
     */
    void stop(List<String> topics, boolean runFailed) {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        producerLoops.forEach(ProducerLoop::stop);
        if (runFailed) {
            LOG.info("run {} failed at the coordinator: stopping at once", spec.runId());
            for (ProducerHandle h : producerHandles) {
                closeQuietly(() -> h.close(Duration.ZERO));
            }
            producerThreads.forEach(Thread::interrupt);
        }
        join(producerThreads);
        List<ClientMetricsDump> dumps = new ArrayList<>();
        if (!runFailed) {
            for (int i = 0; i < producerHandles.size(); i++) {
                ProducerHandle h = producerHandles.get(i);
                if (spec.dumpClientMetrics()) {
                    // as the Kafka tool: after every send completed, before close; a client that cannot flush
                    // (interrupted, closed) prints nothing but is still closed below
                    try {
                        h.flush();
                        dumps.add(new ClientMetricsDump("producer", spec.producers().get(i).index(), h.metricsDump()));
                    } catch (RuntimeException e) {
                        LOG.warn("run {}: no metrics of producer {}: {}", spec.runId(), spec.producers().get(i).index(),
                                e.toString());
                    }
                }
                closeQuietly(() -> h.close(Duration.ofSeconds(5)));
            }
        }
        consumerLoops.forEach(ConsumerLoop::stop);
        join(consumerThreads);
        for (int i = 0; i < consumerLoops.size(); i++) {
            java.util.SortedMap<String, String> d = consumerLoops.get(i).metricsDump();
            if (d != null) {
                dumps.add(new ClientMetricsDump("consumer", spec.consumers().get(i).index(), d));
            }
        }
        finalDumps = dumps;
        finishSnapshots();
        List<String> delete = topics.stream().filter(createdTopics::contains).toList();
        if (!delete.isEmpty()) {
            closeQuietly(() -> driver.deleteTopics(delete, Duration.ofSeconds(runFailed ? 5 : 30)));
        }
        closeBrokers(); // first: the backlog reader uses the driver
        closeQuietly(driver::close);
        state = State.ENDED;
        observer.ended(spec, null);
    }

    /** Abnormal end: producers closed at once, the stream ended with {@code reason}. */
    void abort(String reason) {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        LOG.warn("run {} aborted: {}", spec.runId(), reason);
        producerLoops.forEach(ProducerLoop::stop);
        for (ProducerHandle h : producerHandles) {
            closeQuietly(() -> h.close(Duration.ZERO));
        }
        producerThreads.forEach(Thread::interrupt);
        consumerLoops.forEach(ConsumerLoop::stop);
        join(producerThreads);
        join(consumerThreads);
        SnapshotSink to = lastSnapshot(reason);
        closeBrokers(); // first: the backlog reader uses the driver
        closeQuietly(driver::close);
        state = State.ENDED;
        observer.ended(spec, reason);
        // the stream ends last: whoever sees it end finds the worker free
        if (to != null) {
            to.onAbort(reason);
        }
    }

    /** The last snapshot of an ordered end, then the end of the stream. */
    private void finishSnapshots() {
        SnapshotSink to = lastSnapshot(null);
        if (to != null) {
            to.onEnd();
        }
    }

    /** Stops the snapshot thread and sends the last snapshot; the sink to end, or null if never started. */
    private SnapshotSink lastSnapshot(String abortReason) {
        finishing = true;
        Thread t = snapshotThread;
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t);
            try {
                t.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        SnapshotSink to = sink;
        if (to == null) {
            return null; // never started
        }
        long seq = nextSequence;
        String error = sendErrors.take();
        String f = fatal.take();
        IntervalSnapshot last = snapshotter.harvest(seq, startMicros + seq * spec.intervalMicros(),
                Math.max(startMicros + seq * spec.intervalMicros(), clock.coordinatorMicrosNow()),
                producersDone(), producersDoneMicros(), true, f.isEmpty() ? error : f);
        HostSampler h = host;
        if (h != null) {
            last = last.withHost(h.sample()).withBrokers(readBrokers())
                    .withShareBacklog(abortReason == null ? readBacklogNow() : readBacklog());
        }
        if (!consumerTotals.isEmpty()) {
            last = last.withConsumerTotals(consumerTotals.stream().map(java.util.function.Supplier::get).toList());
        }
        if (abortReason == null && !finalDumps.isEmpty()) {
            last = last.withMetricsDumps(finalDumps);
        }
        observer.snapshot(spec, last);
        to.onSnapshot(last);
        return to;
    }

    /** The brokers' figures since the last read ({@link BrokerReads}); none when no source is read. */
    private List<io.kbench.protocol.BrokerSample> readBrokers() {
        BrokerReads reads = brokerReads;
        return reads == null ? List.of() : reads.read();
    }

    /** The share groups' backlog as last read; -1 when this worker reads none or the reading is stale. */
    private long readBacklog() {
        ShareBacklogReader r = backlog;
        return r == null ? -1 : r.latest(clock.nanoClock().nanoTime());
    }

    /**
     * The share groups' backlog read now, for the last snapshot of a run that ended normally: its consumers are
     * closed (their last acknowledgements sent), so this is what the groups left behind; -1 when this worker reads
     * none or the read fails (bounded by the reader's timeout).
     */
    private long readBacklogNow() {
        ShareBacklogReader r = backlog;
        return r == null ? -1 : r.readNow();
    }

    private void closeBrokers() {
        ShareBacklogReader r = backlog;
        if (r != null) {
            r.close();
        }
        BrokerReads reads = brokerReads;
        if (reads != null) {
            reads.close();
        }
        brokers.forEach(BrokerScraper::close); // closing twice is harmless; a run that never started has no reads
    }

    /** A failed build: started consumer loops close their own consumers on their threads; producers here. */
    private void closeClientsNow() {
        consumerLoops.forEach(ConsumerLoop::stop);
        for (ProducerHandle h : producerHandles) {
            closeQuietly(() -> h.close(Duration.ZERO));
        }
        join(consumerThreads);
    }

    /** Joins the threads within {@link #JOIN_MILLIS} of real time in all (they are real threads, whatever the clock). */
    private static void join(List<Thread> threads) {
        long deadline = System.currentTimeMillis() + JOIN_MILLIS;
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (t.isAlive()) {
                LOG.warn("{} did not stop within {} ms", t.getName(), JOIN_MILLIS);
            }
        }
    }

    private static void closeQuietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("while closing: {}", ErrorSlot.describe(e));
        }
    }
}
