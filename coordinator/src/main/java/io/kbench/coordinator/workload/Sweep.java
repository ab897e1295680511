package io.kbench.coordinator.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A workload file read whole: the base workload and, when the file has a {@code matrix}, every combination
 * of its values, in order (the first matrix key varies slowest). A matrix key is a workload field
 * ({@code messageSize: [100, 1024]}), a profile key ({@code producer.batch.size: [8192, 16384]},
 * {@code replicationFactor: [1, 3]}), or a broker setting ({@code broker.num.replica.fetchers: [1, 2, 4]}: applied
 * to the cluster, cluster-wide, before the combination runs). Every combination is validated as a workload on its
 * own, and a bad value is reported at its own position in the file.
 *
 * <pre>
 * matrix:
 *   producer.batch.size: [8192, 16384, 32768, 51200]
 *   producer.acks: [1, all]
 * </pre>
 *
 * @param base   the workload without matrix overrides
 * @param axes   the matrix keys, in file order (empty: not a sweep)
 * @param points one per combination; a single point with an empty label when there is no matrix
 * @param notes  an OpenMessaging Benchmark workload's translated keys, one line each (empty for kbench's own)
 * @param findMaxRate the file asks for the max-rate search (OMB's {@code producerRate: 0})
 * @param positions  where the file gives each value of the matrix, {@code file:line:column} by {@code key=value},
 *                   and each of the base workload's keys that size a record ({@link #RECORD_KEYS}) by its name (empty
 *                   when not read from a file)
 */
public record Sweep(Workload base, List<String> axes, List<Point> points, List<String> notes, boolean findMaxRate,
                    Map<String, String> positions) {
    public Sweep {
        positions = Map.copyOf(positions);
    }

    /** A sweep that was not read from a file: no positions to give. */
    public Sweep(Workload base, List<String> axes, List<Point> points, List<String> notes, boolean findMaxRate) {
        this(base, axes, points, notes, findMaxRate, Map.of());
    }

    /**
     * Why the clients would refuse the settings of {@code base} and a combination's profile values taken together
     * ({@link ConfigCheck#together}), in one line: at {@code baseSource} when the profile alone (with the base workload)
     * is refused; else at the position of the first matrix value that is refused with the profile alone, or of the
     * combination's first value when only its values together are. Then whether the producers would refuse a
     * combination's records for their size ({@link ConfigCheck#recordProblem}). Null when every combination would start.
     * The first refused combination only: fixing it usually fixes the others.
     */
    public String settingsProblem(Profile base, ConfigCheck check, String baseSource) {
        String alone = check.together(base, this.base);
        if (alone != null) {
            return baseSource + ": " + alone;
        }
        for (Point p : points) {
            if (p.profileOverrides().isEmpty()) {
                continue;
            }
            String problem = check.together(base.with(p.profileOverrides()), p.workload());
            if (problem == null) {
                continue;
            }
            for (Map.Entry<String, String> e : p.profileOverrides().entrySet()) {
                String one = check.together(base.with(Map.of(e.getKey(), e.getValue())), p.workload());
                if (one != null) {
                    return positions.getOrDefault(e.getKey() + "=" + e.getValue(), baseSource) + ": matrix: "
                            + e.getKey() + "=" + ConfigError.shown(Profile.isSecret(e.getKey()) ? "(not shown)" : e.getValue())
                            + ": " + one;
                }
            }
            Map.Entry<String, String> first = p.profileOverrides().entrySet().iterator().next();
            return positions.getOrDefault(first.getKey() + "=" + first.getValue(), baseSource)
                    + ": matrix: the combination " + ConfigError.shown(p.label()) + ": " + problem;
        }
        return recordProblem(base, check, baseSource);
    }

    /** The workload key behind most of a record's bytes: its value's, its key's or its headers'. */
    private static String largestPart(Workload w) {
        Messages m = w.messages();
        KeysAndHeaders kh = m.keysAndHeaders();
        long value = m.payloadFile() != null || m.monotonicPayloads() ? -1 : m.messageSize();
        long key = kh.keySize();
        long headers = (long) kh.headersPerMessage() * (kh.headerKeySize() + Math.max(0, kh.headerValueSize()));
        if (headers > value && headers > key) {
            return "headersPerMessage";
        }
        if (key > value) {
            return "keySize";
        }
        return m.payloadFile() != null ? "payloadFile" : "messageSize";
    }

    /** Workload keys that size a record. */
    static final List<String> RECORD_KEYS = List.of("messageSize", "payloadFile", "payloadDelimiter", "monotonicPayloads",
            "keySize", "keyDistribution", "keys", "headersPerMessage", "headerKeySize", "headerValueSize",
            "stampMessages", "verification");
    /** Profile keys that limit a record's size in the producer. */
    static final List<String> RECORD_LIMITS = List.of("producer.max.request.size", "producer.buffer.memory",
            "common.max.request.size", "common.buffer.memory");

    /**
     * Why the producers would refuse a combination's records for their size ({@link ConfigCheck#recordProblem}): at the
     * matrix value that sizes the record, else at the one that limits it, else at the workload's own key that sizes it
     * (messageSize), else at {@code baseSource}. The first refused combination only.
     */
    private String recordProblem(Profile base, ConfigCheck check, String baseSource) {
        Map<String, int[]> payloadSizes = new java.util.HashMap<>();
        for (Point p : points) {
            String problem = check.recordProblem(base.with(p.profileOverrides()), p.workload(), payloadSizes);
            if (problem == null) {
                continue;
            }
            String at = null;
            for (List<String> keys : List.of(RECORD_KEYS, RECORD_LIMITS)) {
                for (Map.Entry<String, String> e : p.values().entrySet()) {
                    if (at == null && keys.contains(e.getKey())) {
                        at = positions.get(e.getKey() + "=" + e.getValue());
                    }
                }
            }
            if (at == null) {
                at = positions.get(largestPart(p.workload()));
            }
            for (String key : RECORD_KEYS) {
                if (at == null) {
                    at = positions.get(key);
                }
            }
            return (at != null ? at : baseSource) + ": " + (p.label().isEmpty() ? ""
                    : "matrix: the combination " + ConfigError.shown(p.label()) + ": ") + problem;
        }
        return null;
    }
    /** Most combinations one sweep may have. */
    public static final int MAX_POINTS = 1000;

    /**
     * One combination.
     *
     * @param label            {@code key=value, key=value} (empty without a matrix)
     * @param values           the combination's value per matrix key
     * @param workload         the workload with the combination's workload overrides
     * @param profileOverrides the combination's profile overrides, for {@link Profile#with}
     * @param brokerSettings   the combination's broker settings (without the {@code broker.} prefix), to apply to the
     *                         cluster before it runs
     */
    public record Point(String label, Map<String, String> values, Workload workload, Map<String, String> profileOverrides,
                        Map<String, String> brokerSettings) {
        public Point {
            brokerSettings = Map.copyOf(brokerSettings);
        }

        /** A combination without broker settings. */
        public Point(String label, Map<String, String> values, Workload workload, Map<String, String> profileOverrides) {
            this(label, values, workload, profileOverrides, Map.of());
        }
    }

    /** The prefix of a matrix key that is a broker setting. */
    public static final String BROKER_PREFIX = "broker.";
    private static final java.util.regex.Pattern BROKER_CONFIG = java.util.regex.Pattern.compile("[a-z0-9._-]{1,249}");

    /** {@code value} as a one-line message shows it: at most 100 characters. */
    public static String shown(String value) {
        return value.length() > 100 ? value.substring(0, 100) + "..." : value;
    }

    /** Every broker setting the matrix varies (without the prefix), in file order. */
    public List<String> brokerAxes() {
        return axes.stream().filter(a -> a.startsWith(BROKER_PREFIX)).map(a -> a.substring(BROKER_PREFIX.length())).toList();
    }

    /**
     * This sweep with every combination's warm-up and duration replaced ({@code kbench run --warmup/--duration});
     * null leaves that one as the file has it.
     *
     * @throws IllegalArgumentException for a record-count workload (it has no duration)
     */
    public Sweep withTiming(Integer warmup, Integer duration) {
        if (warmup == null && duration == null) {
            return this;
        }
        if (base.numRecords() > 0 && duration != null) {
            throw new IllegalArgumentException("--duration applies to timed workloads; this one sends numRecords");
        }
        if (base.warmupRecords() > 0 && warmup != null) {
            throw new IllegalArgumentException("--warmup applies to a timed warm-up; this workload warms up by warmupRecords");
        }
        java.util.function.UnaryOperator<Workload> f = w -> w.withTiming(warmup != null ? warmup : w.warmupSeconds(),
                duration != null ? duration : w.durationSeconds());
        List<Point> ps = points.stream().map(p -> new Point(p.label(), p.values(), f.apply(p.workload()),
                p.profileOverrides(), p.brokerSettings())).toList();
        return new Sweep(f.apply(base), axes, ps, notes, findMaxRate, positions);
    }

    /** One workload as a sweep of a single combination (what a file without a matrix loads as). */
    public static Sweep of(Workload workload) {
        return new Sweep(workload, List.of(), List.of(new Point("", Map.of(), workload, Map.of())), List.of(), false);
    }

    public boolean isSweep() {
        return !axes.isEmpty();
    }

    /**
     * Reads, validates and expands a workload file.
     *
     * @throws InvalidConfigException listing every problem with its {@code file:line:column}
     */
    public static Sweep load(Path path) {
        return load(path, ConfigCheck.NONE);
    }

    /**
     * As {@link #load(Path)}, the matrix's client and topic settings held against Kafka's config definitions too
     * ({@link ConfigCheck}): a refused value is an error at its position, a name Kafka does not define a note
     * ({@link #notes()}), once per name and value.
     */
    public static Sweep load(Path path, ConfigCheck check) {
        List<ConfigError> errors = new ArrayList<>();
        YamlMap y = YamlMap.read(path, errors);
        OmbFiles.Translation omb = OmbFiles.isOmbWorkload(y) ? OmbFiles.workload(y, path) : OmbFiles.Translation.NONE;
        Node matrix = y.node("matrix");
        y.remove("matrix");
        Workload base = WorkloadParser.parse(y, path, errors);
        Map<String, List<ScalarNode>> axes = matrix == null ? Map.of() : axes(y, matrix);
        if (!errors.isEmpty()) {
            throw new InvalidConfigException(errors);
        }
        // count before expanding: a matrix of many axes would exhaust memory long before the limit is checked
        long count = 1;
        for (List<ScalarNode> values : axes.values()) {
            count = Math.min((long) MAX_POINTS + 1, count * values.size());
        }
        if (count > MAX_POINTS) {
            StringBuilder sizes = new StringBuilder();
            for (List<ScalarNode> values : axes.values()) {
                sizes.append(sizes.length() == 0 ? "" : " x ").append(values.size());
            }
            y.error(matrix, "the matrix has " + sizes + " = more than " + MAX_POINTS + " combinations; at most "
                    + MAX_POINTS + " allowed");
            throw new InvalidConfigException(errors);
        }
        List<Map<String, ScalarNode>> combos = new ArrayList<>();
        combos.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<ScalarNode>> axis : axes.entrySet()) {
            List<Map<String, ScalarNode>> next = new ArrayList<>();
            for (Map<String, ScalarNode> c : combos) {
                for (ScalarNode v : axis.getValue()) {
                    Map<String, ScalarNode> m = new LinkedHashMap<>(c);
                    m.put(axis.getKey(), v);
                    next.add(m);
                }
            }
            combos = next;
        }
        LinkedHashSet<ConfigError> pointErrors = new LinkedHashSet<>();
        LinkedHashSet<String> checkNotes = new LinkedHashSet<>();
        java.util.Set<String> checkedNames = new java.util.HashSet<>();
        List<Point> points = new ArrayList<>();
        Map<String, String> positions = new java.util.HashMap<>();
        for (String key : RECORD_KEYS) {
            Node n = y.node(key);
            if (n != null) {
                positions.put(key, ConfigError.printable(y.file()) + ":" + (n.getStartMark().getLine() + 1) + ":"
                        + (n.getStartMark().getColumn() + 1));
            }
        }
        for (Map<String, ScalarNode> combo : combos) {
            Map<String, Node> workloadOverrides = new LinkedHashMap<>();
            Map<String, String> profileOverrides = new LinkedHashMap<>();
            Map<String, String> brokerSettings = new LinkedHashMap<>();
            Map<String, String> values = new LinkedHashMap<>();
            for (Map.Entry<String, ScalarNode> e : combo.entrySet()) {
                values.put(e.getKey(), e.getValue().getValue());
                if (e.getKey().startsWith(BROKER_PREFIX)) {
                    brokerSettings.put(e.getKey().substring(BROKER_PREFIX.length()), e.getValue().getValue());
                } else if (Workload.KEYS.contains(e.getKey())) {
                    workloadOverrides.put(e.getKey(), e.getValue());
                    positions.putIfAbsent(e.getKey() + "=" + e.getValue().getValue(), ConfigError.printable(y.file()) + ":"
                            + (e.getValue().getStartMark().getLine() + 1) + ":" + (e.getValue().getStartMark().getColumn() + 1));
                } else {
                    profileOverrides.put(e.getKey(), e.getValue().getValue());
                    positions.putIfAbsent(e.getKey() + "=" + e.getValue().getValue(), ConfigError.printable(y.file()) + ":"
                            + (e.getValue().getStartMark().getLine() + 1) + ":" + (e.getValue().getStartMark().getColumn() + 1));
                    ConfigCheck.Finding found = check.checkKey(e.getKey(), e.getValue().getValue());
                    // a finding about the name is said once, at the axis's first value; one about a value at that value
                    if (found != null && (!found.ofName() || checkedNames.add(e.getKey()))) {
                        ConfigError at = new ConfigError(y.file(), e.getValue().getStartMark().getLine() + 1,
                                e.getValue().getStartMark().getColumn() + 1, "matrix: " + found.message());
                        if (found.refused()) {
                            pointErrors.add(at);
                        } else {
                            checkNotes.add(at.toString());
                        }
                    }
                    if (e.getKey().equals("replicationFactor")) {
                        try {
                            Profile.replicationFactor(e.getValue().getValue());
                        } catch (IllegalArgumentException bad) {
                            pointErrors.add(new ConfigError(y.file(), e.getValue().getStartMark().getLine() + 1,
                                    e.getValue().getStartMark().getColumn() + 1, "matrix: " + bad.getMessage()));
                        }
                    }
                    String gbps = e.getKey().equals("networkGbps")
                            ? io.kbench.coordinator.capacity.NetworkCeiling.problem(e.getValue().getValue()) : null;
                    if (gbps != null) {
                        pointErrors.add(new ConfigError(y.file(), e.getValue().getStartMark().getLine() + 1,
                                e.getValue().getStartMark().getColumn() + 1, "matrix: networkGbps " + gbps));
                    }
                }
            }
            List<ConfigError> these = new ArrayList<>();
            Workload w = workloadOverrides.isEmpty() ? base : WorkloadParser.parse(y.with(workloadOverrides, these), path, these);
            pointErrors.addAll(these);
            String label = String.join(", ", values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
            points.add(new Point(label, values, w, profileOverrides, brokerSettings));
        }
        if (!pointErrors.isEmpty()) {
            List<ConfigError> inFileOrder = new ArrayList<>(pointErrors);
            inFileOrder.sort(java.util.Comparator.comparingInt(ConfigError::line).thenComparingInt(ConfigError::column));
            throw new InvalidConfigException(inFileOrder);
        }
        List<String> notes = new ArrayList<>(omb.notes());
        notes.addAll(checkNotes);
        return new Sweep(base, List.copyOf(axes.keySet()), points, notes, omb.findMaxRate(), positions);
    }

    private static Map<String, List<ScalarNode>> axes(YamlMap y, Node matrix) {
        Map<String, List<ScalarNode>> axes = new LinkedHashMap<>();
        if (!(matrix instanceof MappingNode m) || m.getValue().isEmpty()) {
            y.error(matrix, "matrix must map keys to lists of values, e.g. 'producer.acks: [1, all]'");
            return axes;
        }
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                y.error(t.getKeyNode(), "matrix keys must be plain names");
                continue;
            }
            String key = k.getValue();
            if (key.equals("name") || key.equals("matrix")) {
                y.error(k, "matrix cannot vary '" + key + "'");
                continue;
            }
            if (key.startsWith(BROKER_PREFIX)) {
                String name = key.substring(BROKER_PREFIX.length());
                if (!BROKER_CONFIG.matcher(name).matches()) {
                    y.error(k, "matrix key '" + (key.length() > 100 ? key.substring(0, 100) + "..." : key)
                            + "': a broker setting is broker.<name>, the name 1 to 249 of "
                            + "a-z 0-9 . _ - (a Kafka broker config, e.g. broker.num.replica.fetchers)");
                    continue;
                }
                if (Profile.isSecret(name) || name.contains("password") || name.endsWith(".jaas.config")) {
                    y.error(k, "matrix cannot vary " + key + ": its values would be printed in the sweep's table and "
                            + "written to its files");
                    continue;
                }
            } else if (!Workload.KEYS.contains(key)) {
                String problem = Profile.overrideKeyProblem(key);
                if (problem != null) {
                    String near = Names.closest(key, Workload.KEYS);
                    y.error(k, "matrix key " + problem.replace(" is not a profile key;", " is neither a workload key"
                            + (near == null ? "" : " (did you mean '" + near + "'?)") + " nor a profile key;"));
                    continue;
                }
                if (Profile.isSecret(key)) {
                    y.error(k, "matrix cannot vary " + key + ": its values would be printed in the sweep's table and "
                            + "written to its files; give a secret once, with --command-config or the profile");
                    continue;
                }
            }
            if (!(t.getValueNode() instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
                y.error(t.getValueNode(), "matrix." + key + " must be a non-empty list of values, e.g. [1, 2]");
                continue;
            }
            List<ScalarNode> values = new ArrayList<>();
            java.util.Map<String, ScalarNode> seen = new java.util.HashMap<>();
            for (Node v : seq.getValue()) {
                if (v instanceof ScalarNode s) {
                    ScalarNode first = seen.putIfAbsent(sameValue(s.getValue()), s);
                    if (first != null) {
                        // a sweep would run the same combination twice under one label: a typo more often than not
                        String shown = s.getValue().strip();
                        y.error(s, "matrix." + key + " lists " + (shown.length() > 100 ? shown.substring(0, 100) + "..."
                                : shown) + " twice (first at line " + (first.getStartMark().getLine() + 1) + ", column "
                                + (first.getStartMark().getColumn() + 1) + "); give each value once (to measure a "
                                + "combination again, run it again: kbench run --repeat its result.json)");
                        continue;
                    }
                    values.add(s);
                } else {
                    y.error(v, "matrix." + key + " values must be plain values");
                }
            }
            if (axes.put(key, values) != null) {
                y.error(k, "matrix key '" + key + "' appears twice");
            }
        }
        return axes;
    }

    /** What two matrix values are the same by: a number by its value (8192, 08192, 8192.0), other text as written. */
    static String sameValue(String text) {
        String t = text.strip();
        if (t.length() <= 40 && t.matches("[+-]?[0-9]+(\\.[0-9]*)?")) {
            return new java.math.BigDecimal(t).stripTrailingZeros().toPlainString();
        }
        return t;
    }

    /** For tests: the points' labels. */
    List<String> labels() {
        return points.stream().map(Point::label).toList();
    }
}
