package io.kbench.coordinator.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Sweep;

/**
 * A sweep's broker settings on the embedded cluster, which is kbench's own: any broker config, read-only ones too. The
 * cluster is started again, its brokers configured with the combination's settings, whenever they differ from the
 * ones in force (a fresh cluster: its topics and data are gone). Every name and value is checked against Kafka's
 * broker config definitions before any load. Nothing is put back at the end: the embedded cluster ends with the
 * command.
 */
final class EmbeddedBrokerSettings implements BrokerSettings {
    /** The embedded cluster: started again with broker configs; a config's problem, or null when Kafka takes it. */
    interface Cluster {
        void restart(Map<String, String> brokerConfigs);

        String problem(String name, String value);
    }

    private final Cluster cluster;
    private final PrintStream human;
    /** The settings the cluster runs with; null when not known (a restart failed). */
    private Map<String, String> current;
    /** The settings in force were said once. */
    private boolean announced;

    /** @param started the settings the cluster was started with (the first combination's, when checked before) */
    EmbeddedBrokerSettings(Cluster cluster, Map<String, String> started, PrintStream human) {
        this.cluster = cluster;
        this.current = Map.copyOf(started);
        this.human = human;
    }

    @Override
    public void check(List<Sweep.Point> points) {
        check(points, cluster::problem);
    }

    /**
     * Checks every name and value of {@code points} with {@code problem} (Kafka's broker config definitions): done
     * before the embedded cluster starts, which then starts with the first combination's settings.
     */
    static void check(List<Sweep.Point> points, java.util.function.BinaryOperator<String> problem) {
        for (Sweep.Point p : points) {
            p.brokerSettings().forEach((name, value) -> {
                String why = problem.apply(name, value);
                if (why != null) {
                    throw new UserException("matrix " + Sweep.BROKER_PREFIX + name + "=" + Sweep.shown(value) + ": " + why);
                }
            });
        }
    }

    @Override
    public void apply(Sweep.Point p) {
        if (p.brokerSettings().equals(current)) {
            if (!announced && !current.isEmpty()) {
                human.println("broker settings: " + text(current) + " (the embedded cluster started with them)");
            }
            announced = true;
            return;
        }
        announced = true;
        current = null;
        human.println("broker settings: " + text(p.brokerSettings()) + " (the embedded cluster starts again with them) ...");
        cluster.restart(p.brokerSettings());
        current = p.brokerSettings();
    }

    private static String text(Map<String, String> settings) {
        return String.join(", ", settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    @Override
    public boolean restore() {
        return true; // the embedded cluster is this command's own, and ends with it
    }
}
