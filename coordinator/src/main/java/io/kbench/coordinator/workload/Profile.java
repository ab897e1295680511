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
 */
public record Profile(String name, String driver, String bootstrapServers, int replicationFactor,
                      Map<String, String> common, Map<String, String> producer, Map<String, String> consumer,
                      Map<String, String> admin, Map<String, String> topic) {

    /** The keys a profile file may contain. */
    public static final List<String> KEYS = List.of("name", "driver", "bootstrap.servers", "replicationFactor",
            "common", "producer", "consumer", "admin", "topic");

    private static final Pattern SECRET = Pattern.compile(
            "(?i).*(password|secret|jaas\\.config|token|credential|\\.key$|private).*");
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
        return new Profile("default", "kafka", null, 1, Map.of(), Map.of(), Map.of(), Map.of(), Map.of());
    }

    /** This profile with another cluster address. */
    public Profile withBootstrapServers(String servers) {
        return new Profile(name, driver, servers, replicationFactor, common, producer, consumer, admin, topic);
    }

    /**
     * Reads and validates a profile file.
     *
     * @throws InvalidConfigException listing every problem with its {@code file:line:column}
     */
    public static Profile load(Path path) {
        List<ConfigError> errors = new ArrayList<>();
        YamlMap y = YamlMap.read(path, errors);
        String name = y.string("name", path.getFileName().toString().replaceFirst("\\.ya?ml$", ""));
        String driver = y.string("driver", "kafka");
        if (!driver.equals("kafka")) {
            y.errorAt("driver", "unknown driver '" + driver + "'; allowed: kafka");
        }
        String bootstrap = y.string("bootstrap.servers", null);
        int rf = (int) y.integer("replicationFactor", 1, 1, 32_767, "1 to 32767");
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
        y.rejectUnknown(KEYS, "profile");
        if (!errors.isEmpty()) {
            throw new InvalidConfigException(errors);
        }
        return new Profile(name, driver, bootstrap, rf, common, producer, consumer, admin, topic);
    }

    /** True when a property's value must never be printed or written. */
    public static boolean isSecret(String key) {
        return SECRET.matcher(key).matches();
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
        return m;
    }

    private static Map<String, String> redact(Map<String, String> props) {
        Map<String, String> out = new java.util.TreeMap<>();
        props.forEach((k, v) -> out.put(k, isSecret(k) ? REDACTED : v));
        return out;
    }
}
