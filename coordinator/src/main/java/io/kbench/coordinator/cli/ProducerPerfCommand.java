package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.files.OutputDirectory;
import io.kbench.coordinator.report.console.ProducerPerfReporter;
import io.kbench.coordinator.workload.PayloadFile;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.coordinator.run.RunOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kbench producer-perf}: {@code kafka-producer-perf-test}'s flags and output lines, run on kbench's
 * workers, rate schedule and histograms.
 */
@Command(name = "producer-perf", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"kafka-producer-perf-test's flags and output, run by kbench.",
            "",
            "Prints the Kafka tool's window and total lines on stdout; kbench's own lines and the response time (intended send -> ack) go to stderr, and result.json is written too. Values of --record-size are random bytes (the Kafka tool uses random letters, which compress better). Without --bootstrap-server and --workers, an embedded broker and an in-process worker are used."})
public final class ProducerPerfCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private final LocalEnvironment local;

    @Option(names = "--topic", paramLabel = "TOPIC", required = true, description = "Produce records to this topic.")
    String topic;

    @Option(names = "--num-records", paramLabel = "N", required = true, description = "Number of records to produce.")
    long numRecords;

    @Option(names = "--record-size", paramLabel = "BYTES", description = "Record size in bytes (or --payload-file).")
    Integer recordSize;

    @Option(names = "--payload-file", paramLabel = "FILE", description = "File of payloads, split at --payload-delimiter, sent in turn.")
    Path payloadFile;

    @Option(names = "--payload-delimiter", paramLabel = "DELIMITER", defaultValue = "\n", description = "Payload file delimiter (default: newline).")
    String payloadDelimiter;

    @Option(names = "--throughput", paramLabel = "MSG_PER_SEC", required = true,
            description = "Messages/sec for all producers together; -1 (or any value <= 0) for unthrottled.")
    long throughput;

    @Option(names = {"--bootstrap-server", "--bootstrap-servers"}, paramLabel = "HOST:PORT,...", description = "The Kafka cluster (or bootstrap.servers in a properties option).")
    String bootstrapServer;

    @Option(names = {"--producer-props", "--command-property"}, arity = "1..*", paramLabel = "PROP=VALUE",
            description = "Producer properties.")
    List<String> props = new ArrayList<>();

    @Option(names = "--producer.config", paramLabel = "FILE", description = "Producer properties file.")
    Path config;

    @Option(names = "--command-config", paramLabel = "FILE", description = "Client properties file for every client "
            + "(the producers and the admin client that checks or creates the topic): security settings belong here.")
    Path commandConfig;

    @Option(names = "--reporting-interval", defaultValue = "5000", paramLabel = "INTERVAL-MS",
            description = "Window line interval in ms, whole seconds (default: ${DEFAULT-VALUE}); the workers report every second either way.")
    long reportingIntervalMs;

    @Option(names = "--payload-monotonic", description = "Each value is the record's number in decimal: 0, 1, 2 ... "
            + "(with --producers N, producer p sends p, p+N, p+2N ...: unique across the run).")
    boolean payloadMonotonic;

    @Option(names = "--warmup-records", paramLabel = "N", description = "The first N records are warm-up: after the "
            + "whole run's total line a 'steady state' total line follows. kbench's steady state starts at the end of the "
            + "reporting interval in which N records were acknowledged (the Kafka tool switches at record N itself).")
    Long warmupRecords;

    @Option(names = "--print-metrics", description = "Print each producer's client metrics after the totals, in the "
            + "Kafka tool's format (one block per producer).")
    boolean printMetrics;

    @Option(names = "--transactional-id", paramLabel = "ID",
            description = "Makes the producers transactional (transaction duration 3000 ms unless given). kbench names each producer's transactional id itself (kbench-<run>-p<N>: ids must differ per producer) and says so on stderr.")
    String transactionalId;

    @Option(names = "--transaction-duration-ms", paramLabel = "MS",
            description = "Commit each transaction once it is this old; positive enables transactions (default: 3000 with --transactional-id, else none).")
    Long transactionDurationMs;

    @Option(names = "--partitions", paramLabel = "N", description = "kbench: create the topic with N partitions if it is missing "
            + "(without it the topic must exist, except on the embedded broker, where it is created with 1).")
    Integer partitions;

    @Option(names = "--producers", paramLabel = "N", defaultValue = "1", description = "kbench: producers sharing --num-records and "
            + "--throughput (default: ${DEFAULT-VALUE}).")
    int producers;

    @picocli.CommandLine.Mixin
    WorkerListOptions workerList = new WorkerListOptions();

    /** The workers, resolved from {@link #workerList}; none: in-process workers. */
    private List<String> workers = List.of();

    @picocli.CommandLine.Mixin
    WorkerConnectionOptions connection = new WorkerConnectionOptions();

    @Option(names = "--output", paramLabel = "DIR", description = "kbench: directory for result.json.")
    Path output;

    public ProducerPerfCommand(LocalEnvironment local) {
        this.local = local;
    }

    @Override
    public Integer call() {
        if (transactionalId != null && transactionalId.isBlank()) {
            throw new UserException("--transactional-id cannot be empty");
        }
        if (transactionDurationMs != null && (transactionDurationMs < 0 || transactionDurationMs > 900_000)) {
            throw new UserException("--transaction-duration-ms must be 0 to 900000 (the broker's transaction.max.timeout.ms), "
                    + "got " + transactionDurationMs);
        }
        // as the Kafka tool: an id alone means 3000 ms transactions; a positive duration alone enables them too
        long txMillis = transactionDurationMs != null ? transactionDurationMs : transactionalId != null ? 3000 : 0;
        if (txMillis > 0) {
            System.err.println("transactions: each producer commits once its transaction is " + txMillis + " ms old; "
                    + "transactional ids are kbench's own (kbench-<run>-p<N>, one per producer)"
                    + (transactionalId != null ? ", not '" + io.kbench.coordinator.workload.ConfigError.excerpt(
                            transactionalId) + "'" : ""));
        }
        Inputs.topic("--topic", topic);
        Inputs.bootstrap("--bootstrap-server", bootstrapServer);
        workers = workerList.resolve(System.err); // stdout carries the Kafka tool's lines
        connection.checkTransport(workers);
        if (partitions != null && (partitions < 1 || partitions > 100_000)) {
            throw new UserException("--partitions must be 1 to 100000, got " + partitions);
        }
        if (numRecords < 1 || numRecords > 1_000_000_000_000L) {
            throw new UserException("--num-records must be 1 to 1000000000000, got " + numRecords);
        }
        if ((recordSize != null ? 1 : 0) + (payloadFile != null ? 1 : 0) + (payloadMonotonic ? 1 : 0) != 1) {
            throw new UserException("give exactly one of --record-size, --payload-file or --payload-monotonic");
        }
        if (printMetrics && producers > io.kbench.coordinator.report.console.MetricsDumpPrinter.MAX_CLIENTS) {
            throw new UserException("--print-metrics prints one block per producer: at most "
                    + io.kbench.coordinator.report.console.MetricsDumpPrinter.MAX_CLIENTS + " producers with it, got " + producers);
        }
        long warmup = warmupRecords == null ? 0 : warmupRecords;
        if (warmup < 0 || warmup >= numRecords) {
            throw new UserException("--warmup-records must be 0 to --num-records - 1 (" + (numRecords - 1)
                    + "): the warm-up is part of the run, got " + warmup);
        }
        if (recordSize != null && (recordSize < 1 || recordSize > 100 * 1024 * 1024)) {
            throw new UserException("--record-size must be 1 to 104857600, got " + recordSize);
        }
        if (producers < 1 || producers > 10_000 || numRecords < producers) {
            throw new UserException("--num-records (" + numRecords + ") must be at least --producers (" + producers
                    + "), which must be 1 to 10000");
        }
        if (reportingIntervalMs < 1000 || reportingIntervalMs % 1000 != 0) {
            throw new UserException("--reporting-interval must be whole seconds in ms (1000, 2000 ...), got " + reportingIntervalMs);
        }
        long rate = throughput <= 0 ? Workload.UNTHROTTLED : Math.max(throughput, producers);
        String payload = null;
        if (payloadFile != null) {
            if (payloadDelimiter.isEmpty()) {
                throw new UserException("--payload-delimiter cannot be empty");
            }
            try {
                PayloadFile.read(payloadFile, payloadDelimiter);
            } catch (java.nio.file.NoSuchFileException e) {
                throw new UserException("--payload-file " + payloadFile + ": file not found");
            } catch (java.io.IOException | IllegalArgumentException e) {
                throw new UserException("--payload-file " + payloadFile + ": " + e.getMessage());
            }
            payload = payloadFile.toAbsolutePath().toString();
        }
        ClientOverrides given = new ClientOverrides()
                .file(commandConfig, "common", "--command-config")
                .file(config, "producer", "--producer.config")
                .pairs(props, "producer", "--producer-props");
        Profile profile = given.applyTo(Profile.defaults(), local.configCheck(), Inputs::note);
        String bootstrap = bootstrapServer != null ? bootstrapServer : profile.bootstrapServers();
        if (bootstrap == null && workers.isEmpty()) {
            Inputs.plaintextForEmbedded(profile, given::source);
        }
        if (output != null) {
            OutputDirectory.check(output, "--output"); // made by the run, once it starts
        }
        boolean embedded = bootstrap == null && workers.isEmpty();
        boolean existing = partitions == null && !embedded;
        java.util.Map<String, Object> keys = new java.util.LinkedHashMap<>();
        keys.put("name", Workload.nameFor("producer-perf-", topic));
        keys.put("topicNames", List.of(topic));
        if (existing) {
            keys.put("existingTopics", true);
        } else if (partitions != null) {
            keys.put("partitionsPerTopic", partitions);
        }
        keys.put("producersPerTopic", producers);
        keys.put("subscriptionsPerTopic", 0);
        keys.put("producerRate", rate);
        keys.put("numRecords", numRecords);
        if (payload != null) {
            keys.put("payloadFile", payload);
            keys.put("payloadDelimiter", payloadDelimiter);
        } else if (recordSize != null) {
            keys.put("messageSize", recordSize);
        }
        if (payloadMonotonic) {
            keys.put("monotonicPayloads", true);
        }
        if (txMillis > 0) {
            keys.put("transactionMillis", txMillis);
        }
        if (warmup > 0) {
            keys.put("warmupRecords", warmup);
        }
        keys.put("stampMessages", false); // plain records without headers, as the Kafka tool sends them (it has no consumers to stamp for)
        Workload workload = Workload.of("producer-perf", keys);
        String together = local.configCheck().together(profile, workload);
        if (together != null) {
            throw new UserException("--producer-props, --producer.config, --command-config: " + together);
        }
        String tooLarge = local.configCheck().recordProblem(profile, workload);
        if (tooLarge != null) {
            throw new UserException((payloadFile != null ? "--payload-file " + payloadFile : payloadMonotonic
                    ? "--payload-monotonic" : "--record-size " + recordSize) + ": " + tooLarge);
        }
        return Session.runOnce(local, workers, bootstrap,
                connection.securityFor(workers), workload, profile,
                dumps(new RunOptions(output, true, 1_000_000L,
                        spec == null ? List.of() : Provenances.commandLine(spec))),
                new ProducerPerfReporter(System.out, System.err, reportingIntervalMs, warmup, printMetrics));
    }

    private RunOptions dumps(RunOptions o) {
        return printMetrics ? o.withClientMetricsDumps() : o;
    }
}
