package io.kbench.coordinator.workload;

/**
 * A fault scheduled on a run's timeline for the local (embedded) cluster: stop a broker, or start a stopped
 * one again. kbench never stops brokers of a cluster it did not start.
 *
 * @param atSeconds seconds after the run's start instant (warm-up included)
 * @param action    what happens
 * @param broker    the broker's node id (1 to the embedded cluster's size)
 */
public record Fault(int atSeconds, Action action, int broker) {
    /** What a fault does. */
    public enum Action {
        /** Shut the broker down (a controlled shutdown: leadership moves, then the process part stops). */
        stop,
        /** Start a stopped broker again on its old data and ports. */
        start
    }

    /** For reports: "stop broker 2 at 10 s". */
    public String describe() {
        return action + " broker " + broker + " at " + atSeconds + " s";
    }
}
