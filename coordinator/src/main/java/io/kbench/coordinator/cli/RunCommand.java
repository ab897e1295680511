package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import io.kbench.coordinator.RunController;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kbench run}: the coordinator. */
@Command(name = "run", sortOptions = false, mixinStandardHelpOptions = true,
        description = {
            "Runs a workload: splits its producers, consumers and rate across the workers, starts them at one",
            "instant, merges their histograms every interval and writes result.json.",
            "",
            "With no --workers, workers run in this process (over gRPC on loopback). With no bootstrap servers",
            "(neither --bootstrap-servers nor bootstrap.servers in the profile), an embedded single-node Kafka",
            "broker (KRaft) is started on loopback for the run and removed afterwards.",
            "",
            "Exit codes: 0 run completed, 1 run failed (partial results are written), 2 bad input or",
            "unreachable worker/cluster."})
public final class RunCommand implements Callable<Integer> {
    private static final Pattern ADDRESS = Pattern.compile("^[^\\s:,]+:\\d{1,5}$|^\\[[0-9a-fA-F:]+\\]:\\d{1,5}$");

    private final LocalEnvironment local;

    @Parameters(index = "0", paramLabel = "WORKLOAD", description = "Workload file (YAML), e.g. workloads/quickstart.yaml")
    Path workloadFile;

    @Option(names = "--workers", split = ",", paramLabel = "HOST:PORT",
            description = "Workers to run on, comma-separated (each started with 'kbench worker').")
    List<String> workers = new ArrayList<>();

    @Option(names = "--driver", paramLabel = "PROFILE",
            description = "Driver profile (YAML) with client tuning and cluster, e.g. deployment/kafka/throughput.yaml.")
    Path driverFile;

    @Option(names = "--bootstrap-servers", paramLabel = "HOSTS",
            description = "Kafka cluster to use; overrides bootstrap.servers of the profile.")
    String bootstrapServers;

    @Option(names = "--output", paramLabel = "DIR",
            description = "Directory for result.json (default: results/<workload>-<run id>).")
    Path output;

    @Option(names = "--local-workers", paramLabel = "N", defaultValue = "1",
            description = "In-process workers to start when --workers is not given (default: ${DEFAULT-VALUE}).")
    int localWorkers;

    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "1",
            description = "Reporting interval in seconds (default: ${DEFAULT-VALUE}); warm-up and duration must be multiples of it.")
    int intervalSeconds;

    @Option(names = "--keep-topics", description = "Leave the run's topics on the cluster afterwards.")
    boolean keepTopics;

    public RunCommand(LocalEnvironment local) {
        this.local = local;
    }

    @Override
    public Integer call() {
        Workload workload = Workload.load(workloadFile);
        Profile profile = driverFile == null ? Profile.defaults() : Profile.load(driverFile);
        if (localWorkers < 1 || localWorkers > 64) {
            throw new UserException("--local-workers must be 1 to 64, got " + localWorkers);
        }
        if (intervalSeconds < 1 || intervalSeconds > 60) {
            throw new UserException("--interval must be 1 to 60 seconds, got " + intervalSeconds);
        }
        if (workload.warmupSeconds() % intervalSeconds != 0 || workload.durationSeconds() % intervalSeconds != 0) {
            // durationSeconds is 0 for a record-count run: that is a multiple of anything
            throw new UserException("warmupSeconds (" + workload.warmupSeconds() + ") and durationSeconds ("
                    + workload.durationSeconds() + ") must be multiples of --interval " + intervalSeconds);
        }
        for (String w : workers) {
            if (!ADDRESS.matcher(w).matches()) {
                throw new UserException("--workers: '" + w + "' is not HOST:PORT");
            }
        }
        String bootstrap = bootstrapServers != null ? bootstrapServers : profile.bootstrapServers();
        if (bootstrap == null && !workers.isEmpty()) {
            throw new UserException("no Kafka cluster given: use --bootstrap-servers or set bootstrap.servers in the "
                    + "profile (an embedded broker is started only for in-process workers)");
        }
        try (LocalEnvironment env = local) {
            if (bootstrap == null) {
                System.out.println("starting an embedded Kafka broker (KRaft, single node) on loopback ...");
                bootstrap = env.startBroker();
                System.out.println("embedded broker ready at " + bootstrap);
            }
            List<String> addresses = workers.isEmpty() ? env.startWorkers(localWorkers) : workers;
            RunController controller = new RunController(workload, profile.withBootstrapServers(bootstrap),
                    addresses, new RunController.Options(output, keepTopics, intervalSeconds * 1_000_000L),
                    System.out);
            // Ctrl-C / SIGTERM: stop the workers, keep the results so far, remove what was started locally
            Thread onSignal = new Thread(() -> {
                controller.interrupt("interrupted (SIGINT/SIGTERM)");
                try {
                    controller.awaitDone(30_000);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
                env.close();
            }, "kbench-interrupt");
            Runtime.getRuntime().addShutdownHook(onSignal);
            RunController.Outcome outcome = controller.run();
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException shuttingDown) {
                // the hook is already running; it closes the environment
            }
            return outcome.completed() ? 0 : 1;
        }
    }
}
