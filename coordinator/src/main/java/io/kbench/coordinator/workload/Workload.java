package io.kbench.coordinator.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The shape of the load: topics, producers, consumers, messages (size or payload file, keys), rate and
 * amount (time or record count). Built by the workload parser only, from a file ({@link #load}) or from keys
 * given in code ({@link #of}: the perf commands), and changed only by the {@code with...} methods, whose callers
 * check the values (a run's {@code --warmup}/{@code --duration}, the max-rate search's rates): so every instance
 * outside tests is valid, and a new key touches the parser, not the commands. Fields that belong together are a
 * record each ({@link Messages} with {@link KeysAndHeaders}, {@link Transactions}, {@link ShareGroups},
 * {@link ConsumerProcessing}): a new key goes into its group, whose few constructions change, not this record's.
 * result.json keeps every field flat, by its key ({@code @JsonUnwrapped}), as a workload file gives it.
 *
 * @param name                     a name for reports
 * @param topics                   number of topics (generated names, unique per run)
 * @param partitionsPerTopic       partitions of each topic
 * @param producersPerTopic        producers writing to each topic
 * @param subscriptionsPerTopic    consumer groups reading each topic (each reads every message)
 * @param consumersPerSubscription consumers in each group (they share the topic's partitions)
 * @param producerRate             messages per second for the whole workload, or -1 for unthrottled
 * @param warmupSeconds            seconds of load before measurement starts (streamed, not summarized)
 * @param durationSeconds          measured seconds of load after warm-up, or 0 when {@code numRecords} is set
 * @param numRecords               messages to send in all (warm-up included), or 0 when time-bound; in a
 *                                 run without producers, messages each subscription reads
 * @param messages                 what each message is: its value, key and headers
 * @param topicNames               explicit topic names, or empty for generated ones
 * @param existingTopics           the named topics exist already: kbench neither creates nor deletes them
 * @param consumerBacklogRecords   messages produced before consumers start reading (0: read from the start)
 * @param transactions             when transactional producers commit (both 0: not transactional)
 * @param warmupRecords            warm-up by count: it ends with the interval in which this many messages were
 *                                 acknowledged (0: by {@code warmupSeconds})
 * @param verification             messages carry producer ids and sequence numbers; consumers count lost,
 *                                 duplicated and out-of-order messages
 * @param saturationDelayMillis    an interval whose publish delay p99 exceeds this is marked "generator
 *                                 saturated" (the load generator fell behind its schedule)
 * @param maxSendErrors            the run ends (FAILED) once more sends than this have failed; -1: no limit,
 *                                 failures are counted and the run goes on
 * @param faults                   brokers of the local embedded cluster to stop and start during the run, in
 *                                 time order
 * @param stampMessages            every message carries its intended send time (and with verification its
 *                                 producer id and sequence) for end-to-end latency: in the value's first 12 (28)
 *                                 bytes, or a record header when the value is shorter; false sends plain
 *                                 records, as the Kafka tools do: no end-to-end latency, no verification
 * @param shareGroups              share groups (KIP-932) reading each topic, next to the classic subscriptions
 * @param consumerProcessing       time every consumer, classic or share, spends on each message it receives
 * @param roundTrip                a closed loop, as Kafka's EndToEndLatency: the one producer sends a message only once
 *                                 the one consumer read the previous one back (one message in flight; no rate)
 */
public record Workload(String name, int topics, int partitionsPerTopic, int producersPerTopic,
                       int subscriptionsPerTopic, int consumersPerSubscription, long producerRate,
                       int warmupSeconds, int durationSeconds, long numRecords,
                       @com.fasterxml.jackson.annotation.JsonUnwrapped Messages messages, List<String> topicNames,
                       boolean existingTopics, long consumerBacklogRecords,
                       @com.fasterxml.jackson.annotation.JsonUnwrapped Transactions transactions, long warmupRecords,
                       boolean verification, long saturationDelayMillis, long maxSendErrors, List<Fault> faults,
                       boolean stampMessages, @com.fasterxml.jackson.annotation.JsonUnwrapped ShareGroups shareGroups,
                       @com.fasterxml.jackson.annotation.JsonUnwrapped ConsumerProcessing consumerProcessing,
                       boolean roundTrip) {

    public Workload {
        shareGroups = shareGroups == null ? ShareGroups.NONE : shareGroups;
        consumerProcessing = consumerProcessing == null ? ConsumerProcessing.NONE : consumerProcessing;
        messages = messages == null ? Messages.generated(1024) : messages;
        transactions = transactions == null ? Transactions.NONE : transactions;
        topicNames = List.copyOf(topicNames);
        faults = List.copyOf(faults);
    }

    /** The keys a workload file may contain. */
    public static final List<String> KEYS = List.of("name", "topics", "partitionsPerTopic", "messageSize",
            "producersPerTopic", "subscriptionsPerTopic", "consumersPerSubscription", "producerRate",
            "warmupSeconds", "durationSeconds", "numRecords", "keyDistribution", "keys", "zipfExponent",
            "payloadFile", "payloadDelimiter", "randomBytesRatio", "topicNames", "existingTopics",
            "consumerBacklogRecords", "consumerBacklogBytes", "transactionRecords", "transactionMillis",
            "warmupRecords", "verification", "saturationDelayMillis", "maxSendErrors", "faults", "stampMessages",
            "monotonicPayloads", "consumerProcessingMillis", "consumerProcessingDistribution", "shareGroupsPerTopic",
            "consumersPerShareGroup",
            "shareAcknowledgement", "shareReleaseRatio", "shareRejectRatio", "shareGroupConfig", "shareCommit", "keySize", "headersPerMessage", "headerKeySize",
            "headerValueSize", "roundTrip", "matrix");

    /** Keys of one entry of {@code faults}. */
    public static final List<String> FAULT_KEYS = List.of("at", "action", "broker");

    /** Most producers, consumers, consumer groups and partitions one run may have in all. */
    public static final long MAX_PRODUCERS = 100_000;
    public static final long MAX_CONSUMERS = 100_000;
    public static final long MAX_GROUPS = 100_000;
    public static final long MAX_PARTITIONS = 1_000_000;

    /** No limit on failed sends. */
    public static final long NO_ERROR_LIMIT = -1;

    /** Default of {@code saturationDelayMillis}. */
    public static final long DEFAULT_SATURATION_DELAY_MILLIS = 10;

    /** Unthrottled rate. */
    public static final long UNTHROTTLED = -1;

    /** How message keys are chosen; keys are "key-0" ... "key-(keys-1)". */
    public enum KeyDistribution {
        /** No key: the client spreads messages over partitions. */
        none,
        /** Message i of a producer has key i mod keys. */
        roundRobin,
        /** Uniformly random key. */
        random,
        /** Zipf-distributed key (key-0 most frequent), exponent {@code zipfExponent}. */
        zipf
    }

    /** A time-bound workload with generated values and no keys (the common case, and the tests'). */
    public static Workload timed(String name, int topics, int partitionsPerTopic, int messageSize,
                                 int producersPerTopic, int subscriptionsPerTopic, int consumersPerSubscription,
                                 long producerRate, int warmupSeconds, int durationSeconds) {
        return new Workload(name, topics, partitionsPerTopic, producersPerTopic, subscriptionsPerTopic,
                consumersPerSubscription, producerRate, warmupSeconds, durationSeconds, 0,
                Messages.generated(messageSize), List.of(), false, 0, Transactions.NONE, 0, true,
                DEFAULT_SATURATION_DELAY_MILLIS, NO_ERROR_LIMIT, List.of(), true, ShareGroups.NONE, ConsumerProcessing.NONE,
                false);
    }

    /** This workload at another target rate (msg/s for the whole workload, or {@link #UNTHROTTLED}). */
    public Workload withProducerRate(long rate) {
        return new Workload(name, topics, partitionsPerTopic, producersPerTopic, subscriptionsPerTopic,
                consumersPerSubscription, rate, warmupSeconds, durationSeconds, numRecords, messages, topicNames,
                existingTopics, consumerBacklogRecords, transactions, warmupRecords, verification, saturationDelayMillis,
                maxSendErrors, faults, stampMessages, shareGroups, consumerProcessing, roundTrip);
    }

    /** This workload with other share groups ({@link ShareGroups#NONE}: none); a file sets them by its keys. */
    public Workload withShareGroups(ShareGroups share) {
        return new Workload(name, topics, partitionsPerTopic, producersPerTopic, subscriptionsPerTopic,
                consumersPerSubscription, producerRate, warmupSeconds, durationSeconds, numRecords, messages, topicNames,
                existingTopics, consumerBacklogRecords, transactions, warmupRecords, verification, saturationDelayMillis,
                maxSendErrors, faults, stampMessages, share, consumerProcessing, roundTrip);
    }

    /** This timed workload with another warm-up and measured duration (seconds). */
    public Workload withTiming(int warmup, int duration) {
        return new Workload(name, topics, partitionsPerTopic, producersPerTopic, subscriptionsPerTopic,
                consumersPerSubscription, producerRate, warmup, duration, numRecords, messages, topicNames,
                existingTopics, consumerBacklogRecords, transactions, warmupRecords, verification, saturationDelayMillis,
                maxSendErrors, faults, stampMessages, shareGroups, consumerProcessing, roundTrip);
    }

    /**
     * This workload as a sweep primes its JVMs with before the first combination: the same clients, rate, messages and
     * settings for {@code seconds}, measured from the start (no warm-up), without what would make it more than load —
     * no faults, no consumer backlog to build, no send-error limit — and timed even when this one sends a record count.
     */
    public Workload primer(int seconds) {
        return new Workload(name, topics, partitionsPerTopic, producersPerTopic, subscriptionsPerTopic,
                consumersPerSubscription, producerRate, 0, seconds, 0, messages, topicNames, existingTopics, 0,
                transactions, 0, verification, saturationDelayMillis, NO_ERROR_LIMIT, List.of(), stampMessages,
                shareGroups, consumerProcessing, roundTrip);
    }

    /** True when producers are transactional. */
    public boolean transactional() {
        return transactions.any();
    }

    /** Producers in all (at most {@link #MAX_PRODUCERS}, so it fits an int). */
    public int producerCount() {
        return Math.toIntExact((long) topics * producersPerTopic);
    }

    /** Consumers in all (at most {@link #MAX_CONSUMERS}, so it fits an int). */
    public int consumerCount() {
        return Math.toIntExact((long) topics * subscriptionsPerTopic * consumersPerSubscription);
    }

    /** The consumers' mean processing time per message, µs (0: none). */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public long consumerProcessingMicros() {
        return consumerProcessing.meanMicros();
    }

    /**
     * The producers' planned sending time from the run's start, µs: a timed run's warm-up and duration, a record-count
     * run's records at its rate (after a warm-up by time); -1 when not known (an unthrottled count, no producers).
     */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public long plannedSendingMicros() {
        if (producerCount() == 0) {
            return -1;
        } else if (numRecords <= 0) {
            return (warmupSeconds + (long) durationSeconds) * 1_000_000L;
        } else if (producerRate > 0) {
            return warmupSeconds * 1_000_000L + numRecords * 1_000_000L / producerRate;
        }
        return -1;
    }

    /** Share consumers in all (at most {@link #MAX_CONSUMERS} together with the classic ones). */
    public int shareConsumerCount() {
        return Math.toIntExact((long) topics * shareGroups.groupsPerTopic() * shareGroups.consumersPerGroup());
    }

    /**
     * Messages each reader (a classic subscription or a share group) must read: those acknowledged, or in a run
     * without producers its record count.
     */
    public long messagesPerReader(long acked) {
        return producerCount() > 0 ? acked : numRecords;
    }

    /**
     * Messages the share groups must settle (accept or reject) in all by the drain's end: each group's
     * {@link #messagesPerReader}, times the share groups per topic.
     */
    public long shareMessagesExpected(long acked) {
        return messagesPerReader(acked) * shareGroups.groupsPerTopic();
    }

    /** Groups that read every message: the classic subscriptions and the share groups, per topic. */
    public int readersPerTopic() {
        return subscriptionsPerTopic + shareGroups.groupsPerTopic();
    }

    /**
     * Reads and validates a workload file.
     *
     * @throws InvalidConfigException listing every problem with its {@code file:line:column}
     */
    public static Workload load(Path path) {
        return Sweep.load(path).base();
    }


    /**
     * A workload from keys given in code (a perf command's options), read by the same parser as a file, so it is
     * checked key by key and gets the same defaults. {@code source} names the keys' origin in any error (the
     * command); a relative {@code payloadFile} is taken from the working directory.
     *
     * @param keys workload keys ({@link #KEYS}) to values: numbers, booleans, strings, lists and maps of them
     * @throws InvalidConfigException listing every problem as {@code source: message} (keys have no line)
     */
    public static Workload of(String source, java.util.Map<String, ?> keys) {
        List<ConfigError> errors = new java.util.ArrayList<>();
        try {
            YamlMap y = YamlMap.of(source, YamlText.dump(keys), errors);
            Workload w = WorkloadParser.parse(y, Path.of(source.replaceAll("[^A-Za-z0-9._+-]", "_")), errors);
            if (!errors.isEmpty()) {
                throw new InvalidConfigException(errors);
            }
            return w;
        } catch (InvalidConfigException e) {
            throw ConfigError.positionless(e);
        }
    }

    /** Longest workload name (it names the results directory). */
    public static final int MAX_NAME = 100;

    /**
     * The name of a workload a command builds for {@code subject} (a topic): {@code prefix + subject}, cut to
     * {@link #MAX_NAME} characters. Topic names use only characters a name may, but run to 249.
     */
    public static String nameFor(String prefix, String subject) {
        String name = prefix + subject;
        return name.length() <= MAX_NAME ? name : name.substring(0, MAX_NAME);
    }
}
