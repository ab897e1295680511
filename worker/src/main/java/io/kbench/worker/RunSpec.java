package io.kbench.worker;

import java.util.List;

import io.kbench.driver.DriverConfig;
import io.kbench.driver.TopicSpec;

/**
 * A worker's share of one run, as the coordinator assigned it (the plain form of a PrepareRequest).
 *
 * @param runId             unique run id
 * @param coordinator       who asked (address), for "busy" messages
 * @param workload          the workload's name (labels the worker's metrics; may be empty)
 * @param clockOffsetMicros worker clock minus coordinator clock
 * @param driverName        driver to load, e.g. "kafka"
 * @param driverConfig      client configuration
 * @param createTopics      topics this worker creates first (empty for all but one worker)
 * @param producers         producers to run here
 * @param consumers         consumers to run here
 * @param messageSize       value size in bytes of generated payloads
 * @param intervalMicros    reporting interval
 * @param payloads          explicit values (cycled), or empty to generate them
 * @param randomBytesRatio  fraction of each generated value that is random
 * @param keys              how keys are chosen
 * @param keyCount          number of distinct keys
 * @param zipfExponent      exponent for Zipf keys
 * @param existingTopics    topics this worker checks exist (instead of creating topics)
 * @param consumersFromBeginning consumers read from the beginning at the start (catch-up), else from the end
 * @param holdConsumers     consumers stay held after the start until {@link LoadRun#startConsumers()}
 * @param transactionRecords commit a transaction after this many messages (0: not by count)
 * @param transactionMillis commit a transaction once open this long (0: not by time); both 0: no transactions
 * @param verification      stamp producer ids and sequence numbers; consumers verify them
 * @param stampMessages     records carry the end-to-end stamp (false: plain records, as the Kafka tools send)
 * @param monotonicProducers when > 0, values are message numbers in decimal (producer p's i-th message: p + i
 *                          times this, the run's producer count), as kafka-producer-perf-test --payload-monotonic
 * @param consumersFromCommitted consumers start from their group's committed offsets, else as the client's
 *                          auto.offset.reset says (overrides consumersFromBeginning)
 * @param dumpClientMetrics the last snapshot carries every client's full metrics (the tools' --print-metrics)
 * @param digest            fingerprint of the request this spec came from: a repeated Prepare of the same run
 *                          must carry the same
 * @param brokerSources     brokers whose own metrics this worker reads (PrepareRequest.broker_sources)
 * @param share             how the share consumers ({@link Consumer#share()}) read
 * @param consumerProcessingMicros time every consumer spends on each message it receives, on average
 * @param consumerProcessingDistribution how each message's time is drawn around that mean
 */
public record RunSpec(String runId, String coordinator, String workload, long clockOffsetMicros, String driverName,
                      DriverConfig driverConfig, List<TopicSpec> createTopics, List<Producer> producers,
                      List<Consumer> consumers, int messageSize, long intervalMicros, List<byte[]> payloads,
                      double randomBytesRatio, Keys.Distribution keys, int keyCount, double zipfExponent,
                      List<String> existingTopics, boolean consumersFromBeginning, boolean holdConsumers,
                      long transactionRecords, long transactionMillis, boolean verification,
                      boolean stampMessages, String digest, int monotonicProducers, boolean dumpClientMetrics,
                      boolean consumersFromCommitted, List<String> brokerSources, Share share,
                      long consumerProcessingMicros, Processing.Distribution consumerProcessingDistribution) {
    public RunSpec {
        share = share == null ? Share.NONE : share;
        consumerProcessingDistribution = consumerProcessingDistribution == null ? Processing.Distribution.FIXED
                : consumerProcessingDistribution;
        brokerSources = brokerSources == null ? List.of() : List.copyOf(brokerSources);
        createTopics = List.copyOf(createTopics);
        producers = List.copyOf(producers);
        consumers = List.copyOf(consumers);
        payloads = List.copyOf(payloads);
        existingTopics = List.copyOf(existingTopics);
    }

    /** A spec with generated or explicit values and no metrics dumps. */
    public RunSpec(String runId, String coordinator, String workload, long clockOffsetMicros, String driverName,
                   DriverConfig driverConfig, List<TopicSpec> createTopics, List<Producer> producers,
                   List<Consumer> consumers, int messageSize, long intervalMicros, List<byte[]> payloads,
                   double randomBytesRatio, Keys.Distribution keys, int keyCount, double zipfExponent,
                   List<String> existingTopics, boolean consumersFromBeginning, boolean holdConsumers,
                   long transactionRecords, long transactionMillis, boolean verification,
                   boolean stampMessages, String digest) {
        this(runId, coordinator, workload, clockOffsetMicros, driverName, driverConfig, createTopics, producers, consumers,
                messageSize, intervalMicros, payloads, randomBytesRatio, keys, keyCount, zipfExponent, existingTopics,
                consumersFromBeginning, holdConsumers, transactionRecords, transactionMillis, verification, stampMessages,
                digest, 0, false, false, List.of(), Share.NONE, 0, Processing.Distribution.FIXED);
    }

    /** The nonce in this run's producer ids (see {@link SequenceTracker#producerId}). */
    public int runNonce() {
        return runId.hashCode();
    }

    /** Consumer {@code index}'s processing time per message (seeded per run and consumer). */
    Processing processing(int index) {
        return new Processing(consumerProcessingMicros, consumerProcessingDistribution,
                runNonce() * 131L + index + 0x5DEECE66DL);
    }

    /** True when producers are transactional. */
    public boolean transactional() {
        return transactionRecords > 0 || transactionMillis > 0;
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
