package io.kbench.worker;

/**
 * What one worker measured in one reporting interval: counters are deltas for the interval, histograms
 * are HdrHistogram compressed encodings in microseconds. Times are coordinator time (µs since epoch).
 */
public record IntervalSnapshot(
        long sequence, long startMicros, long endMicros,
        long sent, long acked, long failed, long ackedBytes, long received, long receivedBytes,
        long clamped, long negativeEndToEnd,
        byte[] publishLatency, byte[] publishResponse, byte[] publishDelay, byte[] endToEnd, byte[] transactionCommit,
        boolean producersDone, long producersDoneMicros, long lastReceiveMicros, boolean last, String error) {
}
