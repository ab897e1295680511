package io.kbench.embedded;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.server.config.AbstractKafkaConfig;

/** Kafka's broker config definitions, to check a setting before an embedded cluster is started with it. */
public final class BrokerConfigs {
    private BrokerConfigs() { }

    /**
     * Why a broker would not take {@code name=value}: a name Kafka's broker configs do not define (listener-prefixed
     * ones excepted), or a value of the wrong type or out of its range; null when it would.
     */
    public static String problem(String name, String value) {
        if (name.startsWith("listener.name.")) {
            return null;
        }
        ConfigDef.ConfigKey key = AbstractKafkaConfig.CONFIG_DEF.configKeys().get(name);
        if (key == null) {
            return "'" + (name.length() > 100 ? name.substring(0, 100) + "..." : name) + "' is not a Kafka broker config";
        }
        try {
            Object parsed = ConfigDef.parseType(name, value, key.type);
            if (key.validator != null) {
                key.validator.ensureValid(name, parsed);
            }
            return null;
        } catch (ConfigException e) {
            String m = String.valueOf(e.getMessage()); // names the value: cut, a value may be long
            return m.length() > 300 ? m.substring(0, 300) + "..." : m;
        }
    }
}
