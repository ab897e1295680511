package io.kbench.worker.rpc;

import java.util.ArrayList;
import java.util.List;

import com.google.protobuf.ByteString;
import io.kbench.driver.DriverConfig;
import io.kbench.driver.TopicSpec;
import io.kbench.protocol.rpc.ConsumerAssignment;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.ProducerAssignment;
import io.kbench.worker.Keys;
import io.kbench.worker.RunSpec;
import io.kbench.worker.WorkerException;

/**
 * A Prepare request as the run it asks for: {@link #toSpec} checks every field a coordinator sets and builds the
 * {@link RunSpec}; {@link #digest} fingerprints the request, so a repeated Prepare is told from a different one
 * under the same run id. {@link WorkerService} only maps messages and calls.
 */
final class PrepareRequests {
    /** Largest generated value a worker builds (the workload's own limit). */
    static final int MAX_MESSAGE_SIZE = 100 * 1024 * 1024;
    /** Most payload values a worker accepts (the payload file's own limit). */
    static final int MAX_PAYLOAD_VALUES = 1_000_000;

    private PrepareRequests() { }

    /**
     * The run {@code r} asks for, every field checked: a request no coordinator of this protocol sends (an empty
     * run id, sizes and counts out of range, a broker source that is neither "local", HOST:PORT nor an http(s) URL)
     * is refused as INVALID, naming the field, never a credential.
     *
     * @param coordinator the caller's address, kept with the run
     */
    static RunSpec toSpec(PrepareRequest r, String coordinator) {
        if (r.getRunId().isEmpty()) {
            throw new WorkerException(WorkerException.Kind.INVALID, "run_id is empty");
        }
        if (r.getPayloads().getMonotonicProducers() < 0 || r.getPayloads().getMonotonicProducers() > 0
                && r.getPayloads().getMonotonicProducers() <= r.getProducersList().stream()
                        .mapToInt(ProducerAssignment::getProducerIndex).max().orElse(-1)) {
            throw new WorkerException(WorkerException.Kind.INVALID, "payloads.monotonic_producers must be 0 or more "
                    + "than every producer index, got " + r.getPayloads().getMonotonicProducers());
        }
        if (r.getMessageSize() < 0 || r.getIntervalMicros() < 1000) {
            throw new WorkerException(WorkerException.Kind.INVALID,
                    "message_size must be >= 0 (0: empty values) and interval_micros >= 1000");
        }
        if (r.getMessageSize() > MAX_MESSAGE_SIZE || r.getPayloads().getValuesCount() > MAX_PAYLOAD_VALUES) {
            throw new WorkerException(WorkerException.Kind.INVALID, "message_size must be at most " + MAX_MESSAGE_SIZE
                    + " bytes and payload values at most " + MAX_PAYLOAD_VALUES);
        }
        double ratio = r.getPayloads().getRandomBytesRatio();
        if (ratio < 0 || ratio > 1) {
            throw new WorkerException(WorkerException.Kind.INVALID, "random_bytes_ratio must be 0..1, got " + ratio);
        }
        Keys.Distribution keys = switch (r.getKeys().getDistribution()) {
            case KEY_ROUND_ROBIN -> Keys.Distribution.ROUND_ROBIN;
            case KEY_RANDOM -> Keys.Distribution.RANDOM;
            case KEY_ZIPF -> Keys.Distribution.ZIPF;
            default -> Keys.Distribution.NONE;
        };
        if (keys != Keys.Distribution.NONE && r.getKeys().getCount() < 1
                || keys == Keys.Distribution.ZIPF && !(r.getKeys().getZipfExponent() > 0)) {
            throw new WorkerException(WorkerException.Kind.INVALID, "keys: count must be >= 1 and zipf_exponent > 0");
        }
        int keySize = r.getKeys().getSize();
        if (keySize < 0 || keySize > MAX_KEY_SIZE || keySize > 0 && keys != Keys.Distribution.NONE) {
            throw new WorkerException(WorkerException.Kind.INVALID, "keys: size must be 0 to " + MAX_KEY_SIZE
                    + " bytes, and 0 with a distribution, got " + keySize);
        }
        io.kbench.protocol.rpc.HeaderSpec h = r.getHeaders();
        if (h.getCount() < 0 || h.getCount() > MAX_HEADERS || h.getKeySize() < 0 || h.getKeySize() > MAX_HEADER_KEY_SIZE
                || h.getValueSize() < -1
                || (long) h.getCount() * (h.getKeySize() + Math.max(0, h.getValueSize())) > MAX_HEADER_BYTES) {
            throw new WorkerException(WorkerException.Kind.INVALID, "headers: count must be 0 to " + MAX_HEADERS
                    + ", key_size 0 to " + MAX_HEADER_KEY_SIZE + ", value_size -1 or more, and all of them together at "
                    + "most " + MAX_HEADER_BYTES + " bytes");
        }
        List<byte[]> payloads = new ArrayList<>();
        for (ByteString v : r.getPayloads().getValuesList()) {
            payloads.add(v.toByteArray());
        }
        List<TopicSpec> topics = new ArrayList<>();
        for (io.kbench.protocol.rpc.TopicSpec t : r.getCreateTopicsList()) {
            topics.add(new TopicSpec(t.getName(), t.getPartitions(), t.getReplicationFactor(), t.getConfigMap()));
        }
        List<RunSpec.Producer> producers = new ArrayList<>();
        for (ProducerAssignment p : r.getProducersList()) {
            if (p.getRatePerSecond() == 0 || p.getRatePerSecond() < -1) {
                throw new WorkerException(WorkerException.Kind.INVALID,
                        "producer " + p.getProducerIndex() + ": rate must be -1 or >= 1, got " + p.getRatePerSecond());
            }
            if (p.getRecordLimit() < 0) {
                throw new WorkerException(WorkerException.Kind.INVALID,
                        "producer " + p.getProducerIndex() + ": record_limit must be >= 0, got " + p.getRecordLimit());
            }
            producers.add(new RunSpec.Producer(p.getProducerIndex(), p.getTopic(), p.getRatePerSecond(),
                    p.getRecordLimit()));
        }
        List<RunSpec.Consumer> consumers = new ArrayList<>();
        for (ConsumerAssignment c : r.getConsumersList()) {
            consumers.add(new RunSpec.Consumer(c.getConsumerIndex(), c.getTopic(), c.getGroup(), c.getShare()));
        }
        RunSpec.Share share = RunSpec.Share.NONE;
        if (r.hasShare()) {
            io.kbench.protocol.rpc.ShareSettings s = r.getShare();
            if (s.getReleasePpm() < 0 || s.getRejectPpm() < 0 || (long) s.getReleasePpm() + s.getRejectPpm() > 1_000_000) {
                throw new WorkerException(WorkerException.Kind.INVALID, "share settings out of range: release "
                        + s.getReleasePpm() + " and reject " + s.getRejectPpm() + " ppm (0 to 1,000,000 together)");
            }
            if (s.getBacklogGroupsCount() > MAX_BACKLOG_GROUPS) {
                throw new WorkerException(WorkerException.Kind.INVALID, "backlog_groups: at most " + MAX_BACKLOG_GROUPS
                        + " share groups, got " + s.getBacklogGroupsCount());
            }
            share = new RunSpec.Share(s.getExplicit(), s.getReleasePpm(), s.getRejectPpm(), s.getGroupConfigsMap(),
                    s.getBacklogGroupsMap(), s.getCommitSync());
        }
        if (r.getConsumerProcessingMicros() < 0 || r.getConsumerProcessingMicros() > MAX_PROCESSING_MICROS) {
            throw new WorkerException(WorkerException.Kind.INVALID, "consumer_processing_micros must be 0 to "
                    + MAX_PROCESSING_MICROS + ", got " + r.getConsumerProcessingMicros());
        }
        DriverConfig driver = driverConfig(r.getDriver());
        String name = driverName(r.getDriver());
        if (r.getVerification() && r.getNoStamp()) {
            throw new WorkerException(WorkerException.Kind.INVALID, "verification needs stamped messages (no_stamp is set)");
        }
        if (r.getWorkload().length() > 200) {
            throw new WorkerException(WorkerException.Kind.INVALID, "workload name longer than 200 characters");
        }
        if (r.getBrokerSourcesCount() > MAX_BROKER_SOURCES) {
            throw new WorkerException(WorkerException.Kind.INVALID, "at most " + MAX_BROKER_SOURCES
                    + " broker sources, got " + r.getBrokerSourcesCount());
        }
        for (String source : r.getBrokerSourcesList()) {
            boolean url = source.matches("https?://[^\\s]{1,2000}");
            if (!source.equals("local") && !source.matches("local:[1-9]") && !url && !source.matches(
                    "(jmx\\+tls://)?([^@\\s/]{1,2000}@)?([A-Za-z0-9.\\-]{1,253}:[0-9]{1,5}|\\[[0-9A-Fa-f:.]{2,45}\\]:[0-9]{1,5})")) {
                String shown = source.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@", "$1")
                        .replaceFirst("^[^@\\s/]*@", ""); // no credentials
                throw new WorkerException(WorkerException.Kind.INVALID, "broker source must be \"local\", \"local:N\" (N 1 to 9), "
                        + "HOST:PORT or an http(s) URL, got \"" + (shown.length() > 100 ? shown.substring(0, 100) + "..." : shown) + "\"");
            }
        }
        RunSpec.Values values = new RunSpec.Values(r.getMessageSize(), payloads, ratio,
                r.getPayloads().getMonotonicProducers(), new RunSpec.Headers(h.getCount(), h.getKeySize(), h.getValueSize()));
        RunSpec.ConsumerStart start = new RunSpec.ConsumerStart(
                r.getConsumerStart() == io.kbench.protocol.rpc.ConsumerStart.CONSUMER_START_BEGINNING, r.getHoldConsumers(),
                r.getConsumerStart() == io.kbench.protocol.rpc.ConsumerStart.CONSUMER_START_COMMITTED);
        RunSpec.ConsumerWork work = new RunSpec.ConsumerWork(r.getConsumerProcessingMicros(),
                switch (r.getConsumerProcessingDistribution()) {
                    case PROCESSING_UNIFORM -> io.kbench.worker.Processing.Distribution.UNIFORM;
                    case PROCESSING_EXPONENTIAL -> io.kbench.worker.Processing.Distribution.EXPONENTIAL;
                    default -> io.kbench.worker.Processing.Distribution.FIXED;
                });
        boolean idle = producers.isEmpty() && consumers.isEmpty(); // another worker runs the loop
        if (r.getRoundTrip() && !idle && (producers.size() != 1 || consumers.size() != 1 || consumers.get(0).share()
                || !producers.get(0).topic().equals(consumers.get(0).topic()))) {
            throw new WorkerException(WorkerException.Kind.INVALID, "round_trip needs one producer and one classic "
                    + "consumer of the same topic on this worker (or neither), got " + producers.size() + " producer(s) and "
                    + consumers.size() + " consumer(s)");
        }
        return new RunSpec(r.getRunId(), coordinator, r.getWorkload(), r.getClockOffsetMicros(), name, driver, topics,
                r.getExistingTopicsList(), producers, consumers, r.getIntervalMicros(), values,
                new RunSpec.KeyChoice(keys, r.getKeys().getCount(), r.getKeys().getZipfExponent(), keySize), start,
                new RunSpec.Transactions(r.getTransactionRecords(), r.getTransactionMillis()), r.getVerification(),
                !r.getNoStamp(), digest(r), r.getDumpClientMetrics(), r.getBrokerSourcesList(), share, work,
                r.getRoundTrip());
    }

    /** Most share groups one worker reads the backlog of (a run's most groups). */
    static final int MAX_BACKLOG_GROUPS = 100_000;
    /** Longest processing time per message a consumer takes (one minute). */
    static final long MAX_PROCESSING_MICROS = 60_000_000L;

    /** Largest key of sized keys (KeySpec.size), and most headers per message and bytes in them (HeaderSpec). */
    static final int MAX_KEY_SIZE = 1024 * 1024;
    static final int MAX_HEADERS = 10_000;
    static final int MAX_HEADER_KEY_SIZE = 32_767;
    static final int MAX_HEADER_BYTES = 1024 * 1024;

    /** Most broker sources one worker reads. */
    static final int MAX_BROKER_SOURCES = 100;

    /** SHA-256 of the request's deterministic encoding (map entries in key order), hex. */
    static String digest(PrepareRequest r) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(r.getSerializedSize());
            com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(bytes);
            out.useDeterministicSerialization();
            r.writeTo(out);
            out.flush();
            return java.util.HexFormat.of().formatHex(sha.digest(bytes.toByteArray()));
        } catch (java.security.NoSuchAlgorithmException | java.io.IOException e) {
            throw new IllegalStateException("cannot fingerprint the prepare request", e);
        }
    }

    private static DriverConfig driverConfig(io.kbench.protocol.rpc.DriverConfig d) {
        return new DriverConfig(d.getCommonMap(), d.getProducerMap(), d.getConsumerMap(), d.getAdminMap());
    }

    private static String driverName(io.kbench.protocol.rpc.DriverConfig d) {
        return d.getName().isEmpty() ? "kafka" : d.getName();
    }

    /** Most names one {@code ListTopics} answer carries. */
    static final int MAX_LISTED_TOPICS = 100_000;

    /** A {@code ListTopics} request, checked: the driver and its settings, the compiled regex, the most names to send. */
    record TopicQuery(String driverName, DriverConfig config, java.util.regex.Pattern regex, int limit) { }

    /** Checks and maps a {@code ListTopics} request. */
    static TopicQuery topicQuery(io.kbench.protocol.rpc.ListTopicsRequest r) {
        if (r.getLimit() < 1 || r.getLimit() > MAX_LISTED_TOPICS) {
            throw new WorkerException(WorkerException.Kind.INVALID, "limit must be 1 to " + MAX_LISTED_TOPICS + ", got "
                    + r.getLimit());
        }
        if (r.getRegex().isEmpty() || r.getRegex().length() > 10_000) {
            throw new WorkerException(WorkerException.Kind.INVALID, "regex must be 1 to 10000 characters, got "
                    + r.getRegex().length());
        }
        java.util.regex.Pattern regex;
        try {
            regex = java.util.regex.Pattern.compile(r.getRegex());
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new WorkerException(WorkerException.Kind.INVALID, "regex is not a Java regular expression: "
                    + e.getDescription());
        }
        if (!r.getDriver().getCommonMap().containsKey("bootstrap.servers")) {
            throw new WorkerException(WorkerException.Kind.INVALID, "no bootstrap.servers given");
        }
        return new TopicQuery(driverName(r.getDriver()), driverConfig(r.getDriver()), regex, r.getLimit());
    }

    /** A checked {@code AlterBrokerConfigs} request. */
    record BrokerConfigChange(String driverName, DriverConfig config, java.util.Map<String, String> set,
                              List<String> delete, boolean validateOnly, java.time.Duration timeout) { }

    /** Most configs one {@code AlterBrokerConfigs} sets or removes, and the longest value. */
    static final int MAX_BROKER_CONFIGS = 100;
    static final int MAX_CONFIG_VALUE = 10_000;
    private static final java.util.regex.Pattern CONFIG_NAME = java.util.regex.Pattern.compile("[a-z0-9._-]{1,249}");

    /** Checks and maps an {@code AlterBrokerConfigs} request. */
    static BrokerConfigChange brokerConfigChange(io.kbench.protocol.rpc.AlterBrokerConfigsRequest r) {
        if (r.getSetCount() + r.getDeleteCount() == 0 || r.getSetCount() > MAX_BROKER_CONFIGS
                || r.getDeleteCount() > MAX_BROKER_CONFIGS) {
            throw new WorkerException(WorkerException.Kind.INVALID, "set and delete must name 1 to " + MAX_BROKER_CONFIGS
                    + " configs each, got " + r.getSetCount() + " and " + r.getDeleteCount());
        }
        List<String> names = new ArrayList<>(r.getSetMap().keySet());
        names.addAll(r.getDeleteList());
        for (String n : names) {
            if (!CONFIG_NAME.matcher(n).matches()) {
                throw new WorkerException(WorkerException.Kind.INVALID, "a broker config name is 1 to 249 of a-z 0-9 . _ -, "
                        + "got '" + (n.length() > 100 ? n.substring(0, 100) + "..." : n) + "'");
            }
        }
        if (new java.util.HashSet<>(names).size() != names.size()) {
            throw new WorkerException(WorkerException.Kind.INVALID, "a broker config is named twice");
        }
        if (r.getSetMap().values().stream().anyMatch(v -> v.length() > MAX_CONFIG_VALUE)) {
            throw new WorkerException(WorkerException.Kind.INVALID, "a broker config value is longer than "
                    + MAX_CONFIG_VALUE + " characters");
        }
        if (r.getTimeoutMillis() < 1_000 || r.getTimeoutMillis() > 300_000) {
            throw new WorkerException(WorkerException.Kind.INVALID, "timeout_millis must be 1000 to 300000, got "
                    + r.getTimeoutMillis());
        }
        if (!r.getDriver().getCommonMap().containsKey("bootstrap.servers")) {
            throw new WorkerException(WorkerException.Kind.INVALID, "no bootstrap.servers given");
        }
        return new BrokerConfigChange(driverName(r.getDriver()), driverConfig(r.getDriver()), r.getSetMap(),
                r.getDeleteList(), r.getValidateOnly(), java.time.Duration.ofMillis(r.getTimeoutMillis()));
    }
}
