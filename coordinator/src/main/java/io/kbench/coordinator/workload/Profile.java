package io.kbench.coordinator.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A driver profile: how clients are tuned and where the cluster is. Maps are passed to the Kafka clients and
 * to topic creation as they are.
 *
 * @param name              a name for reports
 * @param driver            driver name ("kafka")
 * @param bootstrapServers  the cluster, or null when not set (then {@code --bootstrap-servers} or the
 *                          embedded broker supplies it)
 * @param replicationFactor replication factor of created topics
 * @param common            properties for every client (security settings)
 * @param producer          producer properties
 * @param consumer          consumer properties
 * @param admin             admin-client properties
 * @param topic             topic configs
 * @param networkGbps       each broker's network link in Gbit/s each way, for the "theoretical maximum" line
 *                          ({@link io.kbench.coordinator.capacity.NetworkCeiling}); 0 when not given
 */
public record Profile(String name, String driver, String bootstrapServers, int replicationFactor,
                      Map<String, String> common, Map<String, String> producer, Map<String, String> consumer,
                      Map<String, String> admin, Map<String, String> topic, double networkGbps) {

    /** The keys a profile file may contain. */
    public static final List<String> KEYS = List.of("name", "driver", "bootstrap.servers", "replicationFactor",
            "common", "producer", "consumer", "admin", "topic", "networkGbps");

    /**
     * Names that look secret beyond Kafka's own list ({@link #KAFKA_SECRET_KEYS}): other clients' and tools'
     * conventions — Schema Registry's {@code basic.auth.user.info}, {@code bearer.auth.token}, API keys.
     */
    private static final Pattern SECRET = Pattern.compile(
            "(?i).*(password|passwd|passphrase|secret|jaas\\.config|token|credential|user\\.info|auth\\.info"
                    + "|api[._-]?key|\\.key$|private).*");
    /** The PASSWORD-typed properties of Kafka's clients (resource {@code secret-keys.txt}). */
    static final java.util.Set<String> KAFKA_SECRET_KEYS = readSecretKeys();
    /** What a secret's value is replaced with in anything kbench prints or writes. */
    public static final String REDACTED = "[redacted]";

    public Profile {
        common = Map.copyOf(common);
        producer = Map.copyOf(producer);
        consumer = Map.copyOf(consumer);
        admin = Map.copyOf(admin);
        topic = Map.copyOf(topic);
    }

    /** The profile used when none is given: Kafka's client defaults, replication factor 1. */
    public static Profile defaults() {
        return new Profile("default", "kafka", null, 1, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), 0);
    }

    /** This profile with another cluster address. */
    public Profile withBootstrapServers(String servers) {
        return new Profile(name, driver, servers, replicationFactor, common, producer, consumer, admin, topic, networkGbps);
    }

    /**
     * Reads and validates a profile file.
     *
     * @throws InvalidConfigException listing every problem with its {@code file:line:column}
     */
    public static Profile load(Path path) {
        return load(path, note -> { });
    }

    /**
     * Reads and validates a profile file, or an OpenMessaging Benchmark Kafka driver file (recognized by its
     * {@code driverClass}), whose translated keys are handed to {@code notes} one line each.
     *
     * @throws InvalidConfigException listing every problem with its {@code file:line:column}
     */
    public static Profile load(Path path, java.util.function.Consumer<String> notes) {
        return load(path, notes, ConfigCheck.NONE);
    }

    /**
     * As {@link #load(Path, java.util.function.Consumer)}, the client sections' settings held against the driver's
     * config definitions too ({@link ConfigCheck}): a refused one is an error at its position, a name the
     * client does not define a note ({@code file:line:column: ...}).
     */
    public static Profile load(Path path, java.util.function.Consumer<String> notes, ConfigCheck check) {
        List<ConfigError> errors = new ArrayList<>();
        YamlMap y = YamlMap.read(path, errors);
        if (OmbFiles.isOmbDriver(y)) {
            OmbFiles.driver(y, path).notes().forEach(notes);
        }
        List<ConfigError> found = new ArrayList<>();
        Profile p = parse(y, path.getFileName().toString().replaceFirst("\\.ya?ml$", ""), errors, check, found);
        found.forEach(n -> notes.accept(n.toString()));
        return p;
    }

    /**
     * A profile from keys given in code (a recorded result's profile), read with the same checks and defaults as a
     * file's; {@code source} names their origin in any error.
     *
     * @param keys profile keys ({@link #KEYS}) to values; the sections as maps of property to value
     * @throws InvalidConfigException listing every problem as {@code source: message}
     */
    public static Profile of(String source, Map<String, ?> keys) {
        List<ConfigError> errors = new ArrayList<>();
        try {
            return parse(YamlMap.of(source, YamlText.dump(keys), errors), "profile", errors, ConfigCheck.NONE,
                    new ArrayList<>());
        } catch (InvalidConfigException e) {
            throw ConfigError.positionless(e);
        }
    }

    /**
     * @param check held against the client sections' settings: refused ones are errors, the others' findings go to
     *              {@code found}, in the file's order
     */
    private static Profile parse(YamlMap y, String defaultName, List<ConfigError> errors, ConfigCheck check,
                                 List<ConfigError> found) {
        String name = y.string("name", defaultName);
        if (name.chars().anyMatch(Character::isISOControl)) {
            // printed on the console and in every report: an escape sequence there would reach the terminal
            y.errorAtValue("name", "name must be printable text, without control characters, got '"
                    + ConfigError.excerpt(name) + "'");
        }
        String driver = y.string("driver", "kafka");
        if (!driver.equals("kafka")) {
            y.errorAt("driver", "unknown driver '" + driver + "'; allowed: kafka");
        }
        String bootstrap = y.string("bootstrap.servers", null);
        if (bootstrap != null && Addresses.listProblem(bootstrap) != null) {
            y.errorAtValue("bootstrap.servers", "bootstrap.servers: " + Addresses.listProblem(bootstrap));
        }
        int rf = (int) y.integer("replicationFactor", 1, 1, 32_767, "1 to 32767");
        double gbps = y.decimal("networkGbps", 0, Double.MIN_VALUE, io.kbench.coordinator.capacity.NetworkCeiling.MAX_GBPS,
                "a broker's link in Gbit/s, above 0 and at most "
                        + io.kbench.coordinator.capacity.NetworkCeiling.number(io.kbench.coordinator.capacity.NetworkCeiling.MAX_GBPS));
        Map<String, String> common = y.properties("common");
        Map<String, String> producer = y.properties("producer");
        Map<String, String> consumer = y.properties("consumer");
        Map<String, String> admin = y.properties("admin");
        Map<String, String> topic = y.properties("topic");
        for (String forbidden : List.of("key.serializer", "value.serializer")) {
            if (producer.containsKey(forbidden)) {
                y.errorAt("producer", "producer." + forbidden + " is set by kbench (byte arrays); remove it");
            }
        }
        for (String forbidden : List.of("key.deserializer", "value.deserializer", "group.id")) {
            if (consumer.containsKey(forbidden)) {
                y.errorAt("consumer", "consumer." + forbidden + " is set by kbench; remove it");
            }
        }
        if (common.containsKey("bootstrap.servers")) {
            y.errorAt("common", "put bootstrap.servers at the top level of the profile, not under common");
        }
        for (String forbidden : List.of("key.serializer", "value.serializer", "key.deserializer", "value.deserializer",
                "group.id")) {
            if (common.containsKey(forbidden)) {
                y.errorAt("common", "common." + forbidden + " is set by kbench; remove it");
            }
        }
        y.rejectUnknown(KEYS, "profile", Workload.KEYS, "workload",
                "put it in the workload file", "give it as the WORKLOAD argument, and a profile (deployment/kafka/*.yaml) "
                        + "with --driver");
        Map<String, Map<String, String>> sections = Map.of("producer", producer, "consumer", consumer, "admin", admin,
                "common", common, "topic", topic);
        for (String section : ConfigCheck.SECTIONS) {
            sections.get(section).forEach((key, value) -> {
                ConfigCheck.Finding f = check.check(section, key, value);
                if (f != null && f.refused()) {
                    y.errorAtEntry(section, key, f.message());
                } else if (f != null) {
                    found.add(y.atEntry(section, key, f.message()));
                }
            });
        }
        java.util.Comparator<ConfigError> inFileOrder = java.util.Comparator.comparingInt(ConfigError::line)
                .thenComparingInt(ConfigError::column);
        found.sort(inFileOrder);
        if (!errors.isEmpty()) {
            errors.sort(inFileOrder);
            throw new InvalidConfigException(errors);
        }
        return new Profile(name, driver, bootstrap, rf, common, producer, consumer, admin, topic, gbps);
    }

    /** Sections a dotted override key may start with, e.g. {@code producer.batch.size}. */
    public static final List<String> SECTIONS = List.of("producer", "consumer", "admin", "topic", "common");

    /**
     * Why {@code key} cannot be overridden ({@code --set} or a sweep's matrix), or null when it can:
     * {@code replicationFactor}, {@code bootstrap.servers}, {@code networkGbps}, or {@code <section>.<property>}.
     */
    public static String overrideKeyProblem(String key) {
        if (key.equals("replicationFactor") || key.equals("bootstrap.servers") || key.equals("networkGbps")) {
            return null;
        }
        int dot = key.indexOf('.');
        String section = dot < 0 ? key : key.substring(0, dot);
        if (dot < 0 || dot == key.length() - 1 || !SECTIONS.contains(section)) {
            return "'" + key + "' is not a profile key; allowed: replicationFactor, bootstrap.servers, networkGbps, or "
                    + String.join(".<property>, ", SECTIONS) + ".<property>";
        }
        String property = key.substring(dot + 1);
        if ((section.equals("producer") || section.equals("common")) && property.endsWith(".serializer")
                || (section.equals("consumer") || section.equals("common"))
                        && (property.endsWith(".deserializer") || property.equals("group.id"))) {
            return key + " is set by kbench";
        }
        if (section.equals("common") && property.equals("bootstrap.servers")) {
            return "common.bootstrap.servers: give bootstrap.servers by itself";
        }
        return null;
    }

    /**
     * This profile with overrides applied ({@code producer.acks -> all}, {@code replicationFactor -> 3}).
     *
     * @throws IllegalArgumentException naming the first key or value that cannot be applied
     */
    public Profile with(Map<String, String> overrides) {
        String servers = bootstrapServers;
        int rf = replicationFactor;
        double gbps = networkGbps;
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        sections.put("common", new LinkedHashMap<>(common));
        sections.put("producer", new LinkedHashMap<>(producer));
        sections.put("consumer", new LinkedHashMap<>(consumer));
        sections.put("admin", new LinkedHashMap<>(admin));
        sections.put("topic", new LinkedHashMap<>(topic));
        for (Map.Entry<String, String> o : overrides.entrySet()) {
            String problem = overrideKeyProblem(o.getKey());
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            if (o.getKey().equals("replicationFactor")) {
                rf = replicationFactor(o.getValue());
            } else if (o.getKey().equals("networkGbps")) {
                String bad = io.kbench.coordinator.capacity.NetworkCeiling.problem(o.getValue());
                if (bad != null) {
                    throw new IllegalArgumentException("networkGbps " + bad);
                }
                gbps = Double.parseDouble(o.getValue().strip());
            } else if (o.getKey().equals("bootstrap.servers")) {
                String bad = Addresses.listProblem(o.getValue());
                if (bad != null) {
                    throw new IllegalArgumentException("bootstrap.servers: " + bad);
                }
                servers = o.getValue();
            } else {
                int dot = o.getKey().indexOf('.');
                sections.get(o.getKey().substring(0, dot)).put(o.getKey().substring(dot + 1), o.getValue());
            }
        }
        return new Profile(name, driver, servers, rf, sections.get("common"), sections.get("producer"),
                sections.get("consumer"), sections.get("admin"), sections.get("topic"), gbps);
    }

    /** Parses a replication factor given as text. */
    public static int replicationFactor(String value) {
        try {
            int rf = Integer.parseInt(value.trim());
            if (rf >= 1 && rf <= Short.MAX_VALUE) {
                return rf;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("replicationFactor must be a whole number 1 to 32767, got '" + value + "'");
    }

    /**
     * True when {@code path} looks like a profile rather than a workload: an OMB driver file, or more of its keys
     * are profile keys (driver, bootstrap.servers, replicationFactor, the property maps) than workload keys, so
     * a workload that sets one profile key is still checked as a workload and that key's line is named. An
     * unreadable file is not a profile.
     */
    public static boolean looksLikeProfile(Path path) {
        try {
            YamlMap y = YamlMap.read(path, new ArrayList<>());
            if (OmbFiles.isOmbDriver(y)) {
                return true;
            }
            // the kind most of its keys belong to: a workload with a stray profile key is still a workload
            long profileKeys = KEYS.stream().filter(k -> !k.equals("name") && y.has(k)).count();
            long workloadKeys = Workload.KEYS.stream().filter(k -> !k.equals("name") && y.has(k)).count();
            return profileKeys > workloadKeys;
        } catch (InvalidConfigException e) {
            return false;
        }
    }

    /** True when a property's value must never be printed or written. */
    public static boolean isSecret(String key) {
        if (SECRET.matcher(key).matches()) {
            return true;
        }
        String k = key.toLowerCase(java.util.Locale.ROOT);
        for (String secret : KAFKA_SECRET_KEYS) {
            if (k.equals(secret) || k.endsWith("." + secret)) {
                return true;
            }
        }
        return false;
    }

    private static java.util.Set<String> readSecretKeys() {
        try (java.io.InputStream in = Profile.class.getResourceAsStream("secret-keys.txt")) {
            if (in == null) {
                throw new IllegalStateException("secret-keys.txt is missing from the kbench build");
            }
            java.util.Set<String> keys = new java.util.TreeSet<>();
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("#")) {
                    keys.add(t.toLowerCase(java.util.Locale.ROOT));
                }
            }
            return java.util.Set.copyOf(keys);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** This profile as a map for reports, with every secret value replaced by {@link #REDACTED}. */
    public Map<String, Object> redacted() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("driver", driver);
        m.put("bootstrap.servers", bootstrapServers);
        m.put("replicationFactor", replicationFactor);
        m.put("common", redact(common));
        m.put("producer", redact(producer));
        m.put("consumer", redact(consumer));
        m.put("admin", redact(admin));
        m.put("topic", redact(topic));
        if (networkGbps > 0) {
            m.put("networkGbps", networkGbps);
        }
        return m;
    }

    private static Map<String, String> redact(Map<String, String> props) {
        Map<String, String> out = new java.util.TreeMap<>();
        props.forEach((k, v) -> out.put(k, isSecret(k) ? REDACTED : v));
        return out;
    }
}
