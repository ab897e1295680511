package io.kbench.coordinator;

/**
 * The local cluster a run may inject faults into: the embedded cluster {@code kbench run} started itself.
 * Implemented by the distribution (the coordinator may not depend on Kafka's server classes). kbench never
 * stops brokers of a cluster it did not start, so a run against {@code --bootstrap-servers} has none.
 *
 * <p>Threads: called from the run's fault thread, one call at a time.
 */
public interface ClusterControl {
    /** Number of brokers, with ids 1 to this. */
    int brokers();

    /** Whether each broker runs in a JVM of its own (else they share kbench's). */
    default boolean processPerBroker() {
        return false;
    }

    /** Shuts broker {@code id} down and returns once it has stopped. */
    void stopBroker(int id);

    /** Starts the stopped broker {@code id} again on its data and ports and returns once it serves. */
    void startBroker(int id);
}
