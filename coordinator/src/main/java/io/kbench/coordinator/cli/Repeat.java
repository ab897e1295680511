package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.workload.InvalidConfigException;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Sweep;
import io.kbench.coordinator.workload.Workload;

/**
 * {@code kbench run --repeat RESULT.json}: the resolved workload and profile a result recorded, read back
 * through the same validation as files (a result from another kbench version may hold what this one
 * refuses), with what the run was started on: its reporting interval and, for an embedded cluster, its size.
 */
final class Repeat {
    /**
     * @param workload       the recorded workload, as a (single-combination) sweep
     * @param profile        the recorded profile; bootstrap servers left out when the cluster was embedded
     * @param intervalSeconds the recorded run's reporting interval (0: unknown)
     * @param embeddedBrokers the embedded cluster's size (0: the run used a given cluster, or unknown)
     * @param embeddedBrokerProcesses its nodes ran in JVMs of their own ({@code --broker-processes})
     */
    record Inputs(Path file, String runId, Sweep workload, Profile profile, int intervalSeconds, int embeddedBrokers,
                  boolean embeddedBrokerProcesses) { }

    private Repeat() { }

    static Inputs load(Path given) {
        Path file = ResultInputs.file(given, new HashSet<>(), "");
        JsonNode result = ResultInputs.jsonWithoutIntervals(file);
        if (result == null) {
            throw new UserException(file + ": empty: not a kbench run result (no workload and profile objects to "
                    + "repeat)");
        }
        if (result.has("merged")) {
            throw new UserException(file + ": a merged result has no single run to repeat; repeat one of the results "
                    + "it merged");
        }
        JsonNode workload = result.get("workload");
        JsonNode profile = result.get("profile");
        if (workload == null || !workload.isObject() || profile == null || !profile.isObject()) {
            throw new UserException(file + ": not a kbench run result (no workload and profile objects to repeat)");
        }
        String runId = result.path("runId").asText("?");
        JsonNode cluster = result.path("provenance").path("cluster");
        boolean embedded = cluster.path("embedded").asBoolean(false);
        Map<String, Object> p = plain(profile);
        if (embedded) {
            p.remove("bootstrap.servers"); // that broker is gone: start an embedded one again
        }
        Sweep sweep;
        Profile prof;
        String part = "workload";
        try {
            sweep = withBrokerSettings(Sweep.of(Workload.of("workload", explicit(workload))), brokerSettings(file,
                    cluster.path("brokerSettings")));
            part = "profile";
            prof = Profile.of("profile", p);
        } catch (InvalidConfigException e) {
            // read from memory, not from a file: the problems have no line, and each names its key
            throw new UserException(file + ": its " + part + " is not valid for this kbench: " + String.join("; ",
                    e.errors().stream().map(io.kbench.coordinator.workload.ConfigError::message).toList()));
        }
        return new Inputs(file, runId, sweep, prof, interval(result), embedded
                ? Math.max(1, cluster.path("embeddedBrokers").asInt(1)) : 0,
                embedded && cluster.path("embeddedBrokerProcesses").asBoolean(false));
    }

    /**
     * The broker settings the result's run was made with (a sweep combination's {@code broker.*}; none in results
     * before schema 14), checked as a matrix's: names Kafka could have, values of at most 1,000 characters.
     */
    static Map<String, String> brokerSettings(Path file, JsonNode recorded) {
        if (recorded.isMissingNode() || recorded.isNull()) {
            return Map.of();
        }
        if (!recorded.isObject() || recorded.size() > 100) {
            throw new UserException(file + ": provenance.cluster.brokerSettings is not an object of at most 100 broker "
                    + "settings");
        }
        Map<String, String> out = new java.util.TreeMap<>();
        recorded.fields().forEachRemaining(e -> {
            if (!e.getKey().matches("[a-z0-9._-]{1,249}") || !e.getValue().isValueNode() || e.getValue().asText().length() > 1000) {
                throw new UserException(file + ": provenance.cluster.brokerSettings: '" + Sweep.shown(e.getKey())
                        + "' is not a broker setting name with a value of at most 1,000 characters");
            }
            out.put(e.getKey(), e.getValue().asText());
        });
        return out;
    }

    /**
     * {@code sweep} (one combination) with {@code settings} applied to the cluster before it runs, as the sweep that
     * recorded them did: a sweep of one combination over those {@code broker.*} keys, so that a cluster of yours gets
     * them cluster-wide and back afterwards, and the embedded one starts with them.
     */
    static Sweep withBrokerSettings(Sweep sweep, Map<String, String> settings) {
        if (settings.isEmpty()) {
            return sweep;
        }
        Sweep.Point only = sweep.points().get(0);
        java.util.List<String> axes = new java.util.ArrayList<>();
        Map<String, String> values = new java.util.LinkedHashMap<>();
        settings.forEach((k, v) -> {
            axes.add(Sweep.BROKER_PREFIX + k);
            values.put(Sweep.BROKER_PREFIX + k, v);
        });
        String label = String.join(", ", values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
        return new Sweep(sweep.base(), axes, java.util.List.of(new Sweep.Point(label, values, only.workload(),
                only.profileOverrides(), settings)), sweep.notes(), sweep.findMaxRate());
    }

    /**
     * The workload as a file would give it: a resolved workload lists every key with its default filled in,
     * and some defaults (an empty topicNames, numRecords 0) are not valid as given values; a key at its
     * default is left out, so the file means the same.
     */
    private static Map<String, Object> explicit(JsonNode workload) {
        JsonNode defaults = ResultDocument.JSON.valueToTree(Workload.of("defaults", Map.of("name", "defaults",
                "durationSeconds", 1)));
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : plain(workload).entrySet()) {
            String key = e.getKey();
            JsonNode value = workload.get(key);
            boolean runLength = key.equals("durationSeconds") || key.equals("numRecords");
            if (key.equals("name") || (runLength ? value.asLong() != 0 : !same(value, defaults.get(key)))) {
                out.put(key, e.getValue());
            }
        }
        return out;
    }

    /** Equal JSON values, numbers by value (a file's 0 is an int, a record's a long). */
    private static boolean same(JsonNode a, JsonNode b) {
        if (a != null && b != null && a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a == null ? b == null : a.equals(b);
    }

    /** The keys of the profile (dotted: {@code common.sasl.jaas.config}) whose value the result redacted. */
    static List<String> redacted(Profile p) {
        List<String> out = new ArrayList<>();
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        sections.put("common", p.common());
        sections.put("producer", p.producer());
        sections.put("consumer", p.consumer());
        sections.put("admin", p.admin());
        sections.put("topic", p.topic());
        sections.forEach((name, m) -> m.forEach((k, v) -> {
            if (Profile.REDACTED.equals(v)) {
                out.add(name + "." + k);
            }
        }));
        return out;
    }

    /** The recorded reporting interval in whole seconds, from the first interval's span (0 when unknown). */
    private static int interval(JsonNode result) {
        JsonNode first = result.path("intervals").path(0);
        if (!first.has("startMillis") || !first.has("endMillis")) {
            return 0;
        }
        long millis = first.get("endMillis").asLong() - first.get("startMillis").asLong();
        long seconds = Math.round(millis / 1000.0);
        return seconds >= 1 && seconds <= 60 && Math.abs(millis - seconds * 1000) < 50 ? (int) seconds : 0;
    }

    /** A JSON object as plain maps, lists and scalars, nulls left out (a file leaves unset keys out). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> plain(JsonNode node) {
        Map<String, Object> m = ResultDocument.JSON.convertValue(node, LinkedHashMap.class);
        m.values().removeIf(java.util.Objects::isNull);
        return m;
    }
}
