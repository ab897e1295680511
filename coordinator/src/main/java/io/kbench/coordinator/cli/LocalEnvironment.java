package io.kbench.coordinator.cli;

import java.util.List;

/**
 * What {@code kbench run} starts itself when the user gives no cluster or no workers: an embedded Kafka
 * broker and in-process workers (still reached over real gRPC, on its in-process transport: addresses
 * {@code in-process:local-N}). Implemented by the
 * distribution, which may depend on the worker and embedded-kafka modules; the coordinator may not.
 */
public interface LocalEnvironment extends AutoCloseable {
    /** Starts a Kafka cluster of {@code brokers} nodes on loopback and returns its bootstrap servers. */
    String startBroker(int brokers);

    /** As {@link #startBroker(int)}, its brokers configured with {@code brokerConfigs} (a sweep's first settings). */
    default String startBroker(int brokers, java.util.Map<String, String> brokerConfigs) {
        if (!brokerConfigs.isEmpty()) {
            throw new UnsupportedOperationException("no broker configs here");
        }
        return startBroker(brokers);
    }

    /**
     * Starts the cluster {@link #startBroker} started again, a fresh one of as many nodes, its brokers configured with
     * {@code brokerConfigs} (a sweep's broker settings, read-only ones too), and returns its bootstrap servers.
     *
     * @throws io.kbench.coordinator.UserException when it does not start with them
     */
    default String restartBroker(java.util.Map<String, String> brokerConfigs) {
        throw new UnsupportedOperationException("no embedded cluster here");
    }

    /** Why Kafka's broker would not take {@code name=value} (an unknown config, a bad value), or null when it would. */
    default String brokerConfigProblem(String name, String value) {
        return null;
    }

    /** Kafka's client and topic config definitions, to check a profile's client and topic settings before anything starts. */
    default io.kbench.coordinator.workload.ConfigCheck configCheck() {
        return io.kbench.coordinator.workload.ConfigCheck.NONE;
    }

    /**
     * Whether {@link #startBroker} runs each node in a JVM of its own ({@code --broker-processes}) rather than in this
     * one; set before it is called.
     */
    default void processPerBroker(boolean separate) {
        if (separate) {
            throw new UnsupportedOperationException("no brokers in processes of their own here");
        }
    }

    /**
     * The broker sources an in-process worker reads the started cluster's own metrics from: "local" (this JVM's
     * MBeans, one source for every broker in it) or "local:N" for each node in a JVM of its own.
     */
    default List<String> brokerSources() {
        return List.of("local");
    }

    /** The cluster {@link #startBroker} started, for faults; null before. */
    io.kbench.coordinator.ClusterControl cluster();

    /** Starts {@code count} workers on loopback and returns their {@code host:port} addresses. */
    List<String> startWorkers(int count);

    /** Stops everything started, workers first. */
    @Override
    void close();
}
