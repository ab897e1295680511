package io.kbench.protocol;

import java.util.Locale;

/**
 * The heap a worker's clients can take (docs/operations.md): the latency recorders each client role holds, counted
 * exactly (two arrays of {@link LatencyHistograms#COUNTS_LENGTH} {@code int}s, 184 KB, each), what one Kafka client
 * held besides in a measured run on the embedded broker (heap after collection against the number of clients,
 * 2026-12-01: 0.4 MB a producer, 0.3 MB a consumer), and the most the producers' batches can take
 * ({@link ProducerBatches}; a client's pool keeps the buffers it allocated, so what its batches once took stays
 * taken) and the consumers' fetched records ({@link ConsumerFetches}).
 *
 * <p>The coordinator checks every worker's share against the heap its Identify answer gave before it prepares any
 * (the in-process workers, one JVM, together); each worker checks its own again before it builds a client.
 *
 * @param producerBatches bytes the producers' batches can take, summed ({@link ProducerBatches#of})
 * @param consumerFetches bytes the consumers' fetched records can take, summed ({@link ConsumerFetches#of})
 */
public record HeapNeed(long pacedProducers, long unthrottledProducers, long consumers, long shareConsumers,
                       long producerBatches, long consumerFetches) {
    /** A need without producer batches or consumer fetches (counted apart). */
    public HeapNeed(long pacedProducers, long unthrottledProducers, long consumers, long shareConsumers) {
        this(pacedProducers, unthrottledProducers, consumers, shareConsumers, 0, 0);
    }

    /**
     * The most a Kafka consumer's fetched records can take of the heap, from its settings: a fetch response brings up
     * to {@code max.partition.fetch.bytes} of each partition it asks for (and at most {@code fetch.max.bytes} from
     * one broker), read whole into the heap; the consumer asks again for a partition once what it had of it is
     * handed out, so a response being read and one being handed out: twice. Measured, 2026-12-01: 8 consumers of 6
     * partitions each (1-KB records, a backlog) held 11 MB each of heap after collection with the 1-MB default
     * (counted: 12 MB); with 2 MB and 3 MB a partition, on a 256-MB worker, they ran out of memory (counted: 24 and 36
     * MB each, refused).
     *
     * @param fetchMaxBytes          {@code fetch.max.bytes}
     * @param maxPartitionFetchBytes {@code max.partition.fetch.bytes}
     */
    public record ConsumerFetches(long fetchMaxBytes, long maxPartitionFetchBytes) {
        /** Kafka's defaults. */
        public static final long FETCH_MAX_BYTES = 52_428_800;
        public static final long MAX_PARTITION_FETCH_BYTES = 1_048_576;

        /** From a consumer's settings ({@code config}: common and consumer merged; absent or unreadable: Kafka's). */
        public static ConsumerFetches of(java.util.Map<String, String> config) {
            return new ConsumerFetches(ProducerBatches.number(config, "fetch.max.bytes", FETCH_MAX_BYTES),
                    ProducerBatches.number(config, "max.partition.fetch.bytes", MAX_PARTITION_FETCH_BYTES));
        }

        /**
         * The most one consumer's fetches can take when it reads {@code partitions} partitions (spread over any number
         * of brokers: each broker's response is capped by {@code fetch.max.bytes} apart).
         */
        public long of(int partitions) {
            return times(2L * Math.max(1, partitions), Math.min(maxPartitionFetchBytes, fetchMaxBytes));
        }
    }

    /**
     * The most a Kafka producer's batches can take of the heap, from its settings: its buffer pool allocates at most
     * {@code buffer.memory} and keeps what it allocated for reuse. One that sends as fast as it can fills it
     * (measured, 2026-12-01: 10 unthrottled producers of 1-KB records took 27 MB each of heap after collection with
     * the default 32 MB). A paced one holds what it sent and the cluster has not acknowledged: when the cluster stalls,
     * its records wait up to {@code delivery.timeout.ms} before they expire, so at most its rate times that of record
     * bytes, plus a partly filled {@code batch.size} batch per partition of its topic — and never more than the pool.
     *
     * @param bufferMemory      {@code buffer.memory}, bytes
     * @param batchSize         {@code batch.size}, bytes
     * @param deliveryTimeoutMs {@code delivery.timeout.ms}
     * @param recordBytes       a record's value, key and headers, and what it costs besides ({@link #RECORD_OVERHEAD})
     */
    public record ProducerBatches(long bufferMemory, long batchSize, long deliveryTimeoutMs, long recordBytes) {
        /** Kafka's defaults. */
        public static final long BUFFER_MEMORY = 32L << 20;
        public static final long BATCH_SIZE = 16_384;
        public static final long DELIVERY_TIMEOUT_MS = 120_000;
        /**
         * What a record costs in a batch beyond its value, key and headers (its framing in the batch), as the Kafka
         * driver estimates it for its flow control.
         */
        public static final long RECORD_OVERHEAD = 70;

        /**
         * From a producer's settings ({@code config}: common and producer merged; an absent or unreadable value is
         * Kafka's default, a bad one being refused by the profile's check) and a record's value, key and headers
         * ({@link HeapNeed#recordContent}).
         */
        public static ProducerBatches of(java.util.Map<String, String> config, long contentBytes) {
            return new ProducerBatches(number(config, "buffer.memory", BUFFER_MEMORY),
                    number(config, "batch.size", BATCH_SIZE), number(config, "delivery.timeout.ms", DELIVERY_TIMEOUT_MS),
                    Math.max(0, contentBytes) + RECORD_OVERHEAD);
        }

        /** The most one producer's batches can take: {@code ratePerSecond} -1 for an unthrottled one. */
        public long of(long ratePerSecond, int partitions) {
            return of(ratePerSecond, partitions, 0);
        }

        /**
         * As {@link #of(long, int)} for a producer that sends {@code recordLimit} records in all (0: no limit): it
         * never holds more than those (1,000 records of 100 bytes with a 1-GB {@code buffer.memory} hold 170 KB).
         */
        public long of(long ratePerSecond, int partitions, long recordLimit) {
            double batches = (double) batchSize * Math.max(1, partitions);
            double held = ratePerSecond < 0 ? Double.MAX_VALUE
                    : (double) ratePerSecond * recordBytes * (deliveryTimeoutMs / 1000.0) + batches;
            if (recordLimit > 0) {
                held = Math.min(held, (double) recordLimit * recordBytes + batches);
            }
            return held >= bufferMemory ? bufferMemory : (long) held;
        }

        static long number(java.util.Map<String, String> config, String key, long otherwise) {
            String v = config.get(key);
            if (v == null) {
                return otherwise;
            }
            try {
                long n = Long.parseLong(v.trim());
                return n < 0 ? otherwise : n;
            } catch (NumberFormatException e) {
                return otherwise;
            }
        }
    }

    /** What bounds a run's client buffers: its producers' batches and its consumers' fetched records. */
    public record Buffers(ProducerBatches batches, ConsumerFetches fetches) {
        /**
         * From the client settings ({@code common} under {@code producer} and {@code consumer}, as the clients merge
         * them) and the bytes of a record's value, key and headers ({@link #recordContent}).
         */
        public static Buffers of(java.util.Map<String, String> common, java.util.Map<String, String> producer,
                                 java.util.Map<String, String> consumer, long contentBytes) {
            return new Buffers(ProducerBatches.of(merged(common, producer), contentBytes),
                    ConsumerFetches.of(merged(common, consumer)));
        }

        private static java.util.Map<String, String> merged(java.util.Map<String, String> common,
                                                            java.util.Map<String, String> client) {
            java.util.Map<String, String> m = new java.util.HashMap<>(common);
            m.putAll(client);
            return m;
        }

        /** Counts a worker's clients against these bounds. */
        public Tally tally() {
            return new Tally(this);
        }
    }

    /** The bytes of a record's value, key and headers ({@code headerValueSize} -1: a null value, none). */
    public static long recordContent(long valueBytes, int keySize, int headers, int headerKeySize, int headerValueSize) {
        return Math.max(0, valueBytes) + Math.max(0, keySize)
                + (long) Math.max(0, headers) * (Math.max(0, headerKeySize) + Math.max(0, headerValueSize));
    }

    /**
     * A worker's clients added up one by one into a need: the coordinator's count from its plan and a worker's from its
     * share count the same way (bytes saturate, {@link #sum}).
     */
    public static final class Tally {
        private final Buffers buffers;
        private long paced;
        private long unthrottled;
        private long consumers;
        private long shareConsumers;
        private long batches;
        private long fetches;

        private Tally(Buffers buffers) {
            this.buffers = buffers;
        }

        /**
         * A producer at {@code ratePerSecond} (-1: unthrottled) on a topic of {@code partitions}, sending
         * {@code recordLimit} records in all (0: for a time).
         */
        public Tally producer(long ratePerSecond, int partitions, long recordLimit) {
            if (ratePerSecond < 0) {
                unthrottled++;
            } else {
                paced++;
            }
            batches = sum(batches, buffers.batches().of(ratePerSecond, partitions, recordLimit));
            return this;
        }

        /** A consumer (a share consumer's when {@code share}) that reads {@code partitions} partitions. */
        public Tally consumer(boolean share, int partitions) {
            if (share) {
                shareConsumers++;
            } else {
                consumers++;
            }
            fetches = sum(fetches, buffers.fetches().of(partitions));
            return this;
        }

        public HeapNeed need() {
            return new HeapNeed(paced, unthrottled, consumers, shareConsumers, batches, fetches);
        }
    }

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

    /** Bytes (at most {@link Long#MAX_VALUE}: a setting of Long.MAX_VALUE bytes is a need no heap fits, not a negative one). */
    public long bytes() {
        return sum(sum(sum(sum(sum(times(pacedProducers, PACED_PRODUCER), times(unthrottledProducers,
                UNTHROTTLED_PRODUCER)), times(consumers, CONSUMER)), times(shareConsumers, SHARE_CONSUMER)),
                producerBatches), consumerFetches);
    }

    public HeapNeed plus(HeapNeed o) {
        return new HeapNeed(pacedProducers + o.pacedProducers, unthrottledProducers + o.unthrottledProducers,
                consumers + o.consumers, shareConsumers + o.shareConsumers, sum(producerBatches, o.producerBatches),
                sum(consumerFetches, o.consumerFetches));
    }

    /** {@code a + b} of non-negative bytes, saturating at {@link Long#MAX_VALUE}. */
    public static long sum(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    private static long times(long n, long each) {
        return n != 0 && each > Long.MAX_VALUE / n ? Long.MAX_VALUE : n * each;
    }

    /** Whether it fits beside {@code held} bytes in a heap of {@code maxHeap}. */
    public boolean fits(long held, long maxHeap) {
        return sum(held, bytes()) <= (long) (USABLE * maxHeap);
    }

    /**
     * Why it does not fit, one line: {@code lead} says whose share ("its share of the run does not fit its heap"),
     * {@code held} what others already hold in the same heap (0: none).
     */
    public String refusal(String lead, long held, long maxHeap) {
        return String.format(Locale.ROOT, "%s: %s can need %s (latency recorders and Kafka clients: %s a paced "
                        + "producer, %s an unthrottled one, %s a consumer, %s a share consumer%s%s)%s, more than %d%% of "
                        + "the %s its JVM may use; spread the clients over more `kbench worker` processes (--workers)%s, "
                        + "or give the JVM more heap (KBENCH_JAVA_OPTS=-Xmx...)",
                lead, clients(), size(bytes()), size(PACED_PRODUCER), size(UNTHROTTLED_PRODUCER), size(CONSUMER),
                size(SHARE_CONSUMER), producerBatches == 0 ? "" : "; besides, up to " + size(producerBatches)
                        + " of producer batches: an unthrottled producer's buffer.memory, a paced one's records of "
                        + "delivery.timeout.ms", consumerFetches == 0 ? "" : "; " + (producerBatches == 0 ? "besides, " : "")
                        + "up to " + size(consumerFetches) + " of fetched records: twice max.partition.fetch.bytes "
                        + "a partition a consumer reads", held == 0 ? "" : ", besides the " + size(held) + " this JVM's "
                        + "other in-process workers hold", Math.round(USABLE * 100), size(maxHeap), buffers());
    }

    /** Which client buffers to make smaller, when they are most of the need. */
    private String buffers() {
        boolean batches = producerBatches * 2 > bytes();
        boolean fetches = consumerFetches * 2 > bytes();
        return batches ? ", lower the producers' buffer.memory" : fetches
                ? ", lower the consumers' max.partition.fetch.bytes" : "";
    }

    private String clients() {
        return String.format(Locale.ROOT, "%,d producer(s) and %,d consumer(s)%s", pacedProducers + unthrottledProducers,
                consumers, shareConsumers == 0 ? "" : String.format(Locale.ROOT, " and %,d share consumer(s)",
                        shareConsumers));
    }

    private static String size(long bytes) {
        if (bytes >= 1L << 50) { // a setting of Long.MAX_VALUE bytes (8 EB): no heap holds it
            return String.format(Locale.ROOT, "%.1f EB", bytes / (double) (1L << 60));
        }
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
    }
}
