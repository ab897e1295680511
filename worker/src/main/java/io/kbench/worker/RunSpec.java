package io.kbench.worker;

import java.util.List;

import io.kbench.driver.DriverConfig;
import io.kbench.driver.TopicSpec;

/**
 * A worker's share of one run, as the coordinator assigned it (the plain form of a PrepareRequest). Settings that
 * belong together are a record each ({@link Values}, {@link KeyChoice}, {@link ConsumerStart}, {@link Transactions},
 * {@link ConsumerWork}, {@link Share}): a new setting goes into its group, and only that group's few constructions
 * change.
 *
 * @param runId             unique run id
 * @param coordinator       who asked (address), for "busy" messages
 * @param workload          the workload's name (labels the worker's metrics; may be empty)
 * @param clockOffsetMicros worker clock minus coordinator clock
 * @param driverName        driver to load, e.g. "kafka"
 * @param driverConfig      client configuration
 * @param createTopics      topics this worker creates first (empty for all but one worker)
 * @param existingTopics    topics this worker checks exist (instead of creating topics)
 * @param producers         producers to run here
 * @param consumers         consumers to run here
 * @param intervalMicros    reporting interval
 * @param values            the message values the producers send
 * @param keys              how message keys are chosen
 * @param consumerStart     where consumers begin reading, and whether they wait for a release
 * @param transactions      when transactional producers commit (both 0: not transactional)
 * @param verification      stamp producer ids and sequence numbers; consumers verify them
 * @param stampMessages     records carry the end-to-end stamp (false: plain records, as the Kafka tools send)
 * @param digest            fingerprint of the request this spec came from: a repeated Prepare of the same run
 *                          must carry the same
 * @param dumpClientMetrics the last snapshot carries every client's full metrics (the tools' --print-metrics)
 * @param brokerSources     brokers whose own metrics this worker reads (PrepareRequest.broker_sources)
 * @param share             how the share consumers ({@link Consumer#share()}) read
 * @param consumerWork      the time every consumer spends on each message it receives
 * @param roundTrip         a closed loop between this worker's one producer and one consumer ({@link RoundTrip})
 */
public record RunSpec(String runId, String coordinator, String workload, long clockOffsetMicros, String driverName,
                      DriverConfig driverConfig, List<TopicSpec> createTopics, List<String> existingTopics,
                      List<Producer> producers, List<Consumer> consumers, long intervalMicros, Values values,
                      KeyChoice keys, ConsumerStart consumerStart, Transactions transactions, boolean verification,
                      boolean stampMessages, String digest, boolean dumpClientMetrics, List<String> brokerSources,
                      Share share, ConsumerWork consumerWork, boolean roundTrip) {
    public RunSpec {
        share = share == null ? Share.NONE : share;
        consumerWork = consumerWork == null ? ConsumerWork.NONE : consumerWork;
        keys = keys == null ? KeyChoice.NONE : keys;
        consumerStart = consumerStart == null ? ConsumerStart.AT_END : consumerStart;
        transactions = transactions == null ? Transactions.NONE : transactions;
        brokerSources = brokerSources == null ? List.of() : List.copyOf(brokerSources);
        createTopics = List.copyOf(createTopics);
        producers = List.copyOf(producers);
        consumers = List.copyOf(consumers);
        existingTopics = List.copyOf(existingTopics);
    }

    /**
     * The values producers send: generated, {@code messageSize} bytes each with {@code randomBytesRatio} of them
     * random; or {@code payloads}, cycled; or, with {@code monotonicProducers} above 0, each message's number in
     * decimal (producer p's i-th message: p + i times this, the run's producer count), as kafka-producer-perf-test's
     * --payload-monotonic. Every message carries {@code headers} besides them.
     */
    public record Values(int messageSize, List<byte[]> payloads, double randomBytesRatio, int monotonicProducers,
                         Headers headers) {
        public Values {
            payloads = List.copyOf(payloads);
            headers = headers == null ? Headers.NONE : headers;
        }

        /** Values without headers of their own. */
        public Values(int messageSize, List<byte[]> payloads, double randomBytesRatio, int monotonicProducers) {
            this(messageSize, payloads, randomBytesRatio, monotonicProducers, Headers.NONE);
        }

        /** Generated values of {@code size} bytes, {@code randomBytesRatio} of each random. */
        public static Values generated(int size, double randomBytesRatio) {
            return new Values(size, List.of(), randomBytesRatio, 0);
        }
    }

    /**
     * Headers every message carries (Kafka's EndToEndLatency's {@code --num-headers}): {@code count} of them, each a key
     * of {@code keySize} and a value of {@code valueSize} random capital letters ({@code -1}: a null value).
     */
    public record Headers(int count, int keySize, int valueSize) {
        public static final Headers NONE = new Headers(0, 0, 0);

        /** The headers, drawn from {@code seed}: one letter repeated per key and per value, as the tool's. */
        public List<io.kbench.driver.MessageHeader> generate(long seed) {
            java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
            List<io.kbench.driver.MessageHeader> out = new java.util.ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String key = new String(Keys.letters(random, keySize), java.nio.charset.StandardCharsets.US_ASCII);
                out.add(new io.kbench.driver.MessageHeader(key, valueSize < 0 ? null : Keys.letters(random, valueSize)));
            }
            return out;
        }
    }

    /**
     * How message keys are chosen: the distribution, the number of distinct keys, Zipf's exponent; with no
     * distribution, {@code size} above 0 gives every message a key of that many bytes ({@link Keys#sized}).
     */
    public record KeyChoice(Keys.Distribution distribution, int count, double zipfExponent, int size) {
        /** No keys. */
        public static final KeyChoice NONE = new KeyChoice(Keys.Distribution.NONE, 0, 0, 0);

        /** Keys of a distribution. */
        public KeyChoice(Keys.Distribution distribution, int count, double zipfExponent) {
            this(distribution, count, zipfExponent, 0);
        }
    }

    /**
     * Where consumers begin reading at the start instant.
     *
     * @param fromBeginning the log's beginning (a catch-up run), else its end
     * @param hold          stay held after the start until {@link LoadRun#startConsumers()} (a backlog run)
     * @param fromCommitted the group's committed offsets, else as the client's auto.offset.reset says (overrides
     *                      fromBeginning)
     */
    public record ConsumerStart(boolean fromBeginning, boolean hold, boolean fromCommitted) {
        /** At the log's end, released at the start instant. */
        public static final ConsumerStart AT_END = new ConsumerStart(false, false, false);
    }

    /** Transactional producers commit after {@code records} messages or {@code millis} open (0: not by that). */
    public record Transactions(long records, long millis) {
        /** Not transactional. */
        public static final Transactions NONE = new Transactions(0, 0);

        public boolean any() {
            return records > 0 || millis > 0;
        }
    }

    /** The time every consumer spends on each message it receives: the mean, and how each is drawn around it. */
    public record ConsumerWork(long meanMicros, Processing.Distribution distribution) {
        /** No processing time. */
        public static final ConsumerWork NONE = new ConsumerWork(0, Processing.Distribution.FIXED);

        public ConsumerWork {
            distribution = distribution == null ? Processing.Distribution.FIXED : distribution;
        }
    }

    /** The nonce in this run's producer ids (see {@link SequenceTracker#producerId}). */
    public int runNonce() {
        return runId.hashCode();
    }

    /** Consumer {@code index}'s processing time per message (seeded per run and consumer). */
    Processing processing(int index) {
        return new Processing(consumerWork.meanMicros(), consumerWork.distribution(),
                runNonce() * 131L + index + 0x5DEECE66DL);
    }

    /** True when producers are transactional. */
    public boolean transactional() {
        return transactions.any();
    }

    /**
     * One producer: its run-wide index, topic, rate (msg/s, -1 unthrottled) and record limit (messages in
     * all, 0 for none).
     */
    public record Producer(int index, String topic, long ratePerSecond, long recordLimit) { }

    /** One consumer: its run-wide index, topic and consumer group; {@code share}: a share group's consumer. */
    public record Consumer(int index, String topic, String group, boolean share) {
        /** A classic consumer group's consumer. */
        public Consumer(int index, String topic, String group) {
            this(index, topic, group, false);
        }
    }

    /**
     * How share consumers read (PrepareRequest.share).
     *
     * @param explicit         acknowledge each record explicitly; false: implicit acknowledgement
     * @param releasePpm       explicit: of first deliveries, parts per million released
     * @param rejectPpm        explicit: of first deliveries, parts per million rejected
     * @param groupConfigs     share-group configs this worker sets on its share consumers' groups before building them
     * @param backlogGroups    share groups (group to topic) whose backlog this worker reads every interval (one
     *                         worker of a run has them all; empty on the others)
     * @param commitSync       each consumer commits a poll's acknowledgements itself (commitSync) and times it
     */
    public record Share(boolean explicit, int releasePpm, int rejectPpm, java.util.Map<String, String> groupConfigs,
                        java.util.Map<String, String> backlogGroups, boolean commitSync) {
        public static final Share NONE = new Share(false, 0, 0, java.util.Map.of(), java.util.Map.of(), false);

        /** Settings whose acknowledgements go with the next poll. */
        public Share(boolean explicit, int releasePpm, int rejectPpm, java.util.Map<String, String> groupConfigs,
                     java.util.Map<String, String> backlogGroups) {
            this(explicit, releasePpm, rejectPpm, groupConfigs, backlogGroups, false);
        }

        public Share {
            groupConfigs = java.util.Map.copyOf(groupConfigs);
            backlogGroups = java.util.Map.copyOf(backlogGroups);
        }

        /** Settings without backlog groups. */
        public Share(boolean explicit, int releasePpm, int rejectPpm, java.util.Map<String, String> groupConfigs) {
            this(explicit, releasePpm, rejectPpm, groupConfigs, java.util.Map.of());
        }
    }
}
