package io.kbench.coordinator.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A YAML mapping read with positions, and typed accessors that collect errors as
 * {@code file:line:column: message} instead of failing at the first. Used by the workload and profile
 * loaders: they read every field they know, then call {@link #rejectUnknown} so a typo is an error that
 * names the closest known key.
 *
 * <p>Not thread-safe; one instance per file read. Size: about 410 lines, one typed accessor per kind of value
 * (integer, long, number, boolean, string, list, map, enum) with the same location-keeping pattern; split, the
 * pattern would live in several places.
 */
final class YamlMap {
    private final String file;
    private final Node node;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
    private final List<ConfigError> errors;

    private YamlMap(String file, Node node, List<ConfigError> errors) {
        this.file = file;
        this.node = node;
        this.errors = errors;
        if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k) {
                    if (entries.containsKey(k.getValue())) {
                        error(k, "duplicate key '" + ConfigError.shown(k.getValue()) + "'");
                    }
                    entries.put(k.getValue(), t);
                } else {
                    error(t.getKeyNode(), "keys must be plain names");
                }
            }
        }
    }

    private YamlMap(String file, Node node, List<ConfigError> errors, Map<String, NodeTuple> entries) {
        this.file = file;
        this.node = node;
        this.errors = errors;
        this.entries.putAll(entries);
    }

    /**
     * Parses {@code path} as a YAML mapping. Syntax errors and a top level that is not a mapping are thrown
     * as {@link InvalidConfigException}.
     */
    static YamlMap read(Path path, List<ConfigError> errors) {
        String file = path.toString();
        Node root = YamlText.compose(path);
        if (!(root instanceof MappingNode)) {
            int line = root == null ? 1 : root.getStartMark().getLine() + 1;
            throw new InvalidConfigException(List.of(new ConfigError(file, line, 1,
                    "expected a mapping of keys to values (key: value lines)")));
        }
        return new YamlMap(file, root, errors);
    }

    /** {@code text}, a YAML mapping, named {@code source} in errors (a workload built from a command's options). */
    static YamlMap of(String source, String text, List<ConfigError> errors) {
        Node root = YamlText.compose(source, text);
        if (!(root instanceof MappingNode)) {
            throw new InvalidConfigException(List.of(new ConfigError(source, 1, 1,
                    "expected a mapping of keys to values (key: value lines)")));
        }
        return new YamlMap(source, root, errors);
    }

    String file() {
        return file;
    }

    /** The value node of {@code key}, or null. */
    Node node(String key) {
        NodeTuple t = entries.get(key);
        return t == null ? null : t.getValueNode();
    }

    /** Removes {@code key} (read separately, e.g. the matrix). */
    void remove(String key) {
        entries.remove(key);
    }

    /**
     * A copy whose {@code key} has {@code value} (a node from elsewhere in the file, so errors about it point
     * at it), collecting errors into {@code into}.
     */
    YamlMap with(Map<String, Node> overrides, List<ConfigError> into) {
        YamlMap copy = new YamlMap(file, node, into, entries);
        overrides.forEach((k, v) -> {
            NodeTuple old = entries.get(k);
            copy.entries.put(k, new NodeTuple(old != null ? old.getKeyNode() : v, v));
        });
        return copy;
    }

    /**
     * Puts {@code key} with {@code value} in place of {@code from} (removed), keeping {@code from}'s key position
     * for errors: a translated file reports problems where the user wrote them.
     */
    void rename(String from, String key, Node value) {
        NodeTuple old = entries.remove(from);
        entries.put(key, new NodeTuple(old != null ? old.getKeyNode() : value, value));
    }

    /** A plain scalar at {@code at}'s position (a translated value, reported where the original was). */
    static ScalarNode scalar(String value, Node at) {
        return new ScalarNode(Tag.STR, value, at.getStartMark(), at.getEndMark(), DumperOptions.ScalarStyle.PLAIN);
    }

    /** The keys present, in file order. */
    java.util.Set<String> keys() {
        return java.util.Collections.unmodifiableSet(entries.keySet());
    }

    boolean has(String key) {
        return entries.containsKey(key);
    }

    /** Reports a problem at a node's position. */
    void error(Node at, String message) {
        Mark m = at.getStartMark();
        errors.add(new ConfigError(file, m.getLine() + 1, m.getColumn() + 1, message));
    }

    /** Position of a key, for errors about the combination of fields. */
    void errorAt(String key, String message) {
        NodeTuple t = entries.get(key);
        error(t != null ? t.getKeyNode() : node, message);
    }

    String string(String key, String fallback) {
        NodeTuple t = entries.get(key);
        if (t == null) {
            return fallback;
        }
        if (t.getValueNode() instanceof ScalarNode s && !s.getValue().isEmpty() && !s.getTag().equals(Tag.NULL)) {
            return s.getValue();
        }
        error(t.getValueNode(), key + " must be a non-empty string");
        return fallback;
    }

    long integer(String key, long fallback, long min, long max, String allowed) {
        NodeTuple t = entries.get(key);
        if (t == null) {
            return fallback;
        }
        if (t.getValueNode() instanceof ScalarNode s) {
            if (quoted(s)) {
                error(s, key + " must be a whole number (" + allowed + "), not the quoted text '" + ConfigError.shown(s.getValue())
                        + "'; remove the quotes");
                return fallback;
            }
            String v = s.getValue().replace("_", "");
            try {
                long n = Long.parseLong(v);
                if (n >= min && n <= max) {
                    return n;
                }
                error(s, key + " is " + n + "; allowed: " + allowed);
                return fallback;
            } catch (NumberFormatException e) {
                error(s, key + " must be a whole number (" + allowed + "), got '" + ConfigError.shown(s.getValue()) + "'");
                return fallback;
            }
        }
        error(t.getValueNode(), key + " must be a whole number (" + allowed + ")");
        return fallback;
    }

    double decimal(String key, double fallback, double min, double max, String allowed) {
        NodeTuple t = entries.get(key);
        if (t == null) {
            return fallback;
        }
        if (t.getValueNode() instanceof ScalarNode s) {
            if (quoted(s)) {
                error(s, key + " must be a number (" + allowed + "), not the quoted text '" + ConfigError.shown(s.getValue())
                        + "'; remove the quotes");
                return fallback;
            }
            try {
                if (!DECIMAL.matcher(s.getValue()).matches()) {
                    throw new NumberFormatException(s.getValue());
                }
                double d = Double.parseDouble(s.getValue().replace("_", ""));
                if (d >= min && d <= max) {
                    return d;
                }
                error(s, key + " is " + ConfigError.shown(s.getValue()) + "; allowed: " + allowed);
                return fallback;
            } catch (NumberFormatException e) {
                error(s, key + " must be a number (" + allowed + "), got '" + ConfigError.shown(s.getValue()) + "'");
                return fallback;
            }
        }
        error(t.getValueNode(), key + " must be a number (" + allowed + ")");
        return fallback;
    }

    boolean bool(String key, boolean fallback) {
        NodeTuple t = entries.get(key);
        if (t == null) {
            return fallback;
        }
        if (t.getValueNode() instanceof ScalarNode s && !quoted(s)
                && (s.getValue().equals("true") || s.getValue().equals("false"))) {
            return Boolean.parseBoolean(s.getValue());
        }
        error(t.getValueNode(), key + " must be true or false" + (t.getValueNode() instanceof ScalarNode s && quoted(s)
                ? ", without quotes" : ""));
        return fallback;
    }

    /** A list of non-empty strings, e.g. {@code [a, b]}; null when the key is absent. */
    List<String> strings(String key) {
        NodeTuple t = entries.get(key);
        if (t == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (t.getValueNode() instanceof org.yaml.snakeyaml.nodes.SequenceNode seq && !seq.getValue().isEmpty()) {
            for (Node n : seq.getValue()) {
                if (n instanceof ScalarNode s && !s.getValue().isEmpty()) {
                    out.add(s.getValue());
                } else {
                    error(n, key + " must list plain, non-empty names");
                }
            }
            return out;
        }
        error(t.getValueNode(), key + " must be a non-empty list, e.g. [orders, payments]");
        return out;
    }

    /**
     * A list of mappings, e.g. {@code [{at: 10, action: stop}]}, each read like a file's top level (positions
     * and errors included); null when the key is absent.
     */
    List<YamlMap> mappings(String key, String example) {
        NodeTuple t = entries.get(key);
        if (t == null) {
            return null;
        }
        List<YamlMap> out = new ArrayList<>();
        if (t.getValueNode() instanceof org.yaml.snakeyaml.nodes.SequenceNode seq && !seq.getValue().isEmpty()) {
            for (Node n : seq.getValue()) {
                if (n instanceof MappingNode) {
                    out.add(new YamlMap(file, n, errors));
                } else {
                    error(n, key + " must list mappings, e.g. " + example);
                }
            }
            return out;
        }
        error(t.getValueNode(), key + " must be a non-empty list of mappings, e.g. " + example);
        return out;
    }

    /** The node this map was read from (for errors about the whole mapping). */
    Node node() {
        return node;
    }

    /** One of {@code allowed} (exact spelling); reports the closest on a miss. */
    String choice(String key, String fallback, List<String> allowed) {
        String v = string(key, fallback);
        if (v != null && !allowed.contains(v)) {
            String near = Names.closest(v, allowed);
            errorAt(key, key + " '" + v + "' is not known" + (near == null ? "" : " (did you mean '" + near + "'?)")
                    + "; allowed: " + String.join(", ", allowed));
            return fallback;
        }
        return v;
    }

    /** Position of a key's value, for errors about it. */
    void errorAtValue(String key, String message) {
        NodeTuple t = entries.get(key);
        error(t != null ? t.getValueNode() : node, message);
    }

    /** {@code message} at entry {@code entry} of the mapping under {@code key}, not reported (a note). */
    ConfigError atEntry(String key, String entry, String message) {
        Mark m = entryNode(key, entry).getStartMark();
        return new ConfigError(file, m.getLine() + 1, m.getColumn() + 1, message);
    }

    /** Reports {@code message} at entry {@code entry} of the mapping under {@code key} (at the mapping if not found). */
    void errorAtEntry(String key, String entry, String message) {
        error(entryNode(key, entry), message);
    }

    /** The key node of entry {@code entry} of the mapping under {@code key}; else the value under key, else the file's. */
    private Node entryNode(String key, String entry) {
        NodeTuple t = entries.get(key);
        if (t != null && t.getValueNode() instanceof MappingNode m) {
            for (NodeTuple p : m.getValue()) {
                if (p.getKeyNode() instanceof ScalarNode k && k.getValue().equals(entry)) {
                    return k;
                }
            }
        }
        return t != null ? t.getValueNode() : node;
    }

    /** A mapping of names to scalar values (client properties), values as strings. */
    Map<String, String> properties(String key) {
        Map<String, String> out = new LinkedHashMap<>();
        NodeTuple t = entries.get(key);
        if (t == null) {
            return out;
        }
        if (!(t.getValueNode() instanceof MappingNode m)) {
            if (t.getValueNode() instanceof ScalarNode s && (s.getValue().isEmpty() || s.getValue().equals("null"))) {
                return out;
            }
            error(t.getValueNode(), key + " must be a mapping of property names to values");
            return out;
        }
        for (NodeTuple p : m.getValue()) {
            if (p.getKeyNode() instanceof ScalarNode k && p.getValueNode() instanceof ScalarNode v) {
                if (v.getTag().equals(Tag.NULL)) {
                    error(k, key + "." + ConfigError.shown(k.getValue())
                            + " has no value; give one (e.g. " + ConfigError.shown(k.getValue()) + ": 1) or remove the line");
                    continue;
                }
                if (out.containsKey(k.getValue())) {
                    error(k, key + "." + ConfigError.shown(k.getValue()) + " is set twice");
                }
                out.put(k.getValue(), v.getValue());
            } else {
                error(p.getKeyNode(), key + ": each property must be 'name: value' with a plain value");
            }
        }
        return out;
    }

    /** A YAML number as the JSON Schema's "number": decimal digits, optional fraction and exponent. */
    private static final java.util.regex.Pattern DECIMAL =
            java.util.regex.Pattern.compile("[-+]?([0-9][0-9_]*)?(\\.[0-9_]*)?([eE][-+]?[0-9]+)?");

    /** True for a quoted scalar ('5000' or "5000"): text, not a number or boolean. */
    private static boolean quoted(ScalarNode s) {
        return s.getScalarStyle() != DumperOptions.ScalarStyle.PLAIN;
    }

    /** Reports every key not in {@code known}, suggesting the closest known one. */
    /**
     * As {@link #rejectUnknown(Collection, String)}, knowing the keys of the other kind of file: a key of that
     * kind is named as such, on its own line; a file made of the other kind's keys only is one error saying
     * which file it is and where it goes.
     *
     * @param otherWhat  the other kind, e.g. "driver profile"
     * @param moveHint   where such a key goes, e.g. "put it in the profile given with --driver"
     * @param fileHint   where such a file goes, e.g. "give it with --driver"
     */
    void rejectUnknown(Collection<String> known, String what, Collection<String> otherKnown, String otherWhat,
                       String moveHint, String fileHint) {
        List<String> other = new ArrayList<>();
        boolean own = false;
        for (String k : entries.keySet()) {
            if (!k.equals("name") && known.contains(k)) {
                own = true;
            } else if (!known.contains(k) && otherKnown.contains(k)) {
                other.add(k);
            }
        }
        if (!own && other.size() >= 2 && other.size() == entries.keySet().stream().filter(k -> !known.contains(k)).count()) {
            // the wrong file: what else this loader found wrong with it is noise
            errors.removeIf(e -> e.file().equals(file));
            error(entries.get(other.get(0)).getKeyNode(), "this file is a " + otherWhat + ", not a " + what + " (its keys "
                    + String.join(", ", other.subList(0, Math.min(3, other.size())))
                    + (other.size() > 3 ? " and " + (other.size() - 3) + " more" : "") + " are " + otherWhat + " keys); "
                    + fileHint);
            return;
        }
        for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
            if (!known.contains(e.getKey()) && other.contains(e.getKey())) {
                String near = Names.closest(e.getKey(), known);
                error(e.getValue().getKeyNode(), "'" + ConfigError.shown(e.getKey()) + "' is a " + otherWhat + " key, not a " + what
                        + " key" + (near == null ? "" : " (or did you mean '" + near + "'?)") + ": " + moveHint);
            }
        }
        List<String> rest = new ArrayList<>(known);
        rest.addAll(other); // reported above
        rejectUnknown(rest, what, known);
    }

    void rejectUnknown(Collection<String> known, String what) {
        rejectUnknown(known, what, known);
    }

    /** @param allowed the keys the message lists as allowed */
    private void rejectUnknown(Collection<String> skip, String what, Collection<String> allowed) {
        Collection<String> known = skip;
        for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
            if (!known.contains(e.getKey())) {
                String near = Names.closest(e.getKey(), allowed);
                error(e.getValue().getKeyNode(), "unknown " + what + " key '" + ConfigError.shown(e.getKey()) + "'"
                        + (near == null ? "" : " (did you mean '" + near + "'?)") + "; allowed: "
                        + String.join(", ", new ArrayList<>(allowed)));
            }
        }
    }
}
