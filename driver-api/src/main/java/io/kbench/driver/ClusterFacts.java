package io.kbench.driver;

import java.util.List;
import java.util.Map;

/**
 * What a cluster is, as a driver describes it for a result's provenance: its id, finalized feature levels
 * (which name the brokers' version, e.g. {@code metadata.version}), its brokers with their benchmark-relevant
 * configs, and the run's topics with theirs.
 *
 * @param error why some of it is missing (e.g. not authorized to describe configs); empty when complete
 */
public record ClusterFacts(String clusterId, Map<String, Integer> features, List<Broker> brokers,
                           Map<String, Topic> topics, String error) {
    public ClusterFacts {
        features = Map.copyOf(features);
        brokers = List.copyOf(brokers);
        topics = Map.copyOf(topics);
    }

    /** One broker; {@code rack} empty when none. */
    public record Broker(int id, String endpoint, String rack, Map<String, String> configs) {
        public Broker {
            configs = Map.copyOf(configs);
        }
    }

    /** One topic. */
    public record Topic(int partitions, int replicationFactor, Map<String, String> configs) {
        public Topic {
            configs = Map.copyOf(configs);
        }
    }
}
