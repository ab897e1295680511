package io.kbench.driver;

import java.util.Map;

/**
 * A topic to create.
 *
 * @param name              topic name
 * @param partitions        number of partitions, at least 1
 * @param replicationFactor replicas per partition, at least 1
 * @param config            topic configs, passed as they are
 */
public record TopicSpec(String name, int partitions, int replicationFactor, Map<String, String> config) {
    public TopicSpec {
        config = Map.copyOf(config);
    }
}
