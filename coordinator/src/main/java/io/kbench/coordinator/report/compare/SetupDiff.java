package io.kbench.coordinator.report.compare;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;

/**
 * What differs between the setups of two results, for {@code kbench compare}: a difference in its table is only the
 * change's when the rest stayed the same, so the comparison says what else changed — the workload's keys, the
 * profile's client and topic settings, the broker settings a sweep set and the configs the brokers reported, the
 * number of brokers and workers, the workers' cores, kbench's build and the client library. Addresses and directories
 * that change with every start (an embedded cluster's ports, its log directory) are left out. Pure.
 */
public final class SetupDiff {
    /** Most differences listed per side; the rest are counted. */
    public static final int MAX_LISTED = 12;
    /** A value longer than this is cut in a line. */
    static final int VALUE_MAX = 60;
    /** Broker configs that name this start's addresses or directories: they differ between any two embedded runs. */
    static final Set<String> PER_START = Set.of("advertised.listeners", "listeners", "controller.quorum.voters",
            "controller.quorum.bootstrap.servers", "log.dirs", "log.dir", "metadata.log.dir");
    /** Profile keys that are the cluster's address or the profile's name, not a setting. */
    static final Set<String> NOT_SETTINGS = Set.of("name", "bootstrap.servers", "driver");

    /** The profile's client sections, whose unset keys take the client's defaults. */
    static final List<String> CLIENT_SECTIONS = List.of("producer.", "consumer.", "admin.", "common.");

    private SetupDiff() { }

    /** The setup of {@code run} as key -> value text, keys sorted. */
    public static Map<String, String> setup(ResultFile.Run run) {
        Map<String, String> out = new TreeMap<>();
        if (run.workload() != null) {
            flatten("workload.", run.workload(), out);
            out.remove("workload.name");
        }
        if (run.profile() != null) {
            JsonNode profile = ResultDocument.JSON.valueToTree(run.profile());
            for (Iterator<Map.Entry<String, JsonNode>> it = profile.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (NOT_SETTINGS.contains(e.getKey()) || e.getValue().isNull()) {
                    continue;
                }
                if (e.getValue().isObject()) {
                    flatten(e.getKey() + ".", e.getValue(), out); // a section: producer.batch.size
                } else {
                    out.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
                }
            }
        }
        ResultFile.Provenance p = run.provenance();
        if (p != null) {
            out.put("kbench", p.kbenchVersion() + (p.kbenchCommit() == null ? "" : " " + shortCommit(p.kbenchCommit())));
            if (p.workers() != null) {
                out.put("workers", String.valueOf(p.workers().size()));
                Set<String> cores = new TreeSet<>();
                Set<String> drivers = new TreeSet<>();
                for (ResultFile.WorkerHost w : p.workers()) {
                    if (w.host() != null) {
                        cores.add(String.valueOf(w.host().cores()));
                    }
                    if (w.drivers() != null) {
                        drivers.addAll(w.drivers().values());
                    }
                }
                if (!cores.isEmpty()) {
                    out.put("worker cores", String.join("/", cores));
                }
                if (!drivers.isEmpty()) {
                    out.put("client library", String.join(", ", drivers));
                }
            }
            ResultFile.Cluster c = p.cluster();
            if (c != null) {
                out.put("cluster", c.embedded() ? "embedded" + (c.embeddedBrokerProcesses() ? ", a JVM per broker" : "")
                        : "given");
                if (c.brokers() != null) {
                    out.put("brokers", String.valueOf(c.brokers().size()));
                    for (ResultFile.Broker b : c.brokers()) {
                        if (b.configs() == null) {
                            continue;
                        }
                        b.configs().forEach((k, v) -> {
                            if (!PER_START.contains(k)) {
                                out.put("broker " + b.id() + " " + k, v);
                            }
                        });
                    }
                }
                if (c.brokers() == null || c.brokers().stream().allMatch(b -> b.configs() == null || b.configs().isEmpty())) {
                    // what a sweep set, where the brokers' own configs were not read (they show it otherwise)
                    c.brokerSettings().forEach((k, v) -> out.put("broker." + k, v));
                }
                if (c.features() != null) {
                    c.features().forEach((k, v) -> out.put("feature " + k, String.valueOf(v)));
                }
            }
        }
        return out;
    }

    /**
     * {@code key a -> b} for each key whose value differs between {@code base} and {@code other}, in key order
     * ("unset" where one has none: a client's default); at most {@link #MAX_LISTED}, then how many more.
     */
    public static List<String> differences(Map<String, String> base, Map<String, String> other) {
        Set<String> keys = new TreeSet<>(base.keySet());
        keys.addAll(other.keySet());
        List<String> out = new ArrayList<>();
        int more = 0;
        for (String k : keys) {
            String a = base.get(k);
            String b = other.get(k);
            if (a != null && a.equals(b)) {
                continue;
            }
            if (out.size() == MAX_LISTED) {
                more++;
                continue;
            }
            out.add(k + " " + shown(k, a) + " -> " + shown(k, b));
        }
        if (more > 0) {
            out.add("and " + more + " more");
        }
        return out;
    }

    /**
     * The comparison's setup lines: for each side after the baseline, what differs from the baseline's (its first
     * result's against the baseline's first), or one line saying nothing does; and a warning for a side whose repeats
     * differ among themselves — their spread then is not run-to-run noise alone.
     *
     * @param names  each side's name
     * @param setups each side's results' setups ({@link #setup}), in order
     */
    public static List<String> lines(List<String> names, List<List<Map<String, String>>> setups) {
        List<String> out = new ArrayList<>();
        boolean same = true;
        for (int s = 1; s < setups.size(); s++) {
            if (setups.get(0).get(0).isEmpty() || setups.get(s).get(0).isEmpty()) {
                // a merged result keeps no workload, profile or provenance of its own: nothing to set side by side
                same = false;
                boolean baseline = setups.get(0).get(0).isEmpty();
                out.add("setup: " + names.get(baseline ? 0 : s) + " records no setup of its own (a merged result: the "
                        + "results it merged have theirs): not compared with " + (baseline ? "the other sides'"
                        : "the baseline's"));
                if (baseline) {
                    break;
                }
                continue;
            }
            List<String> d = differences(setups.get(0).get(0), setups.get(s).get(0));
            if (!d.isEmpty()) {
                same = false;
                out.add("setup: " + names.get(s) + " against the baseline: " + String.join("; ", d));
            }
        }
        if (same && setups.size() > 1) {
            out.add(0, "setup: every side ran the baseline's workload, client and topic settings, cluster and kbench build");
        }
        for (int s = 0; s < setups.size(); s++) {
            for (int r = 1; r < setups.get(s).size(); r++) {
                if (setups.get(s).get(0).isEmpty() || setups.get(s).get(r).isEmpty()) {
                    continue; // a merged result's setup is not recorded
                }
                List<String> d = differences(setups.get(s).get(0), setups.get(s).get(r));
                if (!d.isEmpty()) {
                    out.add("warning: the repeats of " + names.get(s) + " are not of one setup (repeat " + (r + 1)
                            + " against the first: " + String.join("; ", d) + "): their spread is not run-to-run noise alone");
                }
            }
        }
        return out;
    }

    /** {@code node}'s values under {@code prefix} (which ends with a dot), objects opened, arrays as JSON text. */
    private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
        if (node == null || node.isNull()) {
            return;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(prefix + e.getKey() + ".", e.getValue(), out);
            }
            return;
        }
        out.put(prefix.substring(0, prefix.length() - 1), node.isValueNode() ? node.asText() : node.toString());
    }

    private static String shown(String key, String v) {
        if (v == null) {
            return CLIENT_SECTIONS.stream().anyMatch(key::startsWith) ? "unset (the client's default)"
                    : key.startsWith("topic.") ? "unset (the brokers' default)" : "unset";
        }
        return v.length() > VALUE_MAX ? v.substring(0, VALUE_MAX) + "..." : v;
    }

    /** The commit's first 12 characters, and whether the build had uncommitted changes (a build's {@code -dirty}). */
    static String shortCommit(String commit) {
        boolean dirty = commit.endsWith("-dirty");
        String id = dirty ? commit.substring(0, commit.length() - "-dirty".length()) : commit;
        return (id.length() > 12 ? id.substring(0, 12) : id) + (dirty ? " (with uncommitted changes)" : "");
    }
}
