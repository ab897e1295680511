package io.kbench.worker;

/**
 * What one worker measured in one reporting interval: counters are deltas for the interval, histograms
 * are HdrHistogram compressed encodings in microseconds. Times are coordinator time (µs since epoch).
 * {@code consumerLag} is the consumers' lag at the interval's end (-1 unknown); the client metrics are the
 * aggregates over this worker's producers and consumers ({@link io.kbench.protocol.ClientMetricsMerge}).
 */
public record IntervalSnapshot(
        long sequence, long startMicros, long endMicros,
        long sent, long acked, long failed, long ackedBytes, long received, long receivedBytes,
        long clamped, long negativeEndToEnd, Verification verification, long consumerLag,
        java.util.Map<String, Double> producerMetrics, int producerClients,
        java.util.Map<String, Double> consumerMetrics, int consumerClients,
        byte[] publishLatency, byte[] publishResponse, byte[] publishDelay, byte[] endToEnd, byte[] transactionCommit,
        boolean producersDone, long producersDoneMicros, long lastReceiveMicros, boolean last, String error) {
}

