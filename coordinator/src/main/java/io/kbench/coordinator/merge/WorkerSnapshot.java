package io.kbench.coordinator.merge;

/**
 * One worker's report of one interval, as received (the plain form of the protocol's Snapshot). Counters
 * are deltas for the interval; histograms are HdrHistogram compressed encodings in microseconds; times
 * are coordinator time (µs since epoch); {@code producersDoneMicros} is when the worker's producers finished
 * (0 before, and for a worker without producers); {@code lastReceiveMicros} when its consumers last received
 * (0 if never).
 */
public record WorkerSnapshot(String workerId, long sequence, long startMicros, long endMicros,
                             Counters counters, byte[] publishLatency, byte[] publishResponse, byte[] publishDelay,
                             byte[] endToEnd, byte[] transactionCommit, boolean producersDone, long producersDoneMicros,
                             long lastReceiveMicros, boolean last, String error) {
}
