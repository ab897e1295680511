package io.kbench.driver.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Picks the client-wide metrics that explain a benchmark result out of a Kafka client's metrics: those of
 * one group, named in a fixed list, tagged with nothing but the client id (not per node, topic or
 * partition). Values without samples (NaN, infinite) are left out.
 */
final class ClientMetrics {
    /** Producer metrics (group {@code producer-metrics}). */
    static final Set<String> PRODUCER = Set.of("record-queue-time-avg", "record-queue-time-max",
            "request-latency-avg", "request-latency-max", "batch-size-avg", "records-per-request-avg",
            "compression-rate-avg", "produce-throttle-time-avg", "produce-throttle-time-max", "record-retry-rate",
            "record-error-rate", "bufferpool-wait-ratio", "requests-in-flight");
    /** Consumer fetch metrics (group {@code consumer-fetch-manager-metrics}). */
    static final Set<String> CONSUMER = Set.of("fetch-latency-avg", "fetch-latency-max", "records-lag-max",
            "fetch-size-avg", "records-per-request-avg", "fetch-throttle-time-avg", "fetch-throttle-time-max",
            "fetch-rate");

    /** Share consumer metrics (group {@code consumer-share-metrics}). */
    static final Set<String> SHARE_CONSUMER = Set.of("fetch-latency-avg", "fetch-latency-max", "fetch-size-avg",
            "records-per-request-avg", "fetch-throttle-time-avg", "fetch-throttle-time-max", "fetch-rate",
            "acknowledgements-send-rate", "acknowledgements-error-rate");

    private ClientMetrics() { }

    static Map<String, Double> pick(Map<MetricName, ? extends Metric> all, String group, Set<String> names) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : all.entrySet()) {
            MetricName n = e.getKey();
            if (!n.group().equals(group) || !names.contains(n.name())
                    || n.tags().size() > 1 || n.tags().size() == 1 && !n.tags().containsKey("client-id")) {
                continue;
            }
            if (e.getValue().metricValue() instanceof Number v && Double.isFinite(v.doubleValue())) {
                out.put(n.name(), v.doubleValue());
            }
        }
        return out;
    }

    /**
     * All of a client's metrics as the Kafka tools' {@code --print-metrics} prints them (ToolsUtils.printMetrics
     * of Kafka 4.3.1): {@code group:name:{tags}} to the value, a {@code Double} as {@code %.3f}, any other value
     * by {@code toString()}, sorted by name.
     */
    static java.util.SortedMap<String, String> dump(Map<MetricName, ? extends Metric> all) {
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        for (Metric m : all.values()) {
            MetricName n = m.metricName();
            Object v = m.metricValue();
            out.put(n.group() + ":" + n.name() + ":" + n.tags(),
                    v instanceof Double d ? String.format(java.util.Locale.ROOT, "%.3f", d) : String.valueOf(v));
        }
        return out;
    }
}
