package io.kbench.coordinator.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * OpenMessaging Benchmark's files, read as they are: a workload file (recognized by a key only OMB has, such as
 * {@code consumerPerSubscription} or {@code testDurationMinutes}) and a Kafka driver file (recognized by
 * {@code driverClass}) are translated key by key into kbench's, in place, before kbench's own validation runs;
 * a translated value keeps the position of what the user wrote, so errors point into the OMB file. Each
 * translation is noted once, for stderr. The table of every key is in docs/workloads.md.
 */
final class OmbFiles {
    /** The distinct keys OMB's KeyDistributor draws from (its UNIQUE_COUNT). */
    static final int OMB_KEYS = 10_000;

    /** Keys only OMB workloads have. */
    static final List<String> WORKLOAD_MARKERS = List.of("consumerPerSubscription", "testDurationMinutes",
            "warmupDurationMinutes", "keyDistributor", "consumerBacklogSizeGB", "useRandomizedPayloads",
            "randomizedPayloadPoolSize", "backlogDrainRatio");

    /** OMB's Kafka driver. */
    static final String KAFKA_DRIVER = "io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver";

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,99}");

    /**
     * What translating an OMB file said.
     *
     * @param notes       one line per key translated (or ignored), for stderr
     * @param findMaxRate OMB's {@code producerRate: 0}: search for the highest sustainable rate
     */
    record Translation(List<String> notes, boolean findMaxRate) {
        static final Translation NONE = new Translation(List.of(), false);
    }

    private OmbFiles() { }

    static boolean isOmbWorkload(YamlMap y) {
        return WORKLOAD_MARKERS.stream().anyMatch(y::has);
    }

    static boolean isOmbDriver(YamlMap y) {
        return y.has("driverClass");
    }

    /** Translates an OMB workload in {@code y} into kbench's keys; problems go to {@code y}'s errors. */
    static Translation workload(YamlMap y, Path file) {
        List<String> notes = new ArrayList<>();
        String where = file.getFileName() + ": OMB workload: ";
        Node nameNode = y.node("name");
        if (nameNode instanceof ScalarNode n && !NAME.matcher(n.getValue()).matches()) {
            String slug = n.getValue().replaceAll("[^A-Za-z0-9._+-]+", "-").replaceAll("^[-._+]+|-+$", "");
            slug = slug.isEmpty() ? "omb-workload" : slug.substring(0, Math.min(100, slug.length()));
            y.rename("name", "name", YamlMap.scalar(slug, n));
            notes.add(where + "name '" + n.getValue() + "' -> '" + slug + "' (kbench names its result directories after it)");
        }
        rename(y, "consumerPerSubscription", "consumersPerSubscription", 1, notes, where);
        minutes(y, "testDurationMinutes", "durationSeconds", notes, where);
        if (y.has("warmupDurationMinutes")) {
            minutes(y, "warmupDurationMinutes", "warmupSeconds", notes, where);
        } else if (!y.has("warmupSeconds") && y.has("durationSeconds")) {
            y.rename("warmupSeconds", "warmupSeconds", YamlMap.scalar("60", y.node("durationSeconds")));
            notes.add(where + "no warmupDurationMinutes: OMB's default warm-up of 1 minute -> warmupSeconds: 60");
        }
        Node kd = y.node("keyDistributor");
        if (kd instanceof ScalarNode k) {
            String to = switch (k.getValue()) {
                case "NO_KEY" -> "none";
                case "KEY_ROUND_ROBIN" -> "roundRobin";
                case "RANDOM_NANO" -> "random";
                default -> null;
            };
            if (to == null) {
                y.error(k, "keyDistributor '" + ConfigError.shown(k.getValue()) + "' is not one of OMB's: NO_KEY, KEY_ROUND_ROBIN, RANDOM_NANO");
                y.remove("keyDistributor");
            } else {
                y.rename("keyDistributor", "keyDistribution", YamlMap.scalar(to, k));
                String keys = "";
                if (!to.equals("none") && !y.has("keys")) {
                    // OMB's KeyDistributor draws from 10,000 keys (UNIQUE_COUNT); kbench's default is 1,000, which
                    // spreads less evenly over many partitions
                    y.rename("keys", "keys", YamlMap.scalar(Integer.toString(OMB_KEYS), k));
                    keys = ", keys: " + OMB_KEYS + " (OMB's distinct keys)";
                }
                notes.add(where + "keyDistributor: " + k.getValue() + " -> keyDistribution: " + to + keys);
            }
        }
        Node backlog = y.node("consumerBacklogSizeGB");
        if (backlog instanceof ScalarNode b) {
            long gb = parse(y, b, "consumerBacklogSizeGB", 0, 1_000_000);
            if (gb == 0) {
                y.remove("consumerBacklogSizeGB");
            } else if (gb > 0) {
                y.rename("consumerBacklogSizeGB", "consumerBacklogBytes", YamlMap.scalar(Long.toString(gb << 30), b));
                notes.add(where + "consumerBacklogSizeGB: " + gb + " -> consumerBacklogBytes: " + (gb << 30));
            } else {
                y.remove("consumerBacklogSizeGB");
            }
        }
        payload(y, notes, where);
        List<String> ignoredKeys = new java.util.ArrayList<>(List.of("randomizedPayloadPoolSize", "backlogDrainRatio"));
        // in the file's order: a refusal lists its problems as the file has them
        ignoredKeys.sort(java.util.Comparator.comparingInt(k -> y.node(k) == null ? 0 : y.node(k).getStartMark().getLine()));
        for (String ignored : ignoredKeys) {
            Node value = y.node(ignored);
            if (value != null && !ombNumber(value, ignored.startsWith("random"))) {
                // a value OMB itself would refuse: the file is not an OMB workload, whatever kbench does with the key
                y.error(value, ignored + " must be " + (ignored.startsWith("random") ? "a whole number >= 0" : "a number "
                        + ">= 0") + " (OMB's type; kbench ignores the key), got " + (value instanceof ScalarNode v
                        ? "'" + ConfigError.shown(v.getValue()) + "'" : "a " + (value instanceof org.yaml.snakeyaml.nodes
                        .SequenceNode ? "list" : "map")));
                y.remove(ignored);
            } else if (value != null) {
                notes.add(where + ignored + " has no kbench equivalent and is ignored (" + (ignored.startsWith("random")
                        ? "kbench generates values per producer" : "kbench's consumers read a backlog as fast as they can")
                        + ")");
                y.remove(ignored);
            }
        }
        boolean search = false;
        Node rate = y.node("producerRate");
        if (rate instanceof ScalarNode r && r.getValue().strip().equals("0")) {
            y.remove("producerRate");
            search = true;
            notes.add(where + "producerRate: 0 (OMB's adaptive rate) -> the max-rate search (--find-max-rate)");
        }
        return new Translation(List.copyOf(notes), search);
    }

    /**
     * OMB's payload: {@code payloadFile} (relative to the current directory) holds one message value, sent as it
     * is; {@code useRandomizedPayloads} with {@code randomBytesRatio} generates values instead. kbench's
     * payloadFile splits a text file into values, so an OMB payload file becomes generated values of its size.
     */
    private static void payload(YamlMap y, List<String> notes, String where) {
        boolean randomized = y.has("useRandomizedPayloads") && y.node("useRandomizedPayloads") instanceof ScalarNode u
                && u.getValue().equalsIgnoreCase("true");
        if (y.has("useRandomizedPayloads")) {
            notes.add(where + "useRandomizedPayloads: " + randomized + " -> generated values" + (y.has("randomBytesRatio")
                    ? " (randomBytesRatio as in OMB: the random fraction of each value)" : ""));
        }
        y.remove("useRandomizedPayloads");
        Node pf = y.node("payloadFile");
        if (!(pf instanceof ScalarNode f)) {
            return;
        }
        y.remove("payloadFile");
        if (randomized) {
            notes.add(where + "payloadFile " + f.getValue() + " unused with useRandomizedPayloads, as in OMB");
            return;
        }
        Path p;
        try {
            p = Path.of(f.getValue()).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            y.error(f, "payloadFile is not a path this system takes (" + e.getReason() + ")");
            return;
        }
        if (Files.isDirectory(p)) {
            y.error(f, "payloadFile " + p + " is a directory; OMB's payloadFile is the file of one message value");
            return;
        }
        try {
            long size = Files.size(p);
            if (size < 1 || size > 100L * 1024 * 1024) {
                y.error(f, "payloadFile " + p + " holds " + size + " bytes; a message value of 1 to 104857600 bytes");
                return;
            }
            y.rename("messageSize", "messageSize", YamlMap.scalar(Long.toString(size), f));
            if (y.has("randomBytesRatio")) {
                y.remove("randomBytesRatio");
            }
            notes.add(where + "payloadFile " + f.getValue() + " (OMB sends its " + size + " bytes as every message) -> "
                    + "generated random values of messageSize " + size + " (each as incompressible as OMB's shipped "
                    + "payload files, but distinct: OMB's one payload in every message compresses across a batch when "
                    + "the producers compress; kbench's own payloadFile splits a text file into values)");
        } catch (java.io.IOException e) {
            y.error(f, "payloadFile " + p + " not found (OMB reads it relative to the current directory, "
                    + Path.of("").toAbsolutePath() + ")");
        }
    }

    private static void rename(YamlMap y, String from, String to, long min, List<String> notes, String where) {
        if (y.has(from)) {
            if (y.has(to)) {
                y.errorAt(from, from + " (OMB) and " + to + " (kbench) both given; keep one");
                y.remove(from);
                return;
            }
            y.rename(from, to, y.node(from));
            notes.add(where + from + " -> " + to);
        }
    }

    private static void minutes(YamlMap y, String from, String to, List<String> notes, String where) {
        Node n = y.node(from);
        if (!(n instanceof ScalarNode s)) {
            if (n != null) {
                y.error(n, from + " must be a whole number of minutes");
                y.remove(from);
            }
            return;
        }
        if (y.has(to)) {
            y.errorAt(from, from + " (OMB) and " + to + " (kbench) both given; keep one");
            y.remove(from);
            return;
        }
        long m = parse(y, s, from, 0, 10_080);
        y.remove(from);
        if (m < 0) {
            // reported: stand in for it, so that kbench's own checks do not add "no duration" to the error
            y.rename(to, to, YamlMap.scalar(to.equals("durationSeconds") ? "1" : "0", s));
        } else {
            if (m == 0 && to.equals("durationSeconds")) {
                y.error(s, from + " is 0; allowed: 1 to 10080 minutes");
                y.rename(to, to, YamlMap.scalar("1", s));
                return;
            }
            y.rename(to, to, YamlMap.scalar(Long.toString(m * 60), s));
            notes.add(where + from + ": " + m + " -> " + to + ": " + m * 60);
        }
    }

    /** A whole number in {@code [min, max]}, or -1 after reporting why not. */
    private static long parse(YamlMap y, ScalarNode s, String key, long min, long max) {
        try {
            long v = Long.parseLong(s.getValue().strip().replace("_", ""));
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        y.error(s, key + " must be a whole number from " + min + " to " + max + ", got '" + ConfigError.shown(s.getValue()) + "'");
        return -1;
    }

    /** Translates an OMB Kafka driver file in {@code y} into kbench's profile keys. */
    static Translation driver(YamlMap y, Path file) {
        List<String> notes = new ArrayList<>();
        String where = file.getFileName() + ": OMB driver: ";
        Node dc = y.node("driverClass");
        if (dc instanceof ScalarNode c && c.getValue().equals(KAFKA_DRIVER)) {
            y.rename("driverClass", "driver", YamlMap.scalar("kafka", c));
            notes.add(where + "driverClass " + KAFKA_DRIVER + " -> driver: kafka");
        } else {
            y.error(dc, (dc instanceof ScalarNode c ? "driverClass '" + ConfigError.shown(c.getValue()) + "':"
                    : "driverClass must be a class name;") + " kbench drives Kafka; allowed: " + KAFKA_DRIVER);
            y.remove("driverClass");
        }
        Node reset = y.node("reset");
        if (reset != null) {
            y.remove("reset");
            notes.add(where + "reset ignored: kbench creates fresh topics for every run and deletes them afterwards "
                    + "(--keep-topics keeps them)");
        }
        for (String[] section : new String[][] {{"topicConfig", "topic"}, {"commonConfig", "common"},
            {"producerConfig", "producer"}, {"consumerConfig", "consumer"}}) {
            Node n = y.node(section[0]);
            if (n == null) {
                continue;
            }
            if (!(n instanceof ScalarNode text)) {
                y.error(n, section[0] + " must be Java properties text (key=value lines), as OMB reads it");
                y.remove(section[0]);
                continue;
            }
            List<NodeTuple> props = new ArrayList<>();
            String bootstrap = null;
            Node bootstrapAt = null;
            String[] lines = text.getValue().split("\n", -1);
            // a block scalar's text starts on the line after its indicator
            int firstLine = text.getScalarStyle() == DumperOptions.ScalarStyle.LITERAL
                    || text.getScalarStyle() == DumperOptions.ScalarStyle.FOLDED
                    ? text.getStartMark().getLine() + 1 : text.getStartMark().getLine();
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
                    continue;
                }
                Mark at = new Mark(y.file(), 0, firstLine + i, text.getStartMark().getColumn(), new int[0], 0);
                int eq = indexOfSeparator(line);
                String key = (eq < 0 ? line : line.substring(0, eq)).strip();
                String value = eq < 0 ? "" : line.substring(eq + 1).strip();
                ScalarNode k = new ScalarNode(Tag.STR, key, at, at, DumperOptions.ScalarStyle.PLAIN);
                if (value.isEmpty()) {
                    y.error(k, section[0] + ": " + key + " has no value");
                    continue;
                }
                if (section[1].equals("common") && key.equals("bootstrap.servers")) {
                    bootstrap = value;
                    bootstrapAt = k;
                    continue;
                }
                props.add(new NodeTuple(k, new ScalarNode(Tag.STR, value, at, at, DumperOptions.ScalarStyle.PLAIN)));
            }
            y.rename(section[0], section[1], new MappingNode(Tag.MAP, props, DumperOptions.FlowStyle.BLOCK));
            notes.add(where + section[0] + " -> " + section[1] + " (" + props.size() + " propert"
                    + (props.size() == 1 ? "y" : "ies") + ")");
            if (bootstrap != null) {
                if (y.has("bootstrap.servers")) {
                    y.error(bootstrapAt, "bootstrap.servers given twice (commonConfig and the top level)");
                } else {
                    y.rename("bootstrap.servers", "bootstrap.servers", YamlMap.scalar(bootstrap, bootstrapAt));
                    notes.add(where + "commonConfig bootstrap.servers=" + bootstrap + " -> bootstrap.servers (--bootstrap-"
                            + "servers overrides it)");
                }
            }
        }
        return new Translation(List.copyOf(notes), false);
    }

    /** Where a properties line's key ends: the first unescaped '=' or ':' (Java properties). */
    private static int indexOfSeparator(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '=' || c == ':') {
                return i;
            }
        }
        return -1;
    }

    /** True when {@code n} is what OMB's Workload field takes: a whole number (or any number) >= 0. */
    private static boolean ombNumber(Node n, boolean whole) {
        if (!(n instanceof ScalarNode s)) {
            return false;
        }
        String v = s.getValue().strip();
        try {
            if (whole) {
                return Long.parseLong(v) >= 0;
            }
            double d = Double.parseDouble(v);
            return Double.isFinite(d) && d >= 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
