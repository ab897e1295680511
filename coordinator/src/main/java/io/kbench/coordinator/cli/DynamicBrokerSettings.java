package io.kbench.coordinator.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Sweep;

/**
 * A sweep's broker settings (matrix keys {@code broker.<name>}) on a cluster kbench did not start: checked with the cluster before any load, applied
 * cluster-wide before each combination (the default every broker inherits, waited for until every broker reports
 * it), and put back, when the sweep ends — completed, failed or interrupted — to what they were when it began: a
 * setting the cluster had no cluster-wide value for is removed again. A setting the cluster will not put back in one
 * step (Kafka lets a thread count at most halve at a time) is walked back through the values the sweep set, newest
 * first, each of which the cluster took on the way. The cluster is reached through a worker.
 *
 * <p>Threads: the command's thread.
 */
final class DynamicBrokerSettings implements BrokerSettings {
    /** The cluster's side: {@link io.kbench.coordinator.rpc.WorkerClient#alterBrokerConfigs}. */
    @FunctionalInterface
    interface Cluster {
        Map<String, String> alter(Map<String, String> set, List<String> delete, boolean validateOnly);
    }

    /**
     * Kafka's refusal of a thread count too far from the one in force ({@code DynamicThreadPool}, the network
     * threads' acceptor): at most half or double at a time; the group is the count in force.
     */
    private static final java.util.regex.Pattern THREAD_STEP = java.util.regex.Pattern.compile(
            "value should (?:be at least half|not be greater than double) the current value (\\d+)");

    /**
     * The most threads kbench walks a count up to in steps: Kafka's one-step rule is also a rail against a typo (8000
     * for 8) on a cluster of yours; beyond this the cluster's refusal stands.
     */
    static final int MAX_STEPPED_THREADS = 1_024;

    private final Cluster cluster;
    private final PrintStream human;
    /** Each setting changed so far and its cluster-wide value before the sweep (empty: it had none). */
    private final Map<String, Optional<String>> original = new LinkedHashMap<>();
    /** The values the sweep set, per setting, in the order it set them (a repeat of the last one not kept). */
    private final Map<String, List<String>> history = new LinkedHashMap<>();

    DynamicBrokerSettings(Cluster cluster, PrintStream human) {
        this.cluster = cluster;
        this.human = human;
    }

    /**
     * Asks the cluster whether it takes the first combination's broker settings (nothing changes): a setting the
     * brokers cannot change while they run is refused for any value, so this refuses it before any load. A thread
     * count further than one step from the count in force (Kafka lets it at most double or halve at a time) is
     * checked by its first step, and reached in steps when applied. A later value the cluster refuses is that
     * combination's refusal: it is recorded and the sweep goes on.
     *
     * @throws UserException one line naming the value refused and the cluster's reason (exit 2), or the worker's or
     *                       the cluster's failure to answer (exit 3)
     */
    @Override
    public void check(List<Sweep.Point> points) {
        Map<String, String> first = points.isEmpty() ? Map.of() : points.get(0).brokerSettings();
        first.forEach((name, v) -> {
            try {
                path(name, v, new java.util.HashMap<>());
            } catch (UserException e) {
                throw !e.unreachable() ? new UserException("matrix " + Sweep.BROKER_PREFIX + name + "=" + Sweep.shown(v) + ": "
                        + e.getMessage() + " (a broker setting must be one the brokers take cluster-wide while they "
                        + "run: Kafka's dynamic broker configs)") : e;
            }
        });
    }

    /**
     * Sets {@code p}'s broker settings cluster-wide and waits until every broker reports them; none: nothing. A thread
     * count the cluster refuses because it is more than one step from the count in force (Kafka lets it at most halve or
     * double at a time) is reached in such steps, each waited for, as an operator would with kafka-configs.
     */
    @Override
    public void apply(Sweep.Point p) {
        if (p.brokerSettings().isEmpty()) {
            return;
        }
        // the values before, read (with a check that changes nothing) ahead of the change: a change the cluster made
        // but did not confirm in time (a broker slow to report it) is still put back at the end
        Map<String, List<String>> paths = new LinkedHashMap<>();
        Map<String, String> before = new java.util.HashMap<>();
        try {
            before.putAll(cluster.alter(p.brokerSettings(), List.of(), true));
            p.brokerSettings().forEach((k, v) -> paths.put(k, List.of(v)));
        } catch (UserException e) {
            if (e.unreachable() || p.brokerSettings().values().stream().noneMatch(v -> threadSteps(e, v) != null)) {
                throw e;
            }
            // one of them is a thread count too far from the count in force: each setting on its own, in steps
            p.brokerSettings().forEach((k, v) -> paths.put(k, path(k, v, before)));
        }
        p.brokerSettings().keySet().forEach(k -> original.putIfAbsent(k, Optional.ofNullable(before.get(k))));
        if (paths.values().stream().allMatch(path -> path.size() == 1)) {
            set(p.brokerSettings());
            human.println("broker settings: " + text(p.brokerSettings()) + " (cluster-wide; every broker reports them)");
            return;
        }
        List<String> said = new ArrayList<>();
        paths.forEach((k, path) -> {
            for (String step : path) {
                set(Map.of(k, step));
            }
            said.add(path.size() == 1 ? k + "=" + path.get(0) : k + " " + String.join(" -> ", path));
        });
        human.println("broker settings: " + String.join(", ", said) + " (cluster-wide, in steps where Kafka allows a "
                + "thread count at most to halve or double at a time; every broker reports each)");
    }

    /**
     * The values to set {@code name} to, in order, checked with the cluster (nothing changes): {@code value} itself,
     * or — a thread count further than one step from the count in force — Kafka's steps to it, of which the first is
     * checked. The cluster-wide values before go into {@code before}.
     *
     * @throws UserException the cluster's refusal of anything else, or its failure to answer
     */
    private List<String> path(String name, String value, Map<String, String> before) {
        try {
            before.putAll(cluster.alter(Map.of(name, value), List.of(), true));
            return List.of(value);
        } catch (UserException e) {
            List<String> steps = e.unreachable() ? null : threadSteps(e, value);
            if (steps == null) {
                throw e;
            }
            before.putAll(cluster.alter(Map.of(name, steps.get(0)), List.of(), true));
            return steps;
        }
    }

    /** One change, waited for; remembered, so that it is put back, even when the cluster did not confirm it in time. */
    private void set(Map<String, String> settings) {
        try {
            cluster.alter(settings, List.of(), false);
        } catch (UserException e) {
            if (e.unreachable()) {
                remember(settings); // maybe set, not confirmed: put back from there too
            }
            throw e;
        }
        remember(settings);
    }

    /**
     * The thread counts from the one in force to {@code target}, each at least half and at most double the one before
     * (Kafka's rule: {@code new >= current / 2}, integer division, and {@code new <= current * 2}), ending at
     * {@code target}; null when {@code refused} is not that refusal or {@code target} is not a count.
     */
    static List<String> threadSteps(UserException refused, String target) {
        java.util.regex.Matcher m = THREAD_STEP.matcher(String.valueOf(refused.getMessage()));
        int to;
        try {
            to = Integer.parseInt(target.strip());
        } catch (NumberFormatException e) {
            return null;
        }
        if (!m.find() || to < 1 || to > MAX_STEPPED_THREADS) {
            return null;
        }
        long now;
        try {
            now = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            return null;
        }
        List<String> steps = new ArrayList<>();
        while (now != to && steps.size() < 64) {
            now = now > to ? Math.max(to, now / 2) : Math.min(to, now * 2);
            steps.add(String.valueOf(now));
        }
        return steps.isEmpty() || now != to ? null : steps;
    }

    private void remember(Map<String, String> settings) {
        settings.forEach((k, v) -> {
            List<String> set = history.computeIfAbsent(k, x -> new ArrayList<>());
            if (set.isEmpty() || !set.get(set.size() - 1).equals(v)) {
                set.add(v);
            }
        });
    }

    /**
     * Puts every setting changed back to its value before the sweep, and says so; a failure is said too, with what a
     * user must set back by hand.
     *
     * @return false when the settings could not be put back
     */
    @Override
    public boolean restore() {
        if (original.isEmpty()) {
            return true;
        }
        List<String> failed = new ArrayList<>();
        List<String> done = new ArrayList<>();
        for (Map.Entry<String, Optional<String>> e : original.entrySet()) {
            String what = e.getKey() + "=" + e.getValue().orElse("(none: each broker's own)");
            try {
                restore(e.getKey(), e.getValue());
                done.add(what);
            } catch (RuntimeException x) {
                failed.add(what + " (" + x.getMessage() + ")");
            }
        }
        original.clear();
        history.clear();
        if (!done.isEmpty()) {
            human.println("broker settings restored: " + String.join(", ", done));
        }
        if (!failed.isEmpty()) {
            human.println("kbench: broker settings NOT restored; set them back by hand (kafka-configs --alter "
                    + "--entity-type brokers --entity-default): " + String.join("; ", failed));
        }
        return failed.isEmpty();
    }

    /** Puts {@code name} back to {@code value} (empty: removed); refused in one step, walks back through its history. */
    private void restore(String name, Optional<String> value) {
        try {
            back(name, value);
        } catch (UserException refused) {
            if (refused.unreachable()) {
                throw refused;
            }
            List<String> set = history.getOrDefault(name, List.of());
            for (int i = set.size() - 2; i >= 0; i--) {
                cluster.alter(Map.of(name, set.get(i)), List.of(), false);
            }
            back(name, value);
        }
    }

    private void back(String name, Optional<String> value) {
        if (value.isPresent()) {
            cluster.alter(Map.of(name, value.get()), List.of(), false);
        } else {
            cluster.alter(Map.of(), List.of(name), false);
        }
    }

    private static String text(Map<String, String> settings) {
        return String.join(", ", settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }
}
