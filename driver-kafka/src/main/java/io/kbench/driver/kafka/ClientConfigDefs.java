package io.kbench.driver.kafka;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka's own definitions of the clients' configs (kafka-clients' {@code ProducerConfig}, {@code ConsumerConfig} —
 * which the share consumer reads too — and {@code AdminClientConfig}), to check a profile's client settings before
 * anything starts: a name the clients do not define, a value of the wrong type or out of its range. A profile's
 * {@code common} section goes to every client: its names are the union, its values checked by each that defines them.
 */
public final class ClientConfigDefs {
    private static final Map<String, ConfigDef> DEFS = Map.of("producer", ProducerConfig.configDef(),
            "consumer", ConsumerConfig.configDef(), "admin", AdminClientConfig.configDef());

    private ClientConfigDefs() { }

    /** The config names of a profile section ({@code producer}, {@code consumer}, {@code admin}, {@code common}); empty for others. */
    public static Set<String> names(String section) {
        if (section.equals("common")) {
            Set<String> all = new TreeSet<>();
            DEFS.values().forEach(d -> all.addAll(d.names()));
            return all;
        }
        ConfigDef def = DEFS.get(section);
        return def == null ? Set.of() : new TreeSet<>(def.names());
    }

    /**
     * Why the clients of {@code section} would not take {@code value} for {@code name} (Kafka's own message, which
     * names the value), or null when they would or do not define the name. A class name is not checked: it is loaded
     * where the client runs, and a worker's classpath may hold a plugin this process does not.
     */
    public static String valueProblem(String section, String name, String value) {
        for (Map.Entry<String, ConfigDef> e : DEFS.entrySet()) {
            if (!section.equals("common") && !section.equals(e.getKey())) {
                continue;
            }
            ConfigDef.ConfigKey key = e.getValue().configKeys().get(name);
            if (key == null || key.type == ConfigDef.Type.CLASS) {
                continue; // a class is loaded where the client runs: a worker's classpath may hold what this one lacks
            }
            try {
                Object parsed = ConfigDef.parseType(name, value, key.type);
                if (key.validator != null) {
                    key.validator.ensureValid(name, parsed);
                }
            } catch (ConfigException | IllegalArgumentException bad) {
                return String.valueOf(bad.getMessage());
            }
        }
        return null;
    }

    /**
     * Why the {@code client} ({@code producer} or {@code consumer}) would refuse {@code settings} taken together —
     * Kafka's own check of a whole config, which its constructor runs (the idempotent producer, on by default, takes
     * at most 5 requests in flight per connection; a transactional id needs idempotence) — or null. The settings are
     * what the client gets: the profile's {@code common} and its own section; {@code transactional} adds the
     * transactional id kbench gives a transactional workload's producers. Class names and names Kafka does not define
     * are left out (a class is loaded where the client runs; an unknown name is noted elsewhere), and so is the whole
     * check for settings that name config providers: their values are resolved where the client runs.
     */
    public static String togetherProblem(String client, Map<String, String> settings, boolean transactional) {
        ConfigDef def = DEFS.get(client);
        if (def == null || client.equals("admin") || settings.keySet().stream().anyMatch(k -> k.startsWith("config.providers"))) {
            return null;
        }
        Map<String, Object> p = new java.util.HashMap<>();
        settings.forEach((name, value) -> {
            ConfigDef.ConfigKey key = def.configKeys().get(name);
            if (key != null && key.type != ConfigDef.Type.CLASS) {
                p.put(name, value);
            }
        });
        p.put("bootstrap.servers", "localhost:9092"); // the cluster's address is checked when the clients connect
        try {
            if (client.equals("producer")) {
                p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
                p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
                if (transactional) {
                    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "kbench-check");
                }
                new ProducerConfig(p);
            } else {
                p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
                p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
                p.put(ConsumerConfig.GROUP_ID_CONFIG, "kbench-check");
                new ConsumerConfig(p, false) { }; // without its INFO dump of every value (the producer's has none)
            }
            return null;
        } catch (ConfigException | IllegalArgumentException bad) {
            return String.valueOf(bad.getMessage());
        }
    }
}
