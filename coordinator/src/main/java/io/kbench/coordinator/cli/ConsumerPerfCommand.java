package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.console.ConsumerPerfReporter;
import io.kbench.coordinator.report.files.OutputDirectory;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.coordinator.run.RunOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kbench consumer-perf}: {@code kafka-consumer-perf-test}'s flags and output, a catch-up read of an
 * existing topic from its beginning by one consumer group, on kbench's workers.
 */
@Command(name = "consumer-perf", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"kafka-consumer-perf-test's flags and output, run by kbench.",
            "",
            "A consumer group (new unless --group names one with committed offsets) reads an existing topic from the beginning (or the end with --from-latest). Prints the Kafka tool's header and row on stdout (rebalance.time.ms: from preparing until all partitions are assigned; fetch.time.ms: the read itself), kbench's lines on stderr, and writes result.json. The run ends once --num-records were read, or after --timeout without a record."})
public final class ConsumerPerfCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private final LocalEnvironment local;

    @Option(names = {"--bootstrap-server", "--bootstrap-servers"}, paramLabel = "HOST:PORT,...",
            description = "The Kafka cluster (required).")
    String bootstrapServer;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The topic to consume from (it must exist); or --include.")
    String topic;

    @Option(names = {"--num-records", "--messages"}, paramLabel = "N", required = true, description = "Messages to read.")
    long numRecords;

    @Option(names = "--consumer.config", paramLabel = "FILE", description = "Consumer properties file.")
    Path config;

    @Option(names = "--command-config", paramLabel = "FILE", description = "Client properties file for every client "
            + "(the consumers and the admin client that checks the topic): security settings belong here.")
    Path commandConfig;

    @Option(names = "--command-property", arity = "1..*", paramLabel = "PROP=VALUE", description = "Consumer properties.")
    List<String> props = new ArrayList<>();

    @Option(names = "--fetch-size", paramLabel = "BYTES", description = "max.partition.fetch.bytes of the consumer.")
    Integer fetchSize;

    @Option(names = "--socket-buffer-size", paramLabel = "BYTES", description = "receive.buffer.bytes of the consumer "
            + "(default: 2097152, the tool's, unless --consumer.config, --command-config or --command-property sets it).")
    Integer socketBufferSize;

    /** Kafka's ConsumerPerformance asks for a 2 MB receive buffer unless told otherwise. */
    static final int TOOL_SOCKET_BUFFER = 2 * 1024 * 1024;

    @Option(names = "--hide-header", description = "Print only the row.")
    boolean hideHeader;

    @Option(names = "--date-format", paramLabel = "FORMAT", defaultValue = "yyyy-MM-dd HH:mm:ss:SSS",
            description = "Format of start.time and end.time (default: ${DEFAULT-VALUE}).")
    String dateFormat;

    @Option(names = "--group", paramLabel = "GROUP", description = "The consumer group (default: a new group of "
            + "kbench's naming). A group with committed offsets resumes from them, as in the Kafka tool.")
    String group;

    @Option(names = "--from-latest", description = "A partition without a committed offset starts at the end of its "
            + "log, not the beginning (auto.offset.reset=latest).")
    boolean fromLatest;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "10000", description = "The run ends after this "
            + "long without a record (default: ${DEFAULT-VALUE}); the tool's warning is printed if --num-records "
            + "were not read.")
    long timeoutMs;

    @Option(names = "--show-detailed-stats", description = "Print a row per reporting interval (time, threadId, ...) "
            + "instead of the one total row.")
    boolean showDetailedStats;

    @Option(names = "--reporting-interval", paramLabel = "INTERVAL-MS", defaultValue = "5000",
            description = "Interval of --show-detailed-stats rows in ms, whole seconds (default: ${DEFAULT-VALUE}).")
    long reportingIntervalMs;

    @Option(names = "--print-metrics", description = "Print each consumer's client metrics at the end, in the Kafka "
            + "tool's format (one block per consumer).")
    boolean printMetrics;

    @Option(names = "--include", paramLabel = "REGEX", description = "Read every topic whose whole name the Java "
            + "regex matches, as a worker lists them when the run starts (internal topics left out); "
            + "--num-records counts all of them. kbench gives each topic --consumers consumers of its own (the "
            + "tool: one consumer over all), in one group with --group.")
    String include;

    @Option(names = "--consumers", paramLabel = "N", defaultValue = "1",
            description = "kbench: consumers in the group (default: ${DEFAULT-VALUE}).")
    int consumers;

    @picocli.CommandLine.Mixin
    WorkerListOptions workerList = new WorkerListOptions();

    /** The workers, resolved from {@link #workerList}; none: in-process workers. */
    private List<String> workers = List.of();

    @picocli.CommandLine.Mixin
    WorkerConnectionOptions connection = new WorkerConnectionOptions();

    @Option(names = "--output", paramLabel = "DIR", description = "kbench: directory for result.json.")
    Path output;

    /** Longest --include regex: what a worker takes (PrepareRequests' ListTopics limit). */
    static final int MAX_INCLUDE = 10_000;

    public ConsumerPerfCommand(LocalEnvironment local) {
        this.local = local;
    }

    @Override
    public Integer call() {
        if ((topic == null) == (include == null)) {
            throw new UserException("give exactly one of --topic or --include");
        }
        if (include != null && include.isEmpty()) {
            throw new UserException("--include cannot be empty: give a regex of topic names (e.g. 'orders-.*')");
        }
        if (include != null && include.length() > MAX_INCLUDE) {
            throw new UserException("--include is " + include.length() + " characters long; at most " + MAX_INCLUDE
                    + " (a worker matches it against every topic name)");
        }
        if (include != null) {
            try {
                java.util.regex.Pattern.compile(include); // checked here, before anything starts; a worker matches it
            } catch (java.util.regex.PatternSyntaxException e) {
                throw new UserException("--include '" + include + "' is not a Java regex: "
                        + e.getDescription() + " near index " + e.getIndex());
            }
        }
        if (group != null && group.isBlank()) {
            throw new UserException("--group cannot be empty");
        }
        Inputs.consumerTool(timeoutMs, reportingIntervalMs, fetchSize, socketBufferSize, dateFormat);
        if (topic != null) {
            Inputs.topic("--topic", topic);
        }
        if (bootstrapServer == null) {
            // checked here, not by picocli: its message would name the longer spelling, not Kafka's
            throw new UserException("missing --bootstrap-server HOST:PORT,... (the Kafka cluster to read)");
        }
        Inputs.bootstrap("--bootstrap-server", bootstrapServer);
        workers = workerList.resolve(System.err); // stdout carries the Kafka tool's lines
        connection.checkTransport(workers);
        if (numRecords < 1 || numRecords > 1_000_000_000_000L) {
            throw new UserException("--num-records must be 1 to 1000000000000, got " + numRecords);
        }
        if (consumers < 1 || consumers > 10_000) {
            throw new UserException("--consumers must be 1 to 10000, got " + consumers);
        }
        if (output != null) {
            OutputDirectory.check(output, "--output"); // made by the run, once it starts
        }
        ClientOverrides overrides = new ClientOverrides()
                .file(commandConfig, "common", "--command-config")
                .file(config, "consumer", "--consumer.config")
                .pairs(props, "consumer", "--command-property");
        if (fetchSize != null) {
            overrides.put("consumer.max.partition.fetch.bytes", fetchSize.toString(), "--fetch-size");
        }
        // the tool's default, not the client's 64 KB (which stalls fetches on loopback: docs/metrics.md)
        overrides.consumerFlag("receive.buffer.bytes", socketBufferSize, TOOL_SOCKET_BUFFER, "--socket-buffer-size");
        if (fromLatest) {
            overrides.put("consumer.auto.offset.reset", "latest", "--from-latest");
        }
        Profile profile = overrides.applyTo(Profile.defaults(), local.configCheck(),
                        Inputs::note);
        String together = local.configCheck().together(profile, workload("check", List.of("t"), 1, 1));
        if (together != null) {
            throw new UserException("--consumer.config, --command-property, --command-config: " + together);
        }
        ConsumerPerfReporter reporter = new ConsumerPerfReporter(System.out, System.err, !hideHeader, dateFormat,
                numRecords, timeoutMs, showDetailedStats ? reportingIntervalMs : 0, printMetrics);
        try (Session session = new Session(local, workers, bootstrapServer, 1,
                connection.securityFor(workers), 1, System.err)) {
            List<String> topics = topic != null ? List.of(topic) : matching(session, profile);
            if (printMetrics && (long) topics.size() * consumers > io.kbench.coordinator.report.console.MetricsDumpPrinter.MAX_CLIENTS) {
                throw new UserException("--print-metrics prints one block per consumer: at most "
                        + io.kbench.coordinator.report.console.MetricsDumpPrinter.MAX_CLIENTS + " consumers with it, got "
                        + (long) topics.size() * consumers);
            }
            Workload workload = workload(Workload.nameFor("consumer-perf-", topic != null ? topic : "include"), topics, consumers,
                    numRecords);
            RunOptions runOptions = options(new RunOptions(output, true, 1_000_000L,
                    spec == null ? List.of() : Provenances.commandLine(spec)));
            return session.run(session.controller(workload, profile, runOptions, reporter)).completed() ? 0 : 1;
        }
    }

    /**
     * The workload of a read of existing {@code topics}: {@code consumers} consumers of one group per topic,
     * {@code records} in all; built by the workload parser, so checked as a file's keys are.
     */
    static Workload workload(String name, List<String> topics, int consumers, long records) {
        java.util.Map<String, Object> keys = new java.util.LinkedHashMap<>();
        keys.put("name", name);
        keys.put("topicNames", topics);
        keys.put("existingTopics", true);
        keys.put("producersPerTopic", 0);
        keys.put("subscriptionsPerTopic", 1);
        keys.put("consumersPerSubscription", consumers);
        keys.put("numRecords", records);
        return Workload.of("consumer-perf", keys);
    }

    /**
     * The topics --include names, listed by a worker (which reaches the brokers; this host may not) with the
     * profile's client settings; at most as many as there can be consumers for them.
     */
    private List<String> matching(Session session, Profile profile) {
        int most = (int) (Workload.MAX_CONSUMERS / consumers); // at most 100,000: what the worker sends at most
        io.kbench.coordinator.rpc.WorkerClient.TopicList found = session.topics(profile, include, Math.max(1, most));
        if (found.matched() == 0) {
            throw new UserException("--include '" + include + "' matches no topic of " + bootstrapServer);
        }
        if ((long) found.matched() * consumers > Workload.MAX_CONSUMERS) {
            throw new UserException(String.format("--include '%s' matches %,d topics: with --consumers %d that is more "
                    + "than %,d consumers", include, found.matched(), consumers, Workload.MAX_CONSUMERS));
        }
        List<String> topics = found.names();
        System.err.println("--include '" + include + "' matches " + topics.size() + " topic(s): "
                + String.join(", ", topics.subList(0, Math.min(20, topics.size()))) + (topics.size() > 20 ? " ..." : ""));
        return topics;
    }

    private RunOptions options(RunOptions o) {
        // positioned as the tool's consumer is: the group's committed offsets, else auto.offset.reset (earliest,
        // or latest with --from-latest)
        RunOptions out = o.withDrainIdle(timeoutMs * 1000).withConsumersFromCommitted();
        if (group != null) {
            out = out.withConsumerGroup(group);
        }
        return printMetrics ? out.withClientMetricsDumps() : out;
    }
}
