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

    /** The cluster {@link #startBroker} started, for faults; null before. */
    io.kbench.coordinator.ClusterControl cluster();

    /** Starts {@code count} workers on loopback and returns their {@code host:port} addresses. */
    List<String> startWorkers(int count);

    /** Stops everything started, workers first. */
    @Override
    void close();
}
