package io.kbench.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

class ClientMetricsMergeTest {
    @Test
    void shouldTakeMaximaSumRatesAndWeightMeansByClients() {
        ClientMetricsMerge worker1 = new ClientMetricsMerge()
                .add(Map.of("request-latency-avg", 2.0, "request-latency-max", 10.0, "record-retry-rate", 1.0), 1)
                .add(Map.of("request-latency-avg", 4.0, "request-latency-max", 30.0, "record-retry-rate", 2.0), 1);
        assertEquals(Map.of("record-retry-rate", 3.0, "request-latency-avg", 3.0, "request-latency-max", 30.0),
                worker1.result());
        ClientMetricsMerge all = new ClientMetricsMerge()
                .add(worker1.result(), worker1.clients())
                .add(Map.of("request-latency-avg", 6.0, "request-latency-max", 20.0, "record-retry-rate", 0.5), 1);
        assertEquals(3, all.clients());
        assertEquals(Map.of("record-retry-rate", 3.5, "request-latency-avg", 4.0, "request-latency-max", 30.0),
                all.result(), "mean over 3 clients = (2 + 4 + 6) / 3");
    }

    @Test
    void shouldSkipValuesWithoutSamples() {
        Map<String, Double> r = new ClientMetricsMerge().add(Map.of("fetch-latency-avg", Double.NaN), 1)
                .add(Map.of("fetch-latency-avg", 5.0), 1).result();
        assertEquals(Map.of("fetch-latency-avg", 5.0), r);
    }
}
