package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.files.OutputDirectory;
import io.kbench.coordinator.report.console.ShareConsumerPerfReporter;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.coordinator.run.RunOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kbench share-consumer-perf}: {@code kafka-share-consumer-perf-test}'s flags and output, a share group's read
 * of what an existing topic holds, on kbench's workers (docs/share-groups.md).
 */
@Command(name = "share-consumer-perf", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"kafka-share-consumer-perf-test's flags and output, run by kbench.",
            "",
            "A share group of --threads consumers reads an existing topic: a new group from the beginning of the log "
                + "(the end with --from-latest), a named --group from where it stands. Prints the Kafka tool's header "
                + "and row on stdout (records are deliveries, a redelivered record counting again; fetch.time.ms: from "
                + "the start until the last delivery, joining the group included), kbench's lines on stderr, and "
                + "writes result.json. The run ends once --num-records were delivered, or after --timeout without a "
                + "record. Needs a cluster with share groups (share.version 1 or more; Kafka 4.2 and later)."})
public final class ShareConsumerPerfCommand implements Callable<Integer> {
    /** The share-group config kbench sets on the group before its consumers start. */
    static final String OFFSET_RESET = "share.auto.offset.reset";

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private final LocalEnvironment local;

    @Option(names = {"--bootstrap-server", "--bootstrap-servers"}, paramLabel = "HOST:PORT,...", description = "The Kafka cluster (required).")
    String bootstrapServer;

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The topic to consume from (it must exist).")
    String topic;

    @Option(names = {"--num-records", "--messages"}, required = true, paramLabel = "N", description = "Records to read.")
    long numRecords;

    @Option(names = {"--command-config", "--consumer.config"}, paramLabel = "FILE", description = "Client properties "
            + "file for every client (the share consumers and the admin client that checks the topic and sets the "
            + "group's config): security settings belong here.")
    Path commandConfig;

    @Option(names = "--command-property", arity = "1..*", paramLabel = "PROP=VALUE",
            description = "Share consumer properties; they take precedence over --command-config.")
    List<String> props = new ArrayList<>();

    @Option(names = "--fetch-size", paramLabel = "BYTES", description = "fetch.max.bytes of the share consumers "
            + "(default: 1048576, the tool's, unless --command-config or --command-property sets it).")
    Integer fetchSize;

    /** Kafka's ShareConsumerPerformance fetches at most 1 MB a request unless told otherwise. */
    static final int TOOL_FETCH_SIZE = 1024 * 1024;

    @Option(names = "--socket-buffer-size", paramLabel = "BYTES", description = "receive.buffer.bytes of the share "
            + "consumers (default: 2097152, the tool's, unless --command-config or --command-property sets it).")
    Integer socketBufferSize;

    @Option(names = "--group", paramLabel = "GROUP", description = "The share group (default: a new group of kbench's "
            + "naming, read from the beginning; the tool's default is perf-share-consumer, which a second run "
            + "resumes). A group that has read the topic before goes on from where it stands. kbench sets the "
            + "group's " + OFFSET_RESET + " (earliest, or latest with --from-latest), which decides where it starts "
            + "on a partition it has not read; the setting stays on the group.")
    String group;

    @Option(names = "--from-latest", description = "kbench: the group starts on a partition it has not read at the end "
            + "of the log (" + OFFSET_RESET + "=latest), reading only records written during the run.")
    boolean fromLatest;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Share consumers in the group, spread over the workers (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "10000", description = "The run ends after this "
            + "long without a record (default: ${DEFAULT-VALUE}); the tool's warning is printed if --num-records "
            + "were not delivered.")
    long timeoutMs;

    @Option(names = "--show-consumer-stats", description = "Print a line per share consumer before the group's row "
            + "(records and MB it was delivered).")
    boolean showConsumerStats;

    @Option(names = "--show-detailed-stats", description = "Print a row per reporting interval as well: kbench's rows "
            + "are the whole group's (share consumer 0), the tool's one per consumer.")
    boolean showDetailedStats;

    @Option(names = "--reporting-interval", paramLabel = "INTERVAL-MS", defaultValue = "5000",
            description = "Interval of --show-detailed-stats rows in ms, whole seconds (default: ${DEFAULT-VALUE}).")
    long reportingIntervalMs;

    @Option(names = "--print-metrics", description = "Print each share consumer's client metrics at the end, in the "
            + "Kafka tool's format (one block per consumer).")
    boolean printMetrics;

    @Option(names = "--hide-header", description = "Print no header line.")
    boolean hideHeader;

    @Option(names = "--date-format", paramLabel = "PATTERN", defaultValue = "yyyy-MM-dd HH:mm:ss:SSS",
            description = "Format of start.time and end.time (default: ${DEFAULT-VALUE}).")
    String dateFormat;

    @picocli.CommandLine.Mixin
    WorkerListOptions workerList = new WorkerListOptions();

    /** The workers, resolved from {@link #workerList}; none: in-process workers. */
    private List<String> workers = List.of();

    @picocli.CommandLine.Mixin
    WorkerConnectionOptions connection = new WorkerConnectionOptions();

    @Option(names = "--output", paramLabel = "DIR", description = "kbench: directory for result.json.")
    Path output;

    public ShareConsumerPerfCommand(LocalEnvironment local) {
        this.local = local;
    }

    @Override
    public Integer call() {
        Inputs.topic("--topic", topic);
        if (bootstrapServer == null) {
            // checked here, not by picocli: its message would name the longer spelling, not Kafka's
            throw new UserException("missing --bootstrap-server HOST:PORT,... (the Kafka cluster to read)");
        }
        Inputs.bootstrap("--bootstrap-server", bootstrapServer);
        workers = workerList.resolve(System.err); // stdout carries the Kafka tool's lines
        connection.checkTransport(workers);
        if (group != null && group.isBlank()) {
            throw new UserException("--group cannot be empty");
        }
        if (numRecords < 1 || numRecords > 1_000_000_000_000L) {
            throw new UserException("--num-records must be 1 to 1000000000000, got " + numRecords);
        }
        if (threads < 1 || threads > 10_000) {
            throw new UserException("--threads must be 1 to 10000, got " + threads);
        }
        Inputs.consumerTool(timeoutMs, reportingIntervalMs, fetchSize, socketBufferSize, dateFormat);
        if (printMetrics && threads > io.kbench.coordinator.report.console.MetricsDumpPrinter.MAX_CLIENTS) {
            throw new UserException("--print-metrics prints one block per share consumer: at most "
                    + io.kbench.coordinator.report.console.MetricsDumpPrinter.MAX_CLIENTS + " consumers with it, got " + threads);
        }
        if (output != null) {
            OutputDirectory.check(output, "--output"); // made by the run, once it starts
        }
        ClientOverrides overrides = new ClientOverrides()
                .file(commandConfig, "common", "--command-config")
                .pairs(props, "consumer", "--command-property");
        // the tool's defaults where nothing else sets them, as the tool does (not the client's 50 MB and 64 KB)
        overrides.consumerFlag("fetch.max.bytes", fetchSize, TOOL_FETCH_SIZE, "--fetch-size")
                .consumerFlag("receive.buffer.bytes", socketBufferSize, ConsumerPerfCommand.TOOL_SOCKET_BUFFER,
                        "--socket-buffer-size");
        Profile profile = overrides.applyTo(Profile.defaults(), local.configCheck(),
                        Inputs::note);
        Workload workload = workload(topic, threads, numRecords, fromLatest);
        RunOptions options = new RunOptions(output, true, 1_000_000L,
                spec == null ? List.of() : Provenances.commandLine(spec)).withDrainIdle(timeoutMs * 1000);
        if (group != null) {
            options = options.withConsumerGroup(group);
        }
        if (printMetrics) {
            options = options.withClientMetricsDumps();
        }
        return Session.runOnce(local, workers, bootstrapServer,
                connection.securityFor(workers), workload,
                profile, options, new ShareConsumerPerfReporter(System.out, System.err, !hideHeader, dateFormat,
                        numRecords, timeoutMs, showDetailedStats ? reportingIntervalMs : 0, showConsumerStats,
                        printMetrics));
    }

    /**
     * The workload of a share group of {@code threads} consumers reading {@code records} of an existing topic, from
     * its beginning or (with {@code fromLatest}) its end; built by the workload parser, so checked as a file's keys are.
     */
    static Workload workload(String topic, int threads, long records, boolean fromLatest) {
        Map<String, Object> keys = new java.util.LinkedHashMap<>();
        keys.put("name", Workload.nameFor("share-consumer-perf-", topic));
        keys.put("topicNames", List.of(topic));
        keys.put("existingTopics", true);
        keys.put("producersPerTopic", 0);
        keys.put("subscriptionsPerTopic", 0);
        keys.put("shareGroupsPerTopic", 1);
        keys.put("consumersPerShareGroup", threads);
        keys.put("shareGroupConfig", Map.of(OFFSET_RESET, fromLatest ? "latest" : "earliest"));
        keys.put("numRecords", records);
        keys.put("verification", false);
        return Workload.of("share-consumer-perf", keys);
    }
}
