package io.kbench.coordinator.merge;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kafka client metrics of one kind (producers or consumers) at the end of an interval, aggregated over
 * {@code clients} clients as {@link io.kbench.protocol.ClientMetricsMerge} does.
 *
 * <p>A run keeps one per interval, so it is stored compactly: the metric names as one shared, sorted array
 * (the same names every interval) and the values as a {@code double[]}. Immutable; thread-safe.
 */
public final class ClientSample {
    /** Canonical name arrays: a driver reports the same few name sets every interval. */
    private static final Map<List<String>, String[]> NAME_SETS = new ConcurrentHashMap<>();
    private static final int MAX_NAME_SETS = 256;

    public static final ClientSample NONE = new ClientSample(0, Map.of());

    private final int clients;
    private final String[] names;
    private final double[] values;

    @com.fasterxml.jackson.annotation.JsonCreator
    public ClientSample(@com.fasterxml.jackson.annotation.JsonProperty("clients") int clients,
                        @com.fasterxml.jackson.annotation.JsonProperty("values") Map<String, Double> values) {
        this.clients = clients;
        TreeMap<String, Double> sorted = new TreeMap<>(values);
        String[] n = sorted.keySet().toArray(new String[0]);
        List<String> key = List.of(n);
        String[] shared = NAME_SETS.get(key);
        if (shared == null && NAME_SETS.size() < MAX_NAME_SETS) {
            shared = NAME_SETS.computeIfAbsent(key, k -> Arrays.stream(n).map(String::intern).toArray(String[]::new));
        }
        this.names = shared != null ? shared : n;
        this.values = new double[n.length];
        int i = 0;
        for (double v : sorted.values()) {
            this.values[i++] = v;
        }
    }

    /** Clients behind the values. */
    @com.fasterxml.jackson.annotation.JsonProperty("clients")
    public int clients() {
        return clients;
    }

    /** The metrics by name, in name order. */
    @com.fasterxml.jackson.annotation.JsonProperty("values")
    public Map<String, Double> values() {
        TreeMap<String, Double> out = new TreeMap<>();
        for (int i = 0; i < names.length; i++) {
            out.put(names[i], values[i]);
        }
        return Collections.unmodifiableMap(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientSample c && c.clients == clients && Arrays.equals(c.names, names)
                && Arrays.equals(c.values, values);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * clients + Arrays.hashCode(names)) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "ClientSample[clients=" + clients + ", values=" + values() + "]";
    }
}
