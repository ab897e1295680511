package io.kbench.coordinator.merge;

import java.util.Map;

/**
 * Kafka client metrics of one kind (producers or consumers) at the end of an interval, aggregated over
 * {@code clients} clients as {@link io.kbench.protocol.ClientMetricsMerge} does.
 */
public record ClientSample(int clients, Map<String, Double> values) {
    public static final ClientSample NONE = new ClientSample(0, Map.of());

    public ClientSample {
        values = Map.copyOf(values);
    }
}
