package io.kbench.protocol;

import java.util.Map;
import java.util.TreeMap;

/**
 * One broker source's figures over one interval, as the worker that reads it sends them: the source ("embedded"
 * or a JMX HOST:PORT), figure name to value (names and units in docs/metrics.md, "Broker figures"), and why the
 * source gave nothing this interval (empty when it answered).
 */
public record BrokerSample(String source, Map<String, Double> values, String error) {
    /** Most figures one sample may carry, and the longest source or error text kept. */
    public static final int MAX_VALUES = 64;
    public static final int MAX_TEXT = 200;

    public BrokerSample {
        source = clip(source);
        error = clip(error);
        TreeMap<String, Double> kept = new TreeMap<>();
        for (Map.Entry<String, Double> e : values.entrySet()) {
            Double v = e.getValue();
            if (kept.size() < MAX_VALUES && v != null && Double.isFinite(v) && e.getKey().length() <= MAX_TEXT) {
                kept.put(e.getKey(), v);
            }
        }
        values = java.util.Collections.unmodifiableMap(kept);
    }

    private static String clip(String s) {
        return s == null ? "" : s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) : s;
    }
}
