package io.kbench.coordinator.cli;

import java.util.List;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Addresses;
import io.kbench.coordinator.workload.TopicNames;

/** Checks of command-line values that run before any worker or cluster is contacted; each fails with one line. */
public final class Inputs {
    private Inputs() { }

    /** A bootstrap server list, HOST:PORT[,HOST:PORT...]; null (not given) passes. */
    public static void bootstrap(String flag, String servers) {
        if (servers != null) {
            String problem = Addresses.listProblem(servers);
            if (problem != null) {
                throw new UserException(flag + ": " + problem);
            }
        }
    }

    /** Worker addresses, each HOST:PORT, none twice. */
    static void workers(List<String> workers) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String w : workers) {
            String problem = Addresses.problem(w);
            if (problem != null) {
                throw new UserException("--workers: " + problem);
            }
            if (!seen.add(w)) {
                throw new UserException("--workers: " + w + " is listed twice");
            }
        }
    }

    /** A Kafka topic name. */
    public static void topic(String flag, String name) {
        String problem = TopicNames.problem(name);
        if (problem != null) {
            throw new UserException(flag + ": " + problem);
        }
    }
}
