package io.kbench.protocol;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Aggregates client metrics over several clients (on a worker) or several workers' aggregates (on the
 * coordinator), by the metric's name: {@code *-max} takes the maximum, {@code *-rate} and {@code *-total}
 * the sum, every other metric (averages, ratios) the mean weighted by the number of clients behind each
 * value. Metrics a client does not report are averaged over the clients that do. Not thread-safe.
 */
public final class ClientMetricsMerge {
    private final Map<String, double[]> values = new TreeMap<>();
    private int clients;

    /** Adds the metrics of {@code weight} clients (1 for one client, a worker's client count for its aggregate). */
    public ClientMetricsMerge add(Map<String, Double> metrics, int weight) {
        if (weight <= 0) {
            return this;
        }
        clients += weight;
        for (Map.Entry<String, Double> e : metrics.entrySet()) {
            double v = e.getValue();
            if (!Double.isFinite(v)) {
                continue;
            }
            double[] acc = values.get(e.getKey());
            if (acc == null) {
                values.put(e.getKey(), new double[] {v * (kind(e.getKey()) == Kind.MEAN ? weight : 1), weight});
                continue;
            }
            switch (kind(e.getKey())) {
                case MAX -> acc[0] = Math.max(acc[0], v);
                case SUM -> acc[0] += v;
                case MEAN -> acc[0] += v * weight;
            }
            acc[1] += weight;
        }
        return this;
    }

    /** Clients added so far. */
    public int clients() {
        return clients;
    }

    /** The aggregated metrics, by name in name order; means rounded to 6 significant digits. */
    public Map<String, Double> result() {
        Map<String, Double> out = new LinkedHashMap<>();
        values.forEach((name, acc) -> out.put(name, round(kind(name) == Kind.MEAN ? acc[0] / acc[1] : acc[0])));
        return out;
    }

    private enum Kind { MAX, SUM, MEAN }

    private static Kind kind(String name) {
        if (name.endsWith("-max")) {
            return Kind.MAX;
        }
        return name.endsWith("-rate") || name.endsWith("-total") ? Kind.SUM : Kind.MEAN;
    }

    private static double round(double v) {
        if (v == 0 || !Double.isFinite(v)) {
            return v;
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).doubleValue();
    }
}
