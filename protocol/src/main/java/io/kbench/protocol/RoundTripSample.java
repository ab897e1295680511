package io.kbench.protocol;

/**
 * One message's round trip in a closed-loop run (Kafka's EndToEndLatency): its number in the run ({@code index}, from
 * 0) and the time from its send to the consumer receiving it, microseconds. Workers send those of messages 0, 1000,
 * 2000 ... with their snapshots ({@link IntervalSnapshot#roundTrips()}), for the tool's progress lines.
 */
public record RoundTripSample(long index, long latencyMicros) {
    /** Every how many messages a round trip is sampled. */
    public static final int EVERY = 1000;
    /** Most samples one snapshot carries (a loop of 1 µs round trips would complete 1,000 per second). */
    public static final int MAX_PER_SNAPSHOT = 1000;
}
