package io.kbench.protocol;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One Kafka client's whole metrics map at the end of a run, as the Kafka tools' {@code --print-metrics} prints
 * it: sorted by {@code group:name:{tags}}, a {@code Double} value as {@code %.3f}, any other as its
 * {@code toString()}.
 *
 * @param kind   {@code producer} or {@code consumer}
 * @param index  the client's index within the run
 * @param values formatted metric name to formatted value, sorted by name
 */
public record ClientMetricsDump(String kind, int index, SortedMap<String, String> values) {
    public ClientMetricsDump {
        if (!kind.equals("producer") && !kind.equals("consumer")) {
            throw new IllegalArgumentException("kind must be producer or consumer, got " + kind);
        }
        values = Collections.unmodifiableSortedMap(new TreeMap<>(values));
    }
}
