package io.kbench.driver;

import java.util.Map;

/**
 * Client configuration of one run, as the driver profile resolved it. Every map is passed to the client
 * library as it is; the driver adds only what it needs to work (serializers, group ids).
 *
 * @param common   properties for every client (bootstrap servers, security)
 * @param producer producer properties
 * @param consumer consumer properties
 * @param admin    admin-client properties
 */
public record DriverConfig(Map<String, String> common, Map<String, String> producer,
                           Map<String, String> consumer, Map<String, String> admin) {
    public DriverConfig {
        common = Map.copyOf(common);
        producer = Map.copyOf(producer);
        consumer = Map.copyOf(consumer);
        admin = Map.copyOf(admin);
    }
}
