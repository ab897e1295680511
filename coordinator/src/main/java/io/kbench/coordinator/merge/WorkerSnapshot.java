package io.kbench.coordinator.merge;

/**
 * One worker's report of one interval, as received (the plain form of the protocol's Snapshot). Counters
 * are deltas for the interval; histograms are HdrHistogram compressed encodings in microseconds; times
 * are coordinator time (µs since epoch).
 */
public record WorkerSnapshot(String workerId, long sequence, long startMicros, long endMicros,
                             Counters counters, byte[] publishLatency, byte[] publishResponse, byte[] publishDelay,
                             byte[] endToEnd, boolean producersDone, boolean last, String error) {
}
