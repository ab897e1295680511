package io.kbench.coordinator.run;

import java.nio.file.Path;
import java.util.List;

/**
 * How {@link RunController} runs a workload: where its results go and what its workers are asked beyond the plan.
 *
 * @param outputDir      where result.json goes; null for {@code results/<name>-<runId>}
 * @param keepTopics     leave the run's topics on the cluster
 * @param intervalMicros reporting interval
 * @param brokerSettings the broker settings kbench applied to the cluster for this run (a sweep combination's
 *                       {@code broker.*} keys, without the prefix), recorded for {@code --repeat}
 */
public record RunOptions(Path outputDir, boolean keepTopics, long intervalMicros, List<String> commandLine,
                         boolean dumpClientMetrics, long drainIdleMicros, String consumerGroup,
                         boolean consumersFromCommitted, List<String> brokerSources,
                         java.util.Map<String, String> brokerSettings) {
    public RunOptions {
        commandLine = List.copyOf(commandLine);
        brokerSources = brokerSources == null ? List.of() : List.copyOf(brokerSources);
        brokerSettings = brokerSettings == null ? java.util.Map.of() : java.util.Map.copyOf(brokerSettings);
    }

    /** These options with the broker settings kbench applied to the cluster for this run. */
    public RunOptions withBrokerSettings(java.util.Map<String, String> settings) {
        return new RunOptions(outputDir, keepTopics, intervalMicros, commandLine, dumpClientMetrics, drainIdleMicros,
                consumerGroup, consumersFromCommitted, brokerSources, settings);
    }

    /**
     * These options with the brokers' own metrics read every interval by the first worker: "local" (the
     * embedded brokers, in the in-process workers' JVM) or JMX HOST:PORT.
     */
    public RunOptions withBrokerSources(List<String> sources) {
        return new RunOptions(outputDir, keepTopics, intervalMicros, commandLine, dumpClientMetrics, drainIdleMicros,
                consumerGroup, consumersFromCommitted, sources, brokerSettings);
    }

    /** Options whose workers send no client metrics dumps, with the default drain idle bound. */
    public RunOptions(Path outputDir, boolean keepTopics, long intervalMicros, List<String> commandLine) {
        this(outputDir, keepTopics, intervalMicros, commandLine, false, 0, null, false, List.of(), java.util.Map.of());
    }

    /** These options with every client's full metrics in the workers' last snapshots (--print-metrics). */
    public RunOptions withClientMetricsDumps() {
        return new RunOptions(outputDir, keepTopics, intervalMicros, commandLine, true, drainIdleMicros, consumerGroup,
                consumersFromCommitted, brokerSources, brokerSettings);
    }

    /** These options with the drain ending after {@code micros} without progress (0: the default). */
    public RunOptions withDrainIdle(long micros) {
        return new RunOptions(outputDir, keepTopics, intervalMicros, commandLine, dumpClientMetrics, micros, consumerGroup,
                consumersFromCommitted, brokerSources, brokerSettings);
    }

    /** These options with every consumer in {@code group} instead of a group of kbench's naming. */
    public RunOptions withConsumerGroup(String group) {
        return new RunOptions(outputDir, keepTopics, intervalMicros, commandLine, dumpClientMetrics, drainIdleMicros,
                group, consumersFromCommitted, brokerSources, brokerSettings);
    }

    /**
     * These options with consumers starting from their group's committed offsets, else as auto.offset.reset
     * says, as the Kafka tools' consumers do (kbench positions them itself otherwise).
     */
    public RunOptions withConsumersFromCommitted() {
        return new RunOptions(outputDir, keepTopics, intervalMicros, commandLine, dumpClientMetrics, drainIdleMicros,
                consumerGroup, true, brokerSources, brokerSettings);
    }

    /** Options without a command line to record (tests, embedded uses). */
    public RunOptions(Path outputDir, boolean keepTopics, long intervalMicros) {
        this(outputDir, keepTopics, intervalMicros, List.of());
    }
}
