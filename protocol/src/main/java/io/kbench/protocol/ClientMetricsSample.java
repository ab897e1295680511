package io.kbench.protocol;

import java.util.Map;

/**
 * Client metrics of one worker's producers or consumers for one interval, aggregated over its clients
 * ({@link ClientMetricsMerge}).
 *
 * @param clients how many clients the values aggregate
 * @param values  metric name to value
 */
public record ClientMetricsSample(int clients, Map<String, Double> values) {
    public static final ClientMetricsSample NONE = new ClientMetricsSample(0, Map.of());

    public ClientMetricsSample {
        values = Map.copyOf(values);
    }
}
