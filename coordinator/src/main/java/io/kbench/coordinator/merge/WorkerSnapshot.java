package io.kbench.coordinator.merge;

/**
 * One worker's report of one interval, as received (the plain form of the protocol's Snapshot). Counters
 * are deltas for the interval; histograms are HdrHistogram compressed encodings in microseconds; times
 * are coordinator time (µs since epoch); {@code producersDoneMicros} is when the worker's producers finished
 * (0 before, and for a worker without producers); {@code lastReceiveMicros} when its consumers last received
 * (0 if never); {@code consumerLag} its consumers' lag at the interval's end (-1 unknown); the client metrics
 * are aggregated over its producers and consumers.
 */
public record WorkerSnapshot(String workerId, long sequence, long startMicros, long endMicros,
                             Counters counters, byte[] publishLatency, byte[] publishResponse, byte[] publishDelay,
                             byte[] endToEnd, byte[] transactionCommit, boolean producersDone, long producersDoneMicros,
                             long lastReceiveMicros, boolean last, String error, long consumerLag,
                             ClientSample producerMetrics, ClientSample consumerMetrics) {
    /** A snapshot without lag or client metrics. */
    public WorkerSnapshot(String workerId, long sequence, long startMicros, long endMicros, Counters counters,
                          byte[] publishLatency, byte[] publishResponse, byte[] publishDelay, byte[] endToEnd,
                          byte[] transactionCommit, boolean producersDone, long producersDoneMicros,
                          long lastReceiveMicros, boolean last, String error) {
        this(workerId, sequence, startMicros, endMicros, counters, publishLatency, publishResponse, publishDelay,
                endToEnd, transactionCommit, producersDone, producersDoneMicros, lastReceiveMicros, last, error, -1,
                ClientSample.NONE, ClientSample.NONE);
    }
}
