package io.kbench.protocol;

import java.util.Locale;

/**
 * The heap a worker's clients take at the least (docs/operations.md): the latency recorders each client role holds,
 * counted exactly (two arrays of {@link LatencyHistograms#COUNTS_LENGTH} {@code int}s, 184 KB, each), plus what one Kafka
 * client held besides in a measured run on the embedded broker (heap after collection against the number of clients,
 * 2026-12-01: 0.4 MB a producer, 0.3 MB a consumer). A client's buffers above that — an unthrottled producer's batches
 * up to {@code buffer.memory}, a consumer's fetches — are not counted: a share that fits can still need more.
 *
 * <p>The coordinator checks every worker's share against the heap its Identify answer gave before it prepares any
 * (the in-process workers, one JVM, together); each worker checks its own again before it builds a client.
 */
public record HeapNeed(long pacedProducers, long unthrottledProducers, long consumers, long shareConsumers) {
    /** One latency recorder's two count arrays. */
    public static final long RECORDER_BYTES = 2L * LatencyHistograms.COUNTS_LENGTH * Integer.BYTES;
    /** What a Kafka producer held besides its recorders, measured (see the class comment). */
    public static final long PRODUCER_CLIENT_BYTES = 400L << 10;
    /** What a Kafka consumer held besides its recorders, measured. */
    public static final long CONSUMER_CLIENT_BYTES = 300L << 10;
    /** The share of a heap the clients may take: the rest is the collector's room, the coordinator's, a broker's. */
    public static final double USABLE = 0.85;
    /** Recorders: a paced producer's publish latency, response time and delay, an unthrottled one's publish latency. */
    public static final long PACED_PRODUCER = 6 * RECORDER_BYTES + PRODUCER_CLIENT_BYTES;
    public static final long UNTHROTTLED_PRODUCER = 2 * RECORDER_BYTES + PRODUCER_CLIENT_BYTES;
    /** A consumer's end-to-end latency; a share consumer's delivery and acceptance latency (each per interval parity). */
    public static final long CONSUMER = 2 * RECORDER_BYTES + CONSUMER_CLIENT_BYTES;
    public static final long SHARE_CONSUMER = 4 * RECORDER_BYTES + CONSUMER_CLIENT_BYTES;

    /** Bytes, at the least. */
    public long bytes() {
        return pacedProducers * PACED_PRODUCER + unthrottledProducers * UNTHROTTLED_PRODUCER + consumers * CONSUMER
                + shareConsumers * SHARE_CONSUMER;
    }

    public HeapNeed plus(HeapNeed o) {
        return new HeapNeed(pacedProducers + o.pacedProducers, unthrottledProducers + o.unthrottledProducers,
                consumers + o.consumers, shareConsumers + o.shareConsumers);
    }

    /** Whether it fits beside {@code held} bytes in a heap of {@code maxHeap}. */
    public boolean fits(long held, long maxHeap) {
        return held + bytes() <= (long) (USABLE * maxHeap);
    }

    /**
     * Why it does not fit, one line: {@code lead} says whose share ("its share of the run does not fit its heap"),
     * {@code held} what others already hold in the same heap (0: none).
     */
    public String refusal(String lead, long held, long maxHeap) {
        return String.format(Locale.ROOT, "%s: %s need at least %s (latency recorders and Kafka "
                        + "clients: %s a paced producer, %s an unthrottled one, %s a consumer, %s a share consumer)%s, "
                        + "more than %d%% of the %s its JVM may use; spread the clients over more `kbench worker` "
                        + "processes (--workers), or give the JVM more heap (KBENCH_JAVA_OPTS=-Xmx...)",
                lead, clients(), size(bytes()), size(PACED_PRODUCER), size(UNTHROTTLED_PRODUCER), size(CONSUMER),
                size(SHARE_CONSUMER), held == 0 ? "" : ", besides the " + size(held) + " this JVM's other in-process "
                        + "workers hold", Math.round(USABLE * 100), size(maxHeap));
    }

    private String clients() {
        return String.format(Locale.ROOT, "%,d producer(s) and %,d consumer(s)%s", pacedProducers + unthrottledProducers,
                consumers, shareConsumers == 0 ? "" : String.format(Locale.ROOT, " and %,d share consumer(s)",
                        shareConsumers));
    }

    private static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
    }
}
