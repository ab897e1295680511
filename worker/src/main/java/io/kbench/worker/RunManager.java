package io.kbench.worker;

import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.kbench.driver.Driver;
import io.kbench.driver.DriverException;
import io.kbench.driver.DriverFactory;
import io.kbench.driver.NanoClock;
import io.kbench.protocol.MicrosClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the worker's one run at a time and applies the protocol's rules to it: a worker belongs to one run;
 * calls with the current run id are idempotent; a run that was prepared but never started within
 * {@link #PREPARED_TIMEOUT_SECONDS} (its coordinator went away) is dropped so the worker is free again, and a
 * running run whose lease has not been renewed for {@link #LEASE_TIMEOUT_MILLIS} is aborted.
 *
 * <p>Threads: gRPC handler threads call in; methods that change the current run are synchronized, and the
 * long parts — building a run (reaching Kafka, creating topics) and stopping one — happen outside the lock,
 * so Identify keeps answering (busy, naming the run) while they take their time.
 */
public final class RunManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunManager.class);
    static final long PREPARED_TIMEOUT_SECONDS = 60;
    /** A running run whose lease has not been renewed for this long is aborted. */
    public static final long LEASE_TIMEOUT_MILLIS = 5_000;

    private final String workerId;
    private final MicrosClock clock;
    private final NanoClock nanos;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kbench-run-watchdog");
        t.setDaemon(true);
        return t;
    });
    private final java.util.function.Function<String, DriverFactory> driverLookup;
    private LoadRun current;
    private volatile RunObserver observer = RunObserver.NONE;
    /** A run being built outside the lock, or null. */
    private Preparing preparing;

    /** The run a Prepare is building: it holds the worker; a Stop meanwhile ends it as soon as it is built. */
    private static final class Preparing {
        final RunSpec spec;
        boolean stopped;

        Preparing(RunSpec spec) {
            this.spec = spec;
        }
    }

    public RunManager(String workerId, MicrosClock clock) {
        this(workerId, clock, NanoClock.SYSTEM);
    }

    /** @param nanos the time the runs read and wait on (leases, prepared-run expiry, schedules) */
    public RunManager(String workerId, MicrosClock clock, NanoClock nanos) {
        this(workerId, clock, nanos, RunManager::driver, true);
    }

    /**
     * @param drivers  the driver of a name (a spec's {@code driverName})
     * @param watchdog check the timeouts every 250 ms of real time; false: only when {@link #checkTimeouts} is called
     */
    RunManager(String workerId, MicrosClock clock, NanoClock nanos, java.util.function.Function<String, DriverFactory> drivers,
               boolean watchdog) {
        this.workerId = workerId;
        this.clock = clock;
        this.nanos = nanos;
        this.driverLookup = drivers;
        if (watchdog) {
            this.watchdog.scheduleWithFixedDelay(this::checkTimeouts, 250, 250, TimeUnit.MILLISECONDS);
        }
    }

    /** Tells {@code o} of every run prepared from now on. */
    public void observe(RunObserver o) {
        this.observer = o;
    }

    public String workerId() {
        return workerId;
    }

    public MicrosClock clock() {
        return clock;
    }

    /** The id of the run holding this worker (being prepared, prepared or running), or an empty string. */
    public synchronized String busyRunId() {
        RunSpec holder = holder();
        return holder == null ? "" : holder.runId();
    }

    /** The address of the coordinator whose run holds this worker, or an empty string. */
    public synchronized String busyCoordinator() {
        RunSpec holder = holder();
        return holder == null ? "" : holder.coordinator();
    }

    private RunSpec holder() {
        return preparing != null ? preparing.spec : active() ? current.spec() : null;
    }

    private boolean active() {
        return current != null && current.state() != LoadRun.State.ENDED;
    }

    /**
     * Prepares {@code spec} (first call) or answers its readiness (a repeated call with the same spec). The
     * run is built outside the lock: Kafka calls may take seconds.
     *
     * @throws WorkerException BUSY when another run holds the worker, or this run id was prepared with
     *                         another spec
     */
    public PrepareStatus prepare(RunSpec spec) {
        Preparing mine;
        synchronized (this) {
            RunSpec holder = holder();
            if (holder != null) {
                if (!holder.runId().equals(spec.runId())) {
                    throw new WorkerException(WorkerException.Kind.BUSY, "worker " + workerId + " is busy with run "
                            + holder.runId() + " of the coordinator at " + holder.coordinator());
                }
                if (!holder.digest().equals(spec.digest())) {
                    throw new WorkerException(WorkerException.Kind.BUSY, "run " + spec.runId() + " was prepared on worker "
                            + workerId + " with another spec; a repeated Prepare must carry the same request");
                }
                return preparing != null ? PrepareStatus.BUILDING : current.status();
            }
            mine = new Preparing(spec);
            preparing = mine;
        }
        LoadRun run = null;
        try {
            DriverFactory factory = driverLookup.apply(spec.driverName());
            LoadRun built = LoadRun.prepare(workerId, spec, factory, clock, nanos);
            run = built;
            built.observe(observer);
            observer.prepared(spec, built::liveCounters);
        } catch (DriverException e) {
            throw new WorkerException(e.unreachable() ? WorkerException.Kind.UNAVAILABLE : WorkerException.Kind.FAILED,
                    e.getMessage(), e);
        } finally {
            synchronized (this) {
                preparing = null;
                if (run != null) {
                    current = run;
                }
            }
        }
        if (mine.stopped) {
            run.abort("stopped while it was being prepared");
            throw new WorkerException(WorkerException.Kind.NOT_FOUND, "run " + spec.runId() + " was stopped while it "
                    + "was being prepared");
        }
        LOG.info("run {} prepared: {} producer(s), {} consumer(s), coordinator {}", spec.runId(),
                spec.producers().size(), spec.consumers().size(), spec.coordinator());
        return run.status();
    }

    /**
     * The readiness of run {@code runId}, being prepared or prepared.
     *
     * @throws WorkerException NOT_FOUND when this worker does not hold that run
     */
    public synchronized PrepareStatus prepareStatus(String runId) {
        if (preparing != null && preparing.spec.runId().equals(runId)) {
            return PrepareStatus.BUILDING;
        }
        return require(runId).status();
    }

    /**
     * Starts the prepared run, or moves the lease of a running one to {@code sink}.
     *
     * @param measureStartMicros end of a timed warm-up (0: none), where producers behind their schedule skip
     *                           what they still owe from the warm-up
     */
    public synchronized void run(String runId, long startMicros, long measureStartMicros, long endMicros,
                                 SnapshotSink sink) {
        LoadRun run = require(runId);
        if (run.state() == LoadRun.State.PREPARED) {
            run.start(startMicros, measureStartMicros, endMicros, sink);
            LOG.info("run {} starts at {} (coordinator time)", runId, startMicros);
        } else if (run.state() == LoadRun.State.RUNNING) {
            run.attach(sink);
            LOG.info("run {}: stream re-attached", runId);
        } else {
            throw new WorkerException(WorkerException.Kind.NOT_FOUND, "run " + runId + " has already ended");
        }
    }

    /** Replaces the run's clock offset with a newer estimate; a no-op for an unknown or ended run. */
    public synchronized void adjustClock(String runId, long offsetMicros) {
        if (current != null && current.spec().runId().equals(runId) && current.state() != LoadRun.State.ENDED) {
            current.adjustClock(offsetMicros);
        }
    }

    /** Renews the lease of the running run {@code runId}; false when it is not running here. */
    public synchronized boolean renewLease(String runId) {
        if (current != null && current.spec().runId().equals(runId) && current.state() == LoadRun.State.RUNNING) {
            current.renewLease();
            return true;
        }
        return false;
    }

    /**
     * The running run's counts so far, live, and whether its producers are done ({@code producersDone} read first:
     * once true, the counts read after it hold every one of their sends); null for an unknown, not yet started or
     * ended run.
     */
    public io.kbench.protocol.rpc.ProgressResponse progress(String runId) {
        LoadRun run;
        synchronized (this) {
            if (current == null || !current.spec().runId().equals(runId) || current.state() != LoadRun.State.RUNNING) {
                return null;
            }
            run = current;
        }
        boolean done = run.producersDone();
        return io.kbench.protocol.rpc.ProgressResponse.newBuilder().setRunning(true).setProducersDone(done)
                .setTotals(io.kbench.protocol.rpc.SnapshotMessages.counters(run.liveCounters())).build();
    }

    /** Releases the run's held consumers; a no-op for an unknown or ended run. */
    public synchronized void startConsumers(String runId) {
        if (current != null && current.spec().runId().equals(runId) && current.state() == LoadRun.State.RUNNING) {
            current.startConsumers();
        }
    }

    /**
     * Stops the run and deletes {@code topics} (of those it created); at once, without draining, when
     * {@code runFailed}. A no-op for an unknown or ended run.
     */
    public void stop(String runId, List<String> topics, boolean runFailed) {
        LoadRun run;
        synchronized (this) {
            if (preparing != null && preparing.spec.runId().equals(runId)) {
                preparing.stopped = true; // prepare() aborts it once built
                return;
            }
            if (current == null || !current.spec().runId().equals(runId)) {
                return;
            }
            run = current;
        }
        run.stop(topics, runFailed);
        LOG.info("run {} stopped", runId);
    }

    /** Aborts the run if {@code sink} still holds its lease (a stale stream's cancel is ignored). */
    public void leaseLost(String runId, SnapshotSink sink, String reason) {
        LoadRun run;
        synchronized (this) {
            if (current == null || !current.spec().runId().equals(runId) || current.sink() != sink) {
                return;
            }
            run = current;
        }
        run.abort(reason);
    }

    private LoadRun require(String runId) {
        if (current == null || !current.spec().runId().equals(runId)) {
            throw new WorkerException(WorkerException.Kind.NOT_FOUND, "run " + runId + " is not prepared on worker "
                    + workerId + (active() ? " (busy with run " + current.spec().runId() + ")" : ""));
        }
        return current;
    }

    /**
     * Drops a run prepared but not started within {@link #PREPARED_TIMEOUT_SECONDS} and aborts a running one whose
     * lease was not renewed for {@link #LEASE_TIMEOUT_MILLIS}, on the worker's {@link NanoClock}.
     */
    void checkTimeouts() {
        LoadRun run;
        synchronized (this) {
            run = current;
        }
        if (run != null && run.state() == LoadRun.State.PREPARED
                && nanos.nanoTime() - run.preparedAtNanos() > TimeUnit.SECONDS.toNanos(PREPARED_TIMEOUT_SECONDS)) {
            run.abort("prepared but not started within " + PREPARED_TIMEOUT_SECONDS + " s");
        }
        if (run != null && run.state() == LoadRun.State.RUNNING
                && nanos.nanoTime() - run.leaseRenewedNanos() > TimeUnit.MILLISECONDS.toNanos(LEASE_TIMEOUT_MILLIS)) {
            run.abort("lease expired: no renewal from the coordinator at " + run.spec().coordinator() + " for "
                    + LEASE_TIMEOUT_MILLIS / 1000 + " s");
        }
    }

    /** Longest a topic listing waits for the cluster. */
    static final java.time.Duration LIST_TIMEOUT = java.time.Duration.ofSeconds(15);

    /**
     * The topics of the cluster {@code config} names whose whole name {@code regex} matches, internal ones left out,
     * sorted: consumer-perf's {@code --include}, resolved on a worker because a worker reaches the brokers (the
     * coordinator may not). Touches no run: a busy worker answers too.
     *
     * @throws WorkerException INVALID for a driver this worker does not have, UNAVAILABLE when the cluster did not
     *                         answer, FAILED when it refused
     */
    public List<String> listTopics(String driverName, io.kbench.driver.DriverConfig config,
                                   java.util.regex.Pattern regex) {
        DriverFactory factory = driverLookup.apply(driverName);
        try (Driver driver = factory.create(config, nanos)) {
            return driver.listTopics(LIST_TIMEOUT).stream().filter(t -> regex.matcher(t).matches()).sorted().toList();
        } catch (DriverException e) {
            throw new WorkerException(e.unreachable() ? WorkerException.Kind.UNAVAILABLE : WorkerException.Kind.FAILED,
                    e.getMessage(), e);
        }
    }

    /**
     * Sets or removes cluster-wide dynamic broker configs with a driver of its own (no run is touched); see
     * {@link Driver#alterBrokerConfigs}.
     *
     * @return each named config's cluster-wide value before the change
     * @throws WorkerException INVALID when the cluster refuses a setting, UNAVAILABLE when it does not answer
     */
    public java.util.Map<String, String> alterBrokerConfigs(String driverName, io.kbench.driver.DriverConfig config,
                                                            java.util.Map<String, String> set, List<String> delete,
                                                            boolean validateOnly, java.time.Duration timeout) {
        DriverFactory factory = driverLookup.apply(driverName);
        try (Driver driver = factory.create(config, nanos)) {
            return driver.alterBrokerConfigs(set, delete, validateOnly, timeout);
        } catch (DriverException e) {
            throw new WorkerException(e.unreachable() ? WorkerException.Kind.UNAVAILABLE : WorkerException.Kind.INVALID,
                    e.getMessage(), e);
        }
    }

    /** The drivers this worker can load: name to client library and version. */
    public static java.util.Map<String, String> drivers() {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (DriverFactory f : ServiceLoader.load(DriverFactory.class)) {
            out.put(f.name(), f.version());
        }
        return out;
    }

    static DriverFactory driver(String name) {
        for (DriverFactory f : ServiceLoader.load(DriverFactory.class)) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new WorkerException(WorkerException.Kind.INVALID, "no driver named '" + name + "' on this worker");
    }

    /** Aborts any run and stops the watchdog. */
    @Override
    public void close() {
        LoadRun run;
        synchronized (this) {
            run = current;
        }
        if (run != null) {
            run.abort("worker shutting down");
        }
        watchdog.shutdownNow();
    }
}
