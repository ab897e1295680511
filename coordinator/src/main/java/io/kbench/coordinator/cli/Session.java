package io.kbench.coordinator.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.rpc.ClientSecurity;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.run.RunController;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.coordinator.run.RunOptions;
import io.kbench.coordinator.run.RunOutcome;

/**
 * The cluster and workers of one command ({@code run}, {@code producer-perf} ...): the given ones, or an
 * embedded broker and in-process workers started here; and Ctrl-C / SIGTERM handling, which interrupts the
 * current run (its partial results are written) and then stops what was started locally.
 *
 * <p>Threads: the command's thread; the shutdown hook's thread.
 */
final class Session implements AutoCloseable {
    private final LocalEnvironment env;
    private final ClientSecurity security;
    /** The cluster's bootstrap servers: a new one after the embedded cluster started again ({@link #restartEmbedded}). */
    private volatile String bootstrap;
    /** The run's cluster is the embedded one, in this JVM with the in-process workers. */
    private final boolean embedded;
    private final List<String> addresses;
    private final AtomicReference<RunController> current = new AtomicReference<>();
    private final AtomicBoolean interrupted = new AtomicBoolean();
    private final Thread onSignal;

    /**
     * @param workers   worker addresses, or empty for in-process workers
     * @param bootstrap the cluster, or null for an embedded broker (only with in-process workers)
     * @param security  how to authenticate to the given workers (in-process ones need nothing)
     * @param brokers   nodes of the embedded cluster, when one is started
     * @param info      where to say what is being started
     */
    Session(LocalEnvironment env, List<String> workers, String bootstrap, int localWorkers, ClientSecurity security,
            int brokers, PrintStream info) {
        this(env, workers, bootstrap, localWorkers, security, brokers, java.util.Map.of(), info);
    }

    /** @param brokerConfigs the embedded cluster's broker configs, when one is started (a sweep's first settings) */
    Session(LocalEnvironment env, List<String> workers, String bootstrap, int localWorkers, ClientSecurity security,
            int brokers, java.util.Map<String, String> brokerConfigs, PrintStream info) {
        Inputs.workers(workers);
        Inputs.bootstrap("bootstrap.servers", bootstrap);
        if (brokers < 1 || brokers > 9) {
            throw new UserException("--brokers must be 1 to 9, got " + brokers);
        }
        if (brokers > 1 && bootstrap != null) {
            throw new UserException("--brokers sizes the embedded cluster; it cannot be used with a cluster given by "
                    + "--bootstrap-servers or bootstrap.servers");
        }
        if (localWorkers < 1 || localWorkers > 64) {
            throw new UserException("--local-workers must be 1 to 64, got " + localWorkers);
        }
        if (bootstrap == null && !workers.isEmpty()) {
            throw new UserException("no Kafka cluster given: use --bootstrap-servers or set bootstrap.servers in the "
                    + "profile (an embedded broker is started only for in-process workers)");
        }
        this.env = env;
        this.embedded = bootstrap == null;
        this.security = workers.isEmpty() ? ClientSecurity.NONE : security;
        this.onSignal = new Thread(this::interruptAndClose, "kbench-interrupt");
        Runtime.getRuntime().addShutdownHook(onSignal);
        java.util.concurrent.CompletableFuture<List<String>> local = null;
        try {
            if (bootstrap == null) {
                // the in-process workers start while the broker does: it takes seconds, they need none of it yet
                local = java.util.concurrent.CompletableFuture.supplyAsync(() -> warmedUp(env.startWorkers(localWorkers)));
                info.println(brokers == 1 ? "starting an embedded Kafka broker (KRaft, single node) on loopback ..."
                        : "starting an embedded Kafka cluster (KRaft, " + brokers + " nodes) on loopback ...");
                bootstrap = env.startBroker(brokers, brokerConfigs);
                info.println((brokers == 1 ? "embedded broker" : "embedded cluster") + " ready at " + bootstrap);
            }
            this.bootstrap = bootstrap;
            this.addresses = local != null ? joined(local) : workers.isEmpty() ? env.startWorkers(localWorkers)
                    : List.copyOf(workers);
            if (!this.security.tls() && !WorkerConnectionOptions.remote(workers).isEmpty()) {
                info.println("note: --insecure: the cluster token and the run's settings go to the workers without TLS; "
                        + "anyone on the network path can read them (--tls, see docs/operations.md)");
            }
        } catch (RuntimeException e) {
            if (local != null) {
                try {
                    local.join(); // let the workers finish starting, so that close() stops them
                } catch (RuntimeException ignored) {
                    // their failure is not the one to report
                }
            }
            close();
            throw e;
        }
    }

    /**
     * {@code addresses}, after one identify call to each in-process worker over a connection of its own: made while
     * the embedded broker starts, it loads and runs the coordinator's side of gRPC once, so that the run's own
     * first calls, made once the broker is ready, do not pay for it (0.3-0.4 s on 2 cores). A failure here is the
     * run's to report: it is ignored.
     */
    private static List<String> warmedUp(List<String> addresses) {
        for (String address : addresses) {
            try (WorkerClient client = new WorkerClient(address, ClientSecurity.NONE)) {
                client.identify();
            } catch (RuntimeException ignored) {
                // the run identifies every worker again and says what is wrong
            }
        }
        return addresses;
    }

    /** The in-process workers started alongside the broker; their failure as it was thrown. */
    private static List<String> joined(java.util.concurrent.CompletableFuture<List<String>> local) {
        try {
            return local.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    String bootstrap() {
        return bootstrap;
    }

    /** True when the cluster is the embedded one this session started (its workers share this JVM with it). */
    boolean embedded() {
        return embedded;
    }

    /** Where the in-process workers read the embedded cluster's brokers from ({@link LocalEnvironment#brokerSources}). */
    List<String> embeddedBrokerSources() {
        return env.brokerSources();
    }

    List<String> addresses() {
        return addresses;
    }

    /** True once Ctrl-C / SIGTERM arrived: further runs of a sweep are skipped. */
    boolean interrupted() {
        return interrupted.get();
    }

    /** A controller for one run on this session's workers and cluster. */
    RunController controller(Workload workload, Profile profile, RunOptions options, RunReporter reporter) {
        // an embedded cluster is read by every command that runs on it (the perf tools' too), as run reads it
        RunOptions o = embedded() && options.brokerSources().isEmpty()
                ? options.withBrokerSources(embeddedBrokerSources()) : options;
        return new RunController(workload, profile.withBootstrapServers(bootstrap), addresses, security, env.cluster(),
                o, reporter);
    }

    /**
     * Every combination's share of the sweep against the heaps this session's workers tell, before the first
     * combination (or the priming run) starts: a combination that cannot fit is refused with the sweep, in one line,
     * exit 2, rather than found after the rows before it ran (each run checks its own again).
     *
     * @throws UserException naming the first combination and worker whose share does not fit, or a worker that does not
     *                       answer (exit 3)
     */
    void checkHeaps(List<io.kbench.coordinator.workload.Sweep.Point> points, Profile profile) {
        try (io.kbench.coordinator.run.Workers workers = io.kbench.coordinator.run.Workers.connect(addresses,
                a -> new WorkerClient(a, security))) {
            List<WorkerClient.Identity> ids = workers.identify(note -> { }); // the run says its notes
            io.kbench.coordinator.run.HeapCheck.checkSweep(points, ids, profile);
        }
    }

    /**
     * The cluster's topics whose whole name {@code regex} matches, listed by this session's first worker with the
     * profile's client settings (a worker reaches the brokers; this host may not): at most {@code limit} names.
     *
     * @throws UserException when the worker refuses (exit 2) or it or the cluster does not answer (exit 3)
     */
    WorkerClient.TopicList topics(Profile profile, String regex, int limit) {
        try (WorkerClient client = new WorkerClient(addresses.get(0), security)) {
            return io.kbench.coordinator.run.Workers.setup(() -> client.listTopics(profile.withBootstrapServers(bootstrap),
                    regex, limit));
        }
    }

    /**
     * Sets or removes cluster-wide dynamic broker configs through this session's first worker (a worker reaches the
     * brokers; this host may not), with the profile's client settings.
     *
     * @return each named config's cluster-wide value before the change
     * @throws UserException when the cluster or the worker refuses (exit 2) or does not answer (exit 3)
     */
    java.util.Map<String, String> alterBrokerConfigs(Profile profile, java.util.Map<String, String> set, List<String> delete,
                                                     boolean validateOnly) {
        try (WorkerClient client = new WorkerClient(addresses.get(0), security)) {
            return io.kbench.coordinator.run.Workers.setup(() -> client.alterBrokerConfigs(
                    profile.withBootstrapServers(bootstrap), set, delete, validateOnly));
        }
    }

    /** Starts the embedded cluster again with {@code brokerConfigs} (see {@link LocalEnvironment#restartBroker}). */
    void restartEmbedded(java.util.Map<String, String> brokerConfigs) {
        if (!embedded) {
            throw new IllegalStateException("not the embedded cluster");
        }
        bootstrap = env.restartBroker(brokerConfigs);
    }

    /** Why the embedded cluster's brokers would not take {@code name=value}, or null. */
    String embeddedConfigProblem(String name, String value) {
        return env.brokerConfigProblem(name, value);
    }

    RunOutcome run(RunController controller) {
        current.set(controller);
        return controller.run();
    }

    /** One run of {@code workload} in a session of its own; returns the exit code (0 completed, 1 failed). */
    static int runOnce(LocalEnvironment env, List<String> workers, String bootstrap, ClientSecurity security,
                       Workload workload, Profile profile, RunOptions options, RunReporter reporter) {
        try (Session session = new Session(env, workers, bootstrap, 1, security, 1, System.err)) {
            return session.run(session.controller(workload, profile, options, reporter)).completed() ? 0 : 1;
        }
    }

    private void interruptAndClose() {
        interrupted.set(true);
        RunController c = current.get();
        try {
            if (c != null) {
                c.interrupt("interrupted (SIGINT/SIGTERM)");
                c.awaitDone(30_000);
            }
            // the JVM ends when this hook returns: first let the command write what it has (a sweep's table with
            // the rest SKIPPED, a search's result) — it closes this session when it has
            commandDone.await(COMMAND_WRITE_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException ignored) {
            Thread.currentThread().interrupt();
        }
        env.close();
    }

    /** How long Ctrl-C waits, after the run stopped, for the command to write its files. */
    static final long COMMAND_WRITE_WAIT_SECONDS = 30;
    private final java.util.concurrent.CountDownLatch commandDone = new java.util.concurrent.CountDownLatch(1);

    /** The command is done with this session (its files written): the environment is closed. */
    @Override
    public void close() {
        commandDone.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException shuttingDown) {
            return; // the hook is running and closes the environment
        }
        env.close();
    }
}
