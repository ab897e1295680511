package io.kbench.worker;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.kbench.driver.NanoClock;
import io.kbench.protocol.BrokerSample;
import io.kbench.protocol.ClientMetricsDump;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;

/**
 * The snapshot stream of one run on this worker: once an interval, on the boundary of the run's interval clock,
 * harvests the clients' figures ({@link Snapshotter}) with the worker's host, the brokers' figures and the share
 * groups' backlog where this worker reads them, and sends the {@link IntervalSnapshot} to the current
 * {@link SnapshotSink} (the lease holder). {@link #last} sends the run's last one.
 *
 * <p>Threads: {@link #start}, {@link #attach}, {@link #last} and {@link #close} from the run's control threads;
 * the stream on its {@link Runner}'s thread.
 */
final class IntervalStream implements Runner.Task {
    private final RunSpec spec;
    private final RunClock clock;
    private final RunClients clients;
    private final Snapshotter snapshotter;
    private final ErrorSlot sendErrors;
    private final ErrorSlot fatal;
    private final Supplier<RunObserver> observer;
    /** The brokers' own metrics this worker reads for the run (PrepareRequest.broker_sources); usually none. */
    private final List<BrokerScraper> brokers;
    /** Reads them off the stream's thread, so a slow source cannot hold a snapshot up for long. */
    private volatile BrokerReads brokerReads;
    /** Reads the run's share groups' backlog (this worker reads it for the run); null on the other workers. */
    private final ShareBacklogReader backlog;
    /** The worker process's CPU, GC and heap per interval; made at the start, so interval 0 counts from there. */
    private volatile HostSampler host;
    /** Stops the run before this JVM runs out of memory (the snapshot thread's). */
    private final HeapGuard heapGuard = new HeapGuard();
    private volatile SnapshotSink sink;
    private volatile boolean finishing;
    private volatile Runner runner;
    private Consumer<String> onFatal;
    private long startMicros;
    private long startNanos;
    private long nextSequence;

    /**
     * Starts reading the share groups' backlog at once when this worker reads it: the first interval has a
     * reading (a cold Admin client's first answer can take longer than an interval).
     *
     * @param observer who hears of each snapshot (asked at each one: it may change)
     */
    IntervalStream(String workerId, RunSpec spec, RunClock clock, RunClients clients, List<BrokerScraper> brokers,
                   io.kbench.driver.Driver driver, ErrorSlot sendErrors, ErrorSlot fatal, Supplier<RunObserver> observer) {
        this.spec = spec;
        this.clock = clock;
        this.clients = clients;
        this.brokers = brokers;
        this.sendErrors = sendErrors;
        this.fatal = fatal;
        this.observer = observer;
        this.snapshotter = new Snapshotter(workerId, clients.producerMetrics, clients.consumerMetrics,
                clients.producerHandles, clients.shareConsumers);
        if (spec.share().backlogGroups().isEmpty()) {
            backlog = null;
        } else {
            // stopped with the broker reads, on every end and abort
            backlog = new ShareBacklogReader(driver, spec.share().backlogGroups(), spec.intervalMicros(),
                    clock.nanoClock(), spec.runId(), RunClients.clientIdPrefix(spec.runId()));
            backlog.start();
        }
    }

    /**
     * Starts the stream: interval {@code n} spans [start + n·interval, start + (n+1)·interval).
     *
     * @param startMicros the run's start, coordinator time
     * @param startNanos  the same instant on the worker's {@link NanoClock}
     * @param onFatal     ends the run with a load thread's failure (called on a thread of its own)
     */
    void start(long startMicros, long startNanos, SnapshotSink to, Consumer<String> onFatal) {
        this.startMicros = startMicros;
        this.startNanos = startNanos;
        this.sink = to;
        this.onFatal = onFatal;
        this.host = HostSampler.ofThisJvm(snapshotter::takeOversleptMicros);
        if (!brokers.isEmpty()) {
            BrokerReads reads = new BrokerReads(brokers, spec.runId(), LoadRun.BROKER_READ_MILLIS, clock.nanoClock());
            brokerReads = reads;
            reads.baseline(startNanos); // read at the start (the Run call returns at once): interval 0 counts from it
        }
        for (int i = 0; i < clients.producerLoops.size(); i++) {
            snapshotter.producer(i).intervals(startNanos, spec.intervalMicros() * 1000L);
        }
        for (ConsumerMetrics m : clients.consumerMetrics) {
            m.intervals(startNanos, spec.intervalMicros() * 1000L);
        }
        for (ShareConsumerMetrics m : clients.shareConsumers) {
            m.intervals(startNanos, spec.intervalMicros() * 1000L);
        }
        runner = Runner.start("kbench-snapshots-" + spec.runId(), this, reason -> abortOnItsOwnThread(reason));
    }

    /** The run's counters so far, live (not as of the last snapshot). */
    Counters live() {
        return snapshotter.live().withShare(snapshotter.shareLive());
    }

    /** Moves the stream to a new sink (a coordinator retransmitting Run). */
    void attach(SnapshotSink to) {
        this.sink = to;
    }

    SnapshotSink sink() {
        return sink;
    }

    @Override
    public void run() {
        long intervalNanos = spec.intervalMicros() * 1000L;
        NanoClock nanos = clock.nanoClock();
        if (nextSequence == 0) {
            // the host's baseline at the start, not at the Run call up to the start delay before it: interval 0's
            // CPU, GC and JIT figures are then the interval's own (the brokers' baselines are read then too)
            long now;
            while (!finishing && (now = nanos.nanoTime()) - startNanos < 0) {
                nanos.park(startNanos - now);
            }
            host.sample();
        }
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
            io.kbench.protocol.HostSample hostNow = host.sample();
            emit(snapshotter.harvest(seq, startMicros + seq * spec.intervalMicros(),
                    startMicros + (seq + 1) * spec.intervalMicros(), clients.producersDone(), producersDoneMicros(),
                    false, sendErrors.take()).withHost(hostNow).withBrokers(readBrokers())
                    .withShareBacklog(readBacklog()).withRoundTrips(clients.takeRoundTrips()));
            nextSequence = seq + 1;
            String heapFull = heapGuard.check(hostNow);
            if (heapFull != null) {
                fatal.offer(heapFull);
            }
            String f = fatal.take();
            if (!f.isEmpty()) {
                abortOnItsOwnThread(f);
                return;
            }
        }
    }

    /** The run's end waits for this stream's thread: it cannot run on it. */
    private void abortOnItsOwnThread(String reason) {
        Thread t = new Thread(() -> onFatal.accept(reason), "kbench-abort");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void stop() {
        finishing = true;
    }

    /** Coordinator time at which the last producer finished, or 0 while any runs (and without producers). */
    private long producersDoneMicros() {
        long last = clients.producersDoneNanos();
        return last == Long.MIN_VALUE ? 0 : clock.coordinatorMicros(last);
    }

    private void emit(IntervalSnapshot s) {
        observer.get().snapshot(spec, s);
        SnapshotSink to = sink;
        if (to != null) {
            to.onSnapshot(s);
        }
    }

    /**
     * Stops the stream's thread and sends the last snapshot: to the end of the run, with the consumers' totals,
     * and on an ordered end ({@code abortReason} null) the clients' metrics {@code dumps} and the share groups'
     * backlog read now, once the run's share consumers on every worker have left their groups (this worker's are
     * closed; the others' last acknowledgements may still be on their way): what the groups left behind.
     *
     * @return the sink to end, or null when the stream never started
     */
    SnapshotSink last(String abortReason, List<ClientMetricsDump> dumps) {
        finishing = true;
        Runner r = runner;
        if (r != null) {
            r.stop();
            Runner.joinAll(List.of(r), RunClients.JOIN_MILLIS);
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
                clients.producersDone(), producersDoneMicros(), true, f.isEmpty() ? error : f)
                .withRoundTrips(clients.takeRoundTrips());
        HostSampler h = host;
        if (h != null) {
            last = last.withHost(h.sample()).withBrokers(readBrokers())
                    .withShareBacklog(abortReason == null ? readBacklogNow() : readBacklog());
        }
        List<io.kbench.protocol.PartitionAcks> acks = clients.partitionAcks();
        if (!acks.isEmpty()) {
            last = last.withPartitionAcks(acks);
        }
        List<io.kbench.protocol.ConsumerTotal> totals = clients.consumerTotals();
        if (!totals.isEmpty()) {
            last = last.withConsumerTotals(totals);
        }
        if (abortReason == null && !dumps.isEmpty()) {
            last = last.withMetricsDumps(dumps);
        }
        observer.get().snapshot(spec, last);
        to.onSnapshot(last);
        return to;
    }

    /** The brokers' figures since the last read ({@link BrokerReads}); none when no source is read. */
    private List<BrokerSample> readBrokers() {
        BrokerReads reads = brokerReads;
        return reads == null ? List.of() : reads.read();
    }

    /** The share groups' backlog as last read; -1 when this worker reads none or the reading is stale. */
    private long readBacklog() {
        return backlog == null ? -1 : backlog.latest(clock.nanoClock().nanoTime());
    }

    /**
     * The share groups' backlog read now, after the run's other share consumers have left (bounded by the reader's
     * timeouts); -1 when none is read or it fails.
     */
    private long readBacklogNow() {
        return backlog == null ? -1 : backlog.readNow();
    }

    /** Stops reading the brokers and the backlog; before the driver closes (the backlog reader uses it). */
    void close() {
        if (backlog != null) {
            backlog.close();
        }
        BrokerReads reads = brokerReads;
        if (reads != null) {
            reads.close();
        }
        brokers.forEach(BrokerScraper::close); // closing twice is harmless; a run that never started has no reads
    }
}
