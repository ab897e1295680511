package io.kbench.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.driver.ClusterFacts;
import io.kbench.driver.Driver;
import io.kbench.driver.DriverFactory;
import io.kbench.driver.NanoClock;
import io.kbench.protocol.ClientMetricsDump;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.MicrosClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run on this worker, its lifecycle: the driver and the topics, the clients ({@link RunClients}: producer and
 * consumer threads) and the snapshot stream ({@link IntervalStream}: an {@link IntervalSnapshot} per interval to
 * the current {@link SnapshotSink}, the lease holder).
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

    enum State { PREPARED, RUNNING, ENDED }

    private final RunSpec spec;
    private final Driver driver;
    private final RunClock clock;
    private final List<String> createdTopics;
    private final Map<String, Integer> topicPartitions;
    private final ClusterFacts cluster;
    private final ErrorSlot fatal = new ErrorSlot();
    private final ErrorSlot sendErrors = new ErrorSlot();
    private final RunClients clients;
    private final IntervalStream stream;
    private final long preparedAtNanos;
    private volatile State state = State.PREPARED;
    private volatile RunObserver observer = RunObserver.NONE;
    private volatile long leaseRenewedNanos;
    private boolean ended;

    /** What a send that fails from a failed run's stop on says: its producer was closed at once by kbench. */
    static final String STOPPED_SENDS = "in flight when the failed run stopped its producers";

    /** The heap this run's clients were given (HeapBudget): back when it ends. */
    private final HeapBudget.Reservation heap;

    private LoadRun(String workerId, RunSpec spec, Driver driver, RunClock clock, List<String> createdTopics,
                    Map<String, Integer> topicPartitions, ClusterFacts cluster, List<BrokerScraper> brokers,
                    HeapBudget.Reservation heap) {
        this.heap = heap;
        this.cluster = cluster;
        this.spec = spec;
        this.driver = driver;
        this.clock = clock;
        this.preparedAtNanos = clock.nanoClock().nanoTime();
        this.createdTopics = List.copyOf(createdTopics);
        this.topicPartitions = Map.copyOf(topicPartitions);
        this.clients = new RunClients(spec, driver, clock, sendErrors, fatal);
        this.stream = new IntervalStream(workerId, spec, clock, clients, brokers, driver, sendErrors, fatal,
                () -> observer);
    }

    /**
     * Builds the run: loads the driver, checks the cluster answers, creates the topics this worker was asked
     * to create, builds producers and consumers (consumers start polling at once).
     *
     * @throws io.kbench.driver.DriverException when the cluster is unreachable or refuses
     */
    static LoadRun prepare(String workerId, RunSpec spec, DriverFactory factory, MicrosClock local, NanoClock nanos) {
        // first: a share this JVM cannot hold is refused before a topic or a client is made
        HeapBudget.Reservation heap = HeapBudget.reserve(spec, Runtime.getRuntime().maxMemory());
        Driver driver;
        try {
            driver = factory.create(spec.driverConfig(), nanos);
        } catch (RuntimeException e) {
            heap.close();
            throw e;
        }
        List<String> created = new ArrayList<>();
        try {
            driver.checkReachable(REACH_TIMEOUT);
            Map<String, Integer> partitions = new java.util.LinkedHashMap<>();
            if (!spec.createTopics().isEmpty()) {
                created.addAll(driver.createTopics(spec.createTopics(), TOPIC_TIMEOUT));
                spec.createTopics().forEach(t -> partitions.put(t.name(), t.partitions()));
            }
            if (!spec.existingTopics().isEmpty()) {
                partitions.putAll(driver.describeTopics(spec.existingTopics(), TOPIC_TIMEOUT));
            }
            ClusterFacts cluster = partitions.isEmpty() ? null : describe(driver, partitions.keySet());
            // the worker that makes or finds the topics has producers whenever the run has (the planner deals them
            // from the first worker): records the topics (or the producer) would refuse, refused before any client
            String tooLarge = cluster == null || spec.producers().isEmpty() ? null
                    : driver.recordProblem(cluster, smallestRecord(spec));
            if (tooLarge != null) {
                throw new io.kbench.driver.DriverException(tooLarge);
            }
            List<BrokerScraper> brokers = openBrokers(spec.brokerSources());
            try {
                return new LoadRun(workerId, spec, driver, new RunClock(local, spec.clockOffsetMicros(), nanos),
                        created, partitions, cluster, brokers, heap);
            } catch (RuntimeException e) {
                brokers.forEach(BrokerScraper::close);
                throw e;
            }
        } catch (RuntimeException e) {
            // the run is refused: a topic made for it goes too (a cluster of the user's keeps none of kbench's)
            if (!created.isEmpty()) {
                RunClients.closeQuietly(() -> driver.deleteTopics(List.copyOf(created), Duration.ofSeconds(30)));
            }
            driver.close();
            heap.close();
            throw e;
        }
    }

    /** The smallest record the run's producers send: its value, key and headers as the spec gives them. */
    static io.kbench.driver.RecordShape smallestRecord(RunSpec spec) {
        RunSpec.Values v = spec.values();
        int value = v.monotonicProducers() > 0 ? 1 : v.payloads().isEmpty() ? v.messageSize()
                : v.payloads().stream().mapToInt(b -> b.length).min().orElse(0);
        RunSpec.KeyChoice k = spec.keys();
        // keys of a distribution are key-0, key-1 ...: the shortest is 5 bytes
        int key = k.distribution() != Keys.Distribution.NONE ? 5 : k.size() > 0 ? k.size() : -1;
        return new io.kbench.driver.RecordShape(key, value, v.headers().count(), v.headers().keySize(),
                v.headers().valueSize(), spec.stampMessages(), spec.verification());
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
                        ? "the embedded broker" : source.startsWith("local:") ? "embedded broker " + source.substring(6)
                        : BrokerScraper.isUrl(source) ? BrokerScraper.withoutCredentials(source)
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
    private static ClusterFacts describe(Driver driver, java.util.Collection<String> topics) {
        try {
            return driver.describeCluster(List.copyOf(topics), DESCRIBE_TIMEOUT);
        } catch (RuntimeException e) {
            return new ClusterFacts("", java.util.Map.of(), List.of(), java.util.Map.of(),
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
        List<PrepareStatus.Consumer> cs = clients.consumerStatus();
        if (state == State.PREPARED) {
            String f = fatal.take();
            if (!f.isEmpty()) {
                throw new IllegalStateException(f);
            }
        }
        return new PrepareStatus(cs.stream().allMatch(PrepareStatus.Consumer::joined), cs, topicPartitions, cluster);
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
        this.leaseRenewedNanos = clock.nanoClock().nanoTime();
        observer.started(spec);
        long startNanos = clock.localNanos(startCoordinatorMicros);
        long endNanos = clock.localNanos(endCoordinatorMicros);
        long measureNanos = measureStartCoordinatorMicros > startCoordinatorMicros
                ? clock.localNanos(measureStartCoordinatorMicros) : startNanos;
        if (!spec.consumerStart().hold()) {
            if (measureStartCoordinatorMicros > startCoordinatorMicros && !spec.consumerStart().fromBeginning()
                    && !spec.consumerStart().fromCommitted()) {
                // consumers that read what is produced now: the window's end-to-end latency is its own messages'
                clients.measureConsumersFrom(measureStartCoordinatorMicros);
            }
            clients.releaseConsumers(startNanos);
        }
        // the stream first: it sets up the producers' interval boundaries before their threads start
        stream.start(startCoordinatorMicros, startNanos, to, this::abort);
        clients.startProducers(startNanos, measureNanos, endNanos);
        state = State.RUNNING;
    }

    /** Uses a newer estimate of the clock offset from now on. */
    void adjustClock(long offsetMicros) {
        clock.adjust(offsetMicros);
        observer.clockOffset(spec, offsetMicros);
    }

    /** The run's counters so far, live (not as of the last snapshot). */
    Counters liveCounters() {
        return stream.live();
    }

    /** True once every local producer has stopped and every one of its sends has completed. */
    boolean producersDone() {
        return clients.producersDone();
    }

    /** Tells {@code o} of this run from now on. */
    void observe(RunObserver o) {
        this.observer = o;
    }

    /** Releases held consumers now (a backlog run's producers have built the backlog). */
    void startConsumers() {
        clients.releaseConsumers(clock.nanoClock().nanoTime());
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
        stream.attach(to);
    }

    SnapshotSink sink() {
        return stream.sink();
    }

    /**
     * Ordered end: stop producers (if still sending) and consumers, send the last snapshot, close clients, then
     * delete those of {@code topics} that this run created (never a topic that was there before). When the
     * run failed ({@code runFailed}), producers are closed at once (threads blocked in send() are
     * interrupted) and deletion, bounded at 5 s (the cluster may be what failed), runs while the consumers close.
     */
    void stop(List<String> topics, boolean runFailed) {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        if (runFailed) {
            LOG.info("run {} failed at the coordinator: stopping at once", spec.runId());
            sendErrors.stopping(STOPPED_SENDS);
        }
        clients.stopProducers(runFailed);
        List<ClientMetricsDump> dumps = new ArrayList<>(runFailed ? List.of() : clients.flushAndCloseProducers());
        clients.signalConsumers();
        List<String> delete = topics.stream().filter(createdTopics::contains).toList();
        // a failed run's topics are deleted while its consumers close (they poll no more; at worst their last offset
        // commit finds the topic gone): on a cluster that went away each waits out its own bound, 5 s, and one after
        // the other they held the run's end 10 s. A completed run deletes after its consumers and last snapshot.
        Thread deleting = null;
        if (runFailed && !delete.isEmpty()) {
            deleting = new Thread(() -> RunClients.closeQuietly(() -> driver.deleteTopics(delete, Duration.ofSeconds(5))),
                    "kbench-delete-topics");
            deleting.setDaemon(true);
            deleting.start();
        }
        clients.awaitConsumers();
        dumps.addAll(clients.consumerDumps());
        SnapshotSink to = stream.last(null, dumps);
        if (to != null) {
            to.onEnd();
        }
        if (deleting != null) {
            try {
                deleting.join(10_000); // bounded at 5 s by the driver; the margin is for a slow host
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else if (!delete.isEmpty()) {
            RunClients.closeQuietly(() -> driver.deleteTopics(delete, Duration.ofSeconds(30)));
        }
        stream.close(); // first: the backlog reader uses the driver
        RunClients.closeQuietly(driver::close);
        heap.close();
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
        sendErrors.stopping(STOPPED_SENDS);
        clients.stopProducers(true);
        clients.stopConsumers();
        SnapshotSink to = stream.last(reason, List.of());
        stream.close(); // first: the backlog reader uses the driver
        RunClients.closeQuietly(driver::close);
        heap.close();
        state = State.ENDED;
        observer.ended(spec, reason);
        // the stream ends last: whoever sees it end finds the worker free
        if (to != null) {
            to.onAbort(reason);
        }
    }
}
