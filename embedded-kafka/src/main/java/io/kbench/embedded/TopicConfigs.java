package io.kbench.embedded;

import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.storage.internals.log.LogConfig;

/**
 * Kafka's topic config definitions (the broker's {@code LogConfig}, the version kbench is built with), to check a
 * profile's {@code topic} settings before a cluster is started or a topic is created with them.
 */
public final class TopicConfigs {
    private TopicConfigs() { }

    /** The topic configs a user may set (the internal ones left out). */
    public static Set<String> names() {
        return new TreeSet<>(LogConfig.nonInternalConfigNames());
    }

    /**
     * Why a broker would not take {@code value} for the topic config {@code name} (Kafka's own message, which names
     * the value), or null when it would or does not define the name. Only the value on its own is checked: what
     * depends on the cluster (its remote storage, a ratio against another topic setting) is the cluster's to refuse.
     */
    public static String valueProblem(String name, String value) {
        ConfigDef.ConfigKey key = LogConfig.configKeys().get(name);
        if (key == null || key.type == ConfigDef.Type.CLASS) {
            return null;
        }
        try {
            Object parsed = ConfigDef.parseType(name, value, key.type);
            if (key.validator != null) {
                key.validator.ensureValid(name, parsed);
            }
            return null;
        } catch (ConfigException | IllegalArgumentException bad) {
            return String.valueOf(bad.getMessage());
        }
    }
}
