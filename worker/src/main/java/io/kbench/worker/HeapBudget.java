package io.kbench.worker;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.kbench.protocol.LatencyHistograms;

/**
 * The heap a worker's share of a run takes at the least, checked against its JVM's before any client is built: a share
 * that cannot fit is refused in one line (the coordinator exits 2, nothing started) rather than run out of memory
 * while its clients are built, which on a 6-GB heap took minutes of collections and a storm of
 * {@code OutOfMemoryError}s from the clients' threads (3,000 paced producers, 2026-12-01).
 *
 * <p>The need is a lower bound: the latency recorders each client role holds, counted exactly
 * ({@link LatencyRecorder}: 184 KB each), plus what one Kafka client held besides in a measured run on the embedded
 * broker (heap after collection against the number of clients: 0.4 MB a producer, 0.3 MB a consumer). A client's
 * buffers above that — an unthrottled producer's batches up to {@code buffer.memory}, a consumer's fetches — are not
 * counted, so a share that passes can still need more.
 *
 * <p>In-process workers share one JVM: each reservation counts against the same heap, and is given back when its run
 * ends ({@link Reservation#close}).
 */
final class HeapBudget {
    /** One latency recorder's two count arrays. */
    static final long RECORDER_BYTES = 2L * LatencyHistograms.COUNTS_LENGTH * Integer.BYTES;
    /** What a Kafka producer held besides its recorders, measured (see the class comment). */
    static final long PRODUCER_CLIENT_BYTES = 400L << 10;
    /** What a Kafka consumer held besides its recorders, measured. */
    static final long CONSUMER_CLIENT_BYTES = 300L << 10;
    /** The share of the heap the clients may take: the rest is the collector's room, the coordinator's, a broker's. */
    static final double USABLE = 0.85;

    /** Bytes reserved by the runs this JVM's workers hold now. */
    private static final AtomicLong RESERVED = new AtomicLong();

    private HeapBudget() {
    }

    /** A reservation of heap for one run; given back once. */
    static final class Reservation implements AutoCloseable {
        private final long bytes;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Reservation(long bytes) {
            this.bytes = bytes;
        }

        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                RESERVED.addAndGet(-bytes);
            }
        }
    }

    /** The heap {@code spec}'s clients on this worker take at the least, bytes. */
    static long need(RunSpec spec) {
        long bytes = 0;
        for (RunSpec.Producer p : spec.producers()) {
            // publish latency, and for a paced producer response time and delay, each per interval parity
            bytes += (p.ratePerSecond() >= 0 ? 6 : 2) * RECORDER_BYTES + PRODUCER_CLIENT_BYTES;
        }
        for (RunSpec.Consumer c : spec.consumers()) {
            // end-to-end latency per parity; a share consumer's delivery and acceptance latency per parity instead
            bytes += (c.share() ? 4 : 2) * RECORDER_BYTES + CONSUMER_CLIENT_BYTES;
        }
        return bytes;
    }

    /**
     * Reserves {@code spec}'s need against a heap of {@code maxHeap} bytes.
     *
     * @throws WorkerException INVALID when it does not fit beside what this JVM's other runs reserved
     */
    static Reservation reserve(RunSpec spec, long maxHeap) {
        long need = need(spec);
        long usable = (long) (USABLE * maxHeap);
        while (true) {
            long held = RESERVED.get();
            if (held + need > usable) {
                throw new WorkerException(WorkerException.Kind.INVALID, refusal(spec, need, held, maxHeap));
            }
            if (RESERVED.compareAndSet(held, held + need)) {
                return new Reservation(need);
            }
        }
    }

    static String refusal(RunSpec spec, long need, long held, long maxHeap) {
        long share = spec.consumers().stream().filter(RunSpec.Consumer::share).count();
        String clients = String.format(Locale.ROOT, "%,d producer(s) and %,d consumer(s)%s", spec.producers().size(),
                spec.consumers().size() - share, share == 0 ? "" : String.format(Locale.ROOT, " and %,d share consumer(s)", share));
        return String.format(Locale.ROOT, "its share of the run does not fit its heap: %s need at least %s "
                        + "(latency recorders and Kafka clients: %s a paced producer, %s an unthrottled one, %s a consumer, "
                        + "%s a share consumer)%s, more than %d%% of the %s its JVM may use; spread the clients over more "
                        + "`kbench worker` processes (--workers), or give the JVM more heap (KBENCH_JAVA_OPTS=-Xmx...)",
                clients, size(need), size(6 * RECORDER_BYTES + PRODUCER_CLIENT_BYTES),
                size(2 * RECORDER_BYTES + PRODUCER_CLIENT_BYTES), size(2 * RECORDER_BYTES + CONSUMER_CLIENT_BYTES),
                size(4 * RECORDER_BYTES + CONSUMER_CLIENT_BYTES),
                held == 0 ? "" : ", besides the " + size(held) + " this JVM's other in-process workers hold",
                Math.round(USABLE * 100), size(maxHeap));
    }

    private static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
    }
}
