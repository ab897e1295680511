package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.console.E2eLatencyReporter;
import io.kbench.coordinator.report.files.OutputDirectory;
import io.kbench.coordinator.rpc.ClientSecurity;
import io.kbench.coordinator.run.RunOptions;
import io.kbench.coordinator.workload.KeysAndHeaders;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kbench e2e-latency}: Kafka's EndToEndLatency (4.3.1) — its arguments, positional or named, and its output
 * lines — run on a kbench worker as a closed-loop workload ({@code roundTrip: true}): one producer and one consumer on
 * one worker, one message in flight, each round trip timed by the worker into the run's end-to-end histogram at
 * microsecond resolution (the tool keeps whole milliseconds), merged and reported like every run's figures, with
 * result.json and report.html under results/ (or {@code --output}).
 */
@Command(name = "e2e-latency", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Kafka's EndToEndLatency, measured at microsecond resolution.",
            "",
            "kbench e2e-latency BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE [PROPERTIES_FILE], or the same with the named options of Kafka 4.2+. One producer and one consumer run on one worker (an in-process one unless --workers is given): the producer sends one record at a time (acks 1 or all, linger.ms=0) and sends the next once the consumer (at the end of every partition, fetch.max.wait.ms=0) has read it back and its send was acknowledged; the time from send to receipt is one sample. A missing topic is created with 1 partition and the profile's replication factor (1), as the tool does. Without BROKERS or --bootstrap-server, an embedded broker is used.",
            "",
            "stdout: the tool's lines ('0<TAB>ms' every 1000 records, 'Avg latency: X ms', 'Percentiles: 50th = A, 99th = B, 99.9th = C' in whole ms). stderr: kbench's own lines, the same figures in µs with p99.99 and max, the send -> ack latency, and the percentile distribution in ms. result.json and report.html go under results/ (or --output DIR)."})
public final class E2eLatencyCommand implements Callable<Integer> {
    static final int MAX_RECORDS = 100_000_000;
    static final int MAX_SIZE = 100 * 1024 * 1024;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private final LocalEnvironment local;

    @Parameters(arity = "0..*", paramLabel = "ARG",
            description = "BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE [PROPERTIES_FILE] (the tool's positional form).")
    List<String> positional = new ArrayList<>();

    @Option(names = {"--bootstrap-server", "--bootstrap-servers"}, paramLabel = "HOST:PORT[,...]",
            description = "The Kafka cluster (without it and --workers: an embedded broker).")
    String bootstrapServer;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The topic (created with 1 partition if missing).")
    String topic;

    @Option(names = "--num-records", paramLabel = "N", description = "Records to send, one at a time.")
    Integer numRecords;

    @Option(names = "--producer-acks", paramLabel = "1|all", description = "Producer acks: 1 or all.")
    String acks;

    @Option(names = "--record-size", paramLabel = "BYTES", description = "Value size in bytes (0 or more).")
    Integer recordSize;

    @Option(names = "--command-config", paramLabel = "FILE", description = "Properties for the producer, consumer and admin client.")
    Path commandConfig;

    @Option(names = "--record-key-size", paramLabel = "BYTES", defaultValue = "0",
            description = "Key size in bytes; 0 sends no key (default: ${DEFAULT-VALUE}).")
    int keySize;

    @Option(names = "--num-headers", paramLabel = "N", defaultValue = "0", description = "Headers per record (default: ${DEFAULT-VALUE}).")
    int numHeaders;

    @Option(names = "--record-header-key-size", paramLabel = "BYTES", defaultValue = "0",
            description = "Header key size (default: ${DEFAULT-VALUE}).")
    int headerKeySize;

    @Option(names = "--record-header-size", paramLabel = "BYTES", defaultValue = "0",
            description = "Header value size; -1 for a null value (default: ${DEFAULT-VALUE}).")
    int headerValueSize;

    @picocli.CommandLine.Mixin
    WorkerListOptions workerList = new WorkerListOptions();

    @picocli.CommandLine.Mixin
    WorkerConnectionOptions connection = new WorkerConnectionOptions();

    @Option(names = "--output", paramLabel = "DIR", description = "kbench: directory for result.json and report.html "
            + "(default: results/e2e-latency-TOPIC-<run id>/).")
    Path output;

    public E2eLatencyCommand(LocalEnvironment local) {
        this.local = local;
    }

    /** What to run, validated; {@code brokers} null for the embedded broker. */
    record Args(String brokers, String topic, int records, String acks, int size, Path config, KeysAndHeaders extras) { }

    Args args() {
        boolean named = bootstrapServer != null || topic != null || numRecords != null || acks != null || recordSize != null
                || commandConfig != null;
        String brokers = bootstrapServer;
        String t = topic;
        String a = acks;
        long n;
        long size;
        Path config = commandConfig;
        if (!positional.isEmpty()) {
            if (named) {
                throw new UserException("give the arguments either as BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE "
                        + "[PROPERTIES_FILE] or as named options (--bootstrap-server ...), not both");
            }
            if (positional.size() > 6) {
                throw new UserException("expected at most 6 arguments (BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE "
                        + "[PROPERTIES_FILE]), got " + positional.size());
            }
            if (positional.size() < 5) {
                throw new UserException("expected 5 or 6 arguments (BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE "
                        + "[PROPERTIES_FILE]), got " + positional.size());
            }
            brokers = positional.get(0);
            t = positional.get(1);
            n = number("NUM_MESSAGES", positional.get(2));
            a = positional.get(3);
            size = number("MESSAGE_SIZE", positional.get(4));
            config = positional.size() == 6 ? Path.of(positional.get(5)) : null;
        } else {
            List<String> missing = new ArrayList<>();
            if (topic == null) {
                missing.add("--topic");
            }
            if (numRecords == null) {
                missing.add("--num-records");
            }
            if (acks == null) {
                missing.add("--producer-acks");
            }
            if (recordSize == null) {
                missing.add("--record-size");
            }
            if (!missing.isEmpty()) {
                throw new UserException("missing " + String.join(", ", missing) + " (or give BROKERS TOPIC NUM_MESSAGES "
                        + "ACKS MESSAGE_SIZE [PROPERTIES_FILE])");
            }
            n = numRecords;
            size = recordSize;
        }
        Inputs.bootstrap("the bootstrap servers", brokers);
        Inputs.topic("the topic", t);
        if (!a.equals("1") && !a.equals("all")) {
            throw new UserException("producer acks must be 1 or all (latency is measured with synchronous "
                    + "acknowledgement), got '" + a + "'");
        }
        if (n < 1 || n > MAX_RECORDS) {
            throw new UserException("the number of records must be 1 to " + MAX_RECORDS + ", got " + n);
        }
        if (size < 0 || size > MAX_SIZE) {
            throw new UserException("the record size must be 0 to " + MAX_SIZE + " bytes, got " + size);
        }
        if (keySize < 0 || keySize > KeysAndHeaders.MAX_KEY_SIZE || headerKeySize < 0 || headerKeySize > 32_767
                || numHeaders < 0 || numHeaders > 10_000 || headerValueSize < -1 || headerValueSize > KeysAndHeaders.MAX_HEADER_BYTES
                || (long) numHeaders * (headerKeySize + Math.max(0, headerValueSize)) > KeysAndHeaders.MAX_HEADER_BYTES) {
            throw new UserException("--record-key-size must be 0 to " + KeysAndHeaders.MAX_KEY_SIZE + ", --num-headers 0 to "
                    + "10000, --record-header-key-size 0 to 32767 and --record-header-size -1 to "
                    + KeysAndHeaders.MAX_HEADER_BYTES + ", with at most " + KeysAndHeaders.MAX_HEADER_BYTES
                    + " bytes of headers per record");
        }
        return new Args(brokers, t, (int) n, a, (int) size, config, new KeysAndHeaders(keySize, numHeaders,
                numHeaders == 0 ? 0 : headerKeySize, numHeaders == 0 ? 0 : headerValueSize));
    }

    private static long number(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new UserException(name + " must be a whole number, got '" + value + "'");
        }
    }

    @Override
    public Integer call() {
        Args a = args();
        List<String> workers = workerList.resolve(System.err); // stdout carries the Kafka tool's lines
        connection.checkTransport(workers);
        if (output != null) {
            OutputDirectory.check(output, "--output"); // made by the run, once it starts
        }
        // the properties file is every client's (as the tool gives it to its producer, consumer and admin client);
        // what makes the loop the tool's comes after it and wins
        ClientOverrides given = new ClientOverrides()
                .file(a.config(), "common", "properties file")
                .put("producer.acks", a.acks(), "ACKS")
                .put("producer.linger.ms", "0", "e2e-latency")
                .put("consumer.fetch.max.wait.ms", "0", "e2e-latency");
        Profile profile = given.applyTo(Profile.defaults(), local.configCheck(), Inputs::note);
        if (a.brokers() == null && workers.isEmpty()) {
            Inputs.plaintextForEmbedded(profile, given::source);
        }
        String together = local.configCheck().together(profile, workload(a, true));
        if (together != null) {
            throw new UserException("acks " + a.acks() + " with " + (a.config() != null ? a.config() + "'s settings"
                    : "the clients' defaults") + ": " + together);
        }
        String tooLarge = local.configCheck().recordProblem(profile, workload(a, true));
        if (tooLarge != null) {
            throw new UserException("message size " + a.size() + ": " + tooLarge);
        }
        try (Session session = new Session(local, workers, a.brokers(), 1,
                connection.securityFor(workers), 1, System.err)) {
            boolean exists = session.topics(profile, Pattern.quote(a.topic()), 1).names().contains(a.topic());
            if (!exists) {
                System.out.printf("Topic \"%s\" does not exist. Will create topic with %d partition(s) and replication "
                        + "factor = %d%n", a.topic(), 1, profile.replicationFactor());
            }
            Workload workload = workload(a, exists);
            RunOptions options = new RunOptions(output, true, 1_000_000L,
                    spec == null ? List.of() : Provenances.commandLine(spec));
            E2eLatencyReporter reporter = new E2eLatencyReporter(System.out, System.err);
            return session.run(session.controller(workload, profile, options, reporter)).completed() ? 0 : 1;
        }
    }

    /**
     * The closed loop of {@code a}: one producer and one consumer of the topic, {@code roundTrip}; on the topic as it
     * is when it {@code exists}, else on one created with 1 partition. Built by the workload parser.
     */
    static Workload workload(Args a, boolean exists) {
        Map<String, Object> keys = new java.util.LinkedHashMap<>();
        keys.put("name", Workload.nameFor("e2e-latency-", a.topic()));
        keys.put("topicNames", List.of(a.topic()));
        if (exists) {
            keys.put("existingTopics", true);
        } else {
            keys.put("partitionsPerTopic", 1);
        }
        keys.put("producersPerTopic", 1);
        keys.put("subscriptionsPerTopic", 1);
        keys.put("consumersPerSubscription", 1);
        keys.put("numRecords", a.records());
        keys.put("messageSize", a.size());
        keys.put("roundTrip", true);
        if (a.extras().keySize() > 0) {
            keys.put("keySize", a.extras().keySize());
        }
        if (a.extras().headersPerMessage() > 0) {
            keys.put("headersPerMessage", a.extras().headersPerMessage());
            keys.put("headerKeySize", a.extras().headerKeySize());
            keys.put("headerValueSize", a.extras().headerValueSize());
        }
        return Workload.of("e2e-latency", keys);
    }
}
