package io.kbench.driver.kafka;

import java.time.Duration;
import java.util.List;

import io.kbench.driver.NanoClock;
import io.kbench.driver.ProducerHandle;
import io.kbench.driver.ProducerListener;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.utils.Utils;

/**
 * One Kafka producer. HOT PATH: {@link #send} allocates nothing of ours.
 *
 * <p>The stamp ({@link Stamp}) goes into the value's first bytes when the value has room for it, else into a
 * record header. The caller's value array is never written (a worker's producers share their payloads):
 * the handle copies it into a scratch array of its own, writes the stamp over its head, and sends that;
 * scratch arrays and the header's value array are reused for every send, because
 * {@code KafkaProducer.send} serializes the record into its batch before it returns, so the next send may
 * overwrite them. Scratch arrays are kept per value length ({@link #SCRATCH_SLOTS} lengths up to
 * {@link #SCRATCH_MAX_CACHED} bytes, and the last longer one): at most about 1 MB plus the largest message
 * per producer. Completion
 * callbacks come from a ring of reusable {@link Completion} objects; a slot whose previous send is still
 * in flight when the ring comes round is left alone and a fresh completion is used instead, and the ring doubles,
 * from {@link #INITIAL_RING} slots up to {@link #RING_SIZE}: it holds about as many completions as sends are in flight
 * at once (a paced producer at a few thousand messages a second, a few hundred; before 2026-12-01 every producer
 * made all 16,384 up front, about 1 MB of heap each).
 *
 * <p>With verification, the handle chooses each message's partition itself so that it can number the
 * messages per partition before the header is written: a keyed message goes where Kafka's default
 * partitioner puts it (murmur2 of the key modulo the partition count: the same partition), an unkeyed one
 * to the current "sticky" partition, which moves to another random partition when the next message would not
 * fit the {@code batch.size} batch filled there (the uniform sticky partitioning of KIP-794 without its
 * adaptive weighting by broker load; {@link #sticky}).
 *
 * <p>Flow control: the handle keeps at most {@code maxOutstandingBytes} of records sent and not yet completed
 * (estimated as key + value + {@link #RECORD_OVERHEAD} bytes each; half of {@code buffer.memory} by default)
 * and waits for completions itself before sending more. Without it, a load thread faster than the cluster
 * fills the client's buffer pool and blocks inside {@code send()}; while any thread waits for pool memory
 * the client's accumulator treats every batch as ready ("exhausted"), drains partly filled batches, and the
 * broker handles more, smaller batches and requests per record (measured: 1.34–1.38× its CPU per record
 * against ProducerPerformance). The time spent waiting here is part of the send, as the client's own blocking
 * would be (publish latency starts before it). The share of time the load thread spent waiting is reported
 * with the client's metrics as {@value #WAIT_RATIO} (per {@link #metrics()} call), next to the client's own
 * {@code bufferpool-wait-ratio}: together they say whether a producer that fell behind its schedule was held
 * back by the cluster (it waited for room) or by its own thread (it did not). The wait reads and parks on the
 * worker's {@link NanoClock}, as the metrics' time does, so a test can run it on a manual clock.
 *
 * <p>Threads: {@link #send}, {@link #flush} and {@link #close} on the owning load thread; completions on
 * the producer's sender thread; {@link #metrics()} on one thread at a time (the snapshot thread: its wait ratio is since its previous call).
 */
final class KafkaProducerHandle implements ProducerHandle {
    /** The most completions the ring grows to. */
    static final int RING_SIZE = 1 << 14;
    /** The ring's first size. */
    static final int INITIAL_RING = 64;
    /** Bytes a record costs beyond its key and value in the estimate of the client's buffer use. */
    static final int RECORD_OVERHEAD = 70;
    /** How long the load thread parks between looks while it waits for completions. */
    static final long WAIT_NANOS = 20_000;
    /**
     * Metric name: the fraction of the time since the previous {@link #metrics()} call that the load thread
     * waited for completions before it could send (the flow control above), 0 to 1.
     */
    static final String WAIT_RATIO = "kbench-buffer-wait-ratio";
    /**
     * Metric name: the fraction of the time since the previous {@link #metrics()} call that the load thread waited
     * inside the client's {@code send()}, 0 to 1: for metadata (no broker answering, a partition without a leader: up
     * to {@code max.block.ms}) or for its buffer pool. The waits that ended are the client's own figures
     * ({@code metadata-wait-time-ns-total}, {@code bufferpool-wait-time-ns-total}); a wait still in progress — which
     * the client records only once it ends, and a metadata wait that times out never — is counted as it lasts, when
     * the load thread is parked inside {@code send()} ({@link Thread.State#WAITING}, {@code TIMED_WAITING}): a thread
     * merely preempted there is runnable, and not counted.
     */
    static final String SEND_BLOCKED_RATIO = "kbench-send-blocked-ratio";
    /**
     * Metric name: how long ago, in milliseconds, the oldest send still waiting for its completion (acknowledgement or
     * failure) was made, at the {@link #metrics()} call; 0 when none waits. Its latency is in no histogram until it
     * completes, so a partition the cluster does not serve (no leader, too few in-sync replicas for {@code acks=all},
     * a request that got no answer) shows here while it lasts — by up to {@code delivery.timeout.ms}. Read from the
     * ring of completions ({@link #oldestInFlightNanos}): a lower bound when a producer has more sends in flight than
     * the ring's {@link #RING_SIZE} slots.
     */
    static final String UNACKED_AGE = "kbench-unacked-age-max";
    /** The client's cumulative waits inside {@code send()}, group {@code producer-metrics}. */
    static final java.util.List<String> CLIENT_WAITS = java.util.List.of("metadata-wait-time-ns-total",
            "bufferpool-wait-time-ns-total");
    private static final java.lang.invoke.VarHandle IN_CLIENT;

    static {
        try {
            IN_CLIENT = java.lang.invoke.MethodHandles.lookup().findVarHandle(KafkaProducerHandle.class,
                    "inClientSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** A wait in {@code send()} in progress counts once it has lasted this long (a send that does not wait: µs). */
    static final long OPEN_WAIT_NANOS = 1_000_000L;
    /** Scratch arrays for values of up to {@link #SCRATCH_MAX_CACHED} bytes, one per length slot. */
    static final int SCRATCH_SLOTS = 64;
    static final int SCRATCH_MAX_CACHED = 16 * 1024;
    /** Bytes of a v2 record batch's header (Kafka's {@code RECORD_BATCH_OVERHEAD}). */
    static final int BATCH_OVERHEAD = 61;

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final ProducerListener listener;
    private final byte[] stamp;
    private final boolean stamped;
    /** Headers of a record whose stamp travels in one: the producer's own, then the stamp's; null: none. */
    private final List<Header> headers;
    /** Headers of a record whose stamp is in its value (or that has none): the producer's own; null: none. */
    private final List<Header> ownHeaders;
    /** Bytes the producer's own headers add to every record, roughly (keys and values). */
    private final int ownHeaderBytes;
    /** The magic that starts a value carrying {@link #stamp}, and the shortest such value. */
    private final int magic;
    private final int inValueBytes;
    private final byte[][] scratch = new byte[SCRATCH_SLOTS][];
    private byte[] scratchLarge;
    /**
     * Reusable completions, a power of two of them; a slot is made when the cursor first reaches it. Written by the load
     * thread; read by the {@link #metrics()} caller too ({@link #oldestInFlightNanos}).
     */
    private volatile Completion[] ring = new Completion[INITIAL_RING];
    private long cursor;
    /** Verification: next sequence number per partition; null without verification. */
    private final long[] sequences;
    private final int batchSize;
    private final java.util.SplittableRandom random;
    private int stickyPartition;
    private long stickyBytes;
    private int stickyRecords;
    /** Bytes the stamp header takes in a record (its count excluded): when the value is too short for the stamp. */
    private final int headerBytes;
    /** Flow control: the most estimated bytes outstanding (0: none), what was sent, what completed. */
    private final long maxOutstandingBytes;
    private final long maxWaitNanos;
    private long sentCost;
    private long doneSeen;
    private final java.util.concurrent.atomic.AtomicLong doneCost = new java.util.concurrent.atomic.AtomicLong();
    /** Nanoseconds the load thread waited in {@link #awaitRoom}, finished waits; written by it alone. */
    private volatile long waitedNanos;
    /** When the wait in progress began ({@link #clock}); {@link Long#MIN_VALUE}: none. Written by the load thread. */
    private volatile long waitingSince = Long.MIN_VALUE;
    /** Odd while the load thread moves a finished wait from {@link #waitingSince} to {@link #waitedNanos} (a seqlock). */
    private volatile int waitVersion;
    /**
     * When the load thread entered the client's {@code send()} ({@link #clock}); {@link Long#MIN_VALUE}: it is not in
     * it. Written by the load thread (release: a plain store), read by the {@link #metrics()} caller.
     */
    @SuppressWarnings("unused") // through IN_CLIENT
    private long inClientSince = Long.MIN_VALUE;
    /** The thread that sends (set at the first send), whose state tells a wait in {@code send()} from a preemption. */
    private volatile Thread loadThread;
    /** {@link #metrics()}'s state for {@link #SEND_BLOCKED_RATIO}: the client's waits at the previous reading (-1: none
     * yet), and the wait in progress counted so far (its start, and how much). The caller's thread only. */
    private long lastClientWaits = -1;
    private long countedSince = Long.MIN_VALUE;
    private long counted;
    /** {@link #metrics()}'s previous reading: when, and {@link #waitedNanos} then (the caller's thread only). */
    private long lastMetricsNanos;
    private long lastWaitedNanos;
    private final NanoClock clock;

    /**
     * @param producerId {@link io.kbench.driver.ProducerOptions#NO_VERIFICATION}, or the id to stamp with
     *                   per-partition sequence numbers
     * @param batchSize  the producer's {@code batch.size}, bytes (when sticky partitions move on)
     */
    KafkaProducerHandle(Producer<byte[], byte[]> producer, String topic, ProducerListener listener,
                        long producerId, int batchSize) {
        this(producer, topic, listener, producerId, batchSize, true, 0, 0, NanoClock.SYSTEM, List.of());
    }

    /**
     * @param stamp false: records carry no stamp at all (no end-to-end latency, no verification), as the Kafka
     *              tools send them
     * @param clock the worker's clock: the flow control's wait and the metrics' time
     * @param own   headers every record carries ({@link io.kbench.driver.ProducerOptions#headers()})
     */
    KafkaProducerHandle(Producer<byte[], byte[]> producer, String topic, ProducerListener listener,
                        long producerId, int batchSize, boolean stamp, long maxOutstandingBytes, long maxWaitMillis,
                        NanoClock clock, List<io.kbench.driver.MessageHeader> own) {
        this.producer = producer;
        this.clock = clock;
        this.maxOutstandingBytes = Math.max(0, maxOutstandingBytes);
        this.maxWaitNanos = Math.max(0, maxWaitMillis) * 1_000_000L;
        this.topic = topic;
        this.listener = listener;
        this.batchSize = Math.max(1, batchSize);
        if (producerId >= 0) {
            this.stamp = new byte[Stamp.VERIFIED];
            Stamp.write(this.stamp, 8, producerId);
            sequences = new long[producer.partitionsFor(topic).size()];
            random = new java.util.SplittableRandom(producerId);
            stickyPartition = random.nextInt(sequences.length);
            magic = Stamp.MAGIC_VERIFIED;
        } else {
            this.stamp = new byte[Stamp.STAMP_ONLY];
            sequences = null;
            random = null;
            magic = Stamp.MAGIC_STAMP;
        }
        inValueBytes = Stamp.MAGIC_BYTES + this.stamp.length;
        headerBytes = !stamp ? 0 : 1 + Stamp.HEADER.length() + 1 + this.stamp.length;
        this.stamped = stamp;
        List<Header> mine = own.stream().map(h -> (Header) new RecordHeader(h.key(), h.value())).toList();
        ownHeaders = mine.isEmpty() ? null : mine;
        ownHeaderBytes = own.stream().mapToInt(io.kbench.driver.MessageHeader::size).sum();
        List<Header> withStamp = new java.util.ArrayList<>(mine);
        withStamp.add(new RecordHeader(Stamp.HEADER, this.stamp));
        headers = stamp ? List.copyOf(withStamp) : ownHeaders;
    }

    // HOT PATH
    @Override
    public void send(byte[] key, byte[] value, long stampMicros, long intendedNanos, long sendNanos) {
        // the stamp goes into the head of this handle's copy of the value (whose magic and producer id are
        // there since the copy was made), or into the header's array when the value is too short for it
        boolean inValue = stamped && value.length >= inValueBytes;
        byte[] v = value;
        byte[] into = stamp;
        int at = 0;
        if (inValue) {
            v = scratchFor(value.length);
            System.arraycopy(value, inValueBytes, v, inValueBytes, value.length - inValueBytes);
            into = v;
            at = Stamp.MAGIC_BYTES;
        }
        if (stamped) {
            Stamp.write(into, at, stampMicros);
        }
        Integer partition = null;
        if (sequences != null) {
            int p = key != null ? Utils.toPositive(Utils.murmur2(key)) % sequences.length
                    : sticky(ownHeaderBytes + (inValue ? value.length : value.length + headerBytes));
            Stamp.write(into, at + 16, sequences[p]++);
            partition = p;
        }
        long cost = (long) value.length + (key == null ? 0 : key.length) + ownHeaderBytes + RECORD_OVERHEAD;
        long entering = sendNanos;
        if (maxOutstandingBytes > 0 && sentCost - doneSeen + cost > maxOutstandingBytes) {
            entering = awaitRoom(cost);
        }
        if (loadThread == null) {
            loadThread = Thread.currentThread();
        }
        sentCost += cost;
        Completion[] r = ring;
        int slot = (int) (cursor++ & (r.length - 1));
        Completion c = r[slot];
        if (c == null) {
            c = new Completion(listener, doneCost);
            r[slot] = c;
        } else if (c.inFlight) {
            // more sends in flight than the ring has slots: this one gets a completion of its own, the ring grows
            c = new Completion(listener, doneCost);
            if (r.length < RING_SIZE) {
                ring = java.util.Arrays.copyOf(r, r.length * 2);
            }
        }
        c.arm(intendedNanos, sendNanos, value.length, cost);
        IN_CLIENT.setRelease(this, entering);
        try {
            producer.send(new ProducerRecord<>(topic, partition, null, key, v, inValue ? ownHeaders : headers), c);
            IN_CLIENT.setRelease(this, Long.MIN_VALUE);
        } catch (RuntimeException e) {
            IN_CLIENT.setRelease(this, Long.MIN_VALUE);
            // the client throws (rather than calling back) when closed or interrupted: nothing was appended,
            // so the sequence number is not used
            if (partition != null) {
                sequences[partition]--;
            }
            c.failIfInFlight(e);
        }
    }

    /**
     * The send time ({@link #clock}) of the oldest send in flight among the ring's completions, from any thread;
     * {@link Long#MAX_VALUE}: none. A completion in flight is not armed again before it completes, so the time read
     * after its {@code inFlight} flag is that send's (or, had it completed and been armed again meanwhile, a later
     * one's). A fresh completion used because its slot was busy is not in the ring: it is looked at only through the
     * older send in its slot, so the age is exact unless that older send completes first (more sends in flight than
     * the ring has slots).
     */
    long oldestInFlightNanos() {
        long oldest = 0;
        boolean any = false;
        for (Completion c : ring) {
            if (c != null && c.inFlight) {
                long s = c.sendNanos;
                if (!any || s - oldest < 0) {
                    oldest = s;
                    any = true;
                }
            }
        }
        return any ? oldest : Long.MAX_VALUE;
    }

    /** The ring's slots now (tests). */
    int ringSlots() {
        return ring.length;
    }

    /**
     * Waits until {@code cost} more bytes fit under the bound, nothing is outstanding, {@code max.block.ms}
     * passed (then the client's own blocking and timeout take over) or the thread is interrupted; returns when it
     * stopped waiting ({@link #clock}).
     */
    private long awaitRoom(long cost) {
        long start = clock.nanoTime();
        long deadline = start + maxWaitNanos;
        waitingSince = start; // a wait the cluster makes long (a broker that does not answer) shows while it lasts
        while (true) {
            doneSeen = doneCost.get();
            long outstanding = sentCost - doneSeen;
            long now = clock.nanoTime();
            if (outstanding + cost <= maxOutstandingBytes || outstanding <= 0 || Thread.currentThread().isInterrupted()
                    || now - deadline > 0) {
                int v = waitVersion;
                waitVersion = v + 1; // readers retry until the finished wait is in one field, not both or neither
                waitedNanos = waitedNanos + (now - start); // single writer
                waitingSince = Long.MIN_VALUE;
                waitVersion = v + 2;
                return now;
            }
            clock.park(WAIT_NANOS);
        }
    }

    /**
     * This handle's scratch array for a value of {@code length} bytes: its head holds the magic and the
     * producer id from when it was made; the caller writes the rest.
     */
    private byte[] scratchFor(int length) {
        if (length > SCRATCH_MAX_CACHED) {
            if (scratchLarge == null || scratchLarge.length != length) {
                scratchLarge = newScratch(length);
            }
            return scratchLarge;
        }
        int slot = length & (SCRATCH_SLOTS - 1);
        if (scratch[slot] == null || scratch[slot].length != length) {
            scratch[slot] = newScratch(length);
        }
        return scratch[slot];
    }

    private byte[] newScratch(int length) {
        byte[] s = new byte[length];
        Stamp.writeInt(s, 0, magic);
        System.arraycopy(stamp, 0, s, Stamp.MAGIC_BYTES, stamp.length); // the producer id, with verification
        return s;
    }

    /**
     * The sticky partition for an unkeyed message whose value (and stamp header, if any) takes
     * {@code valueBytes}: it stays while the message still fits the batch being filled there (its size in a
     * v2 batch estimated by {@link #recordBytes}, against {@code batch.size} less the batch header), and moves
     * to another random partition when it would not. So each stay fills about one whole batch, as Kafka's own
     * partitioner does; counting the values alone, a stay would end one full batch and a few records into the
     * next, small one. Compression: the estimate is of uncompressed bytes, so compressed batches stay smaller
     * than {@code batch.size} (Kafka's partitioner, with {@code verification: false}, fills them).
     */
    private int sticky(int valueBytes) {
        int bytes = recordBytes(stickyRecords, -1, valueBytes);
        if (stickyBytes > 0 && stickyBytes + bytes > batchSize - BATCH_OVERHEAD && sequences.length > 1) {
            int next = random.nextInt(sequences.length - 1);
            stickyPartition = next >= stickyPartition ? next + 1 : next;
            stickyBytes = 0;
            stickyRecords = 0;
            bytes = recordBytes(0, -1, valueBytes);
        }
        stickyBytes += bytes;
        stickyRecords++;
        return stickyPartition;
    }

    /**
     * Bytes a record takes in a v2 record batch (KIP-98 format): length varint, attributes, timestamp delta
     * (taken as 2 bytes: less than 8.2 s from the batch's first record, an over-estimate of 1 byte within
     * 64 ms), offset delta, key length and key ({@code keyBytes} -1: none), value length and value
     * ({@code valueBytes} includes any header), header count. Over-estimates by at most that byte, never under.
     */
    static int recordBytes(int offsetDelta, int keyBytes, int valueBytes) {
        int body = 1 + 2 + varintBytes(offsetDelta) + (keyBytes < 0 ? 1 : varintBytes(keyBytes) + keyBytes)
                + varintBytes(valueBytes) + valueBytes + 1;
        return varintBytes(body) + body;
    }

    /** Bytes of Kafka's zig-zag varint of a non-negative {@code n}. */
    static int varintBytes(int n) {
        long v = 2L * n;
        int bytes = 1;
        while (v >= 0x80) {
            v >>>= 7;
            bytes++;
        }
        return bytes;
    }

    @Override
    public java.util.SortedMap<String, String> metricsDump() {
        return ClientMetrics.dump(producer.metrics());
    }

    /** The client's metrics, {@value #WAIT_RATIO} and {@value #SEND_BLOCKED_RATIO} since the previous call (absent on the first), and {@value #UNACKED_AGE} now. */
    @Override
    public java.util.Map<String, Double> metrics() {
        var all = producer.metrics();
        java.util.Map<String, Double> m = ClientMetrics.pick(all, "producer-metrics", ClientMetrics.PRODUCER);
        long now = clock.nanoTime();
        long waited = waitedNanos();
        long blocked = clientBlockedNanos(now, all);
        if (lastMetricsNanos != 0 && now > lastMetricsNanos) {
            m.put(WAIT_RATIO, Math.min(1.0, (waited - lastWaitedNanos) / (double) (now - lastMetricsNanos)));
            m.put(SEND_BLOCKED_RATIO, Math.max(0, Math.min(1.0, blocked / (double) (now - lastMetricsNanos))));
        }
        long oldest = oldestInFlightNanos();
        m.put(UNACKED_AGE, oldest == Long.MAX_VALUE ? 0 : Math.max(0, (now - oldest) / 1e6));
        lastMetricsNanos = now;
        lastWaitedNanos = waited;
        return m;
    }

    /**
     * Nanoseconds the load thread waited inside the client's {@code send()} since the previous {@link #metrics()} call
     * ({@link #SEND_BLOCKED_RATIO}): the client's own record of its waits that ended, less what was counted of them
     * while they lasted, and the wait in progress since then (or since it began).
     */
    private long clientBlockedNanos(long now,
            java.util.Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> all) {
        long since = (long) IN_CLIENT.getAcquire(this);
        long waits = 0;
        for (java.util.Map.Entry<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> e
                : all.entrySet()) {
            org.apache.kafka.common.MetricName n = e.getKey();
            if (n.group().equals("producer-metrics") && CLIENT_WAITS.contains(n.name())
                    && e.getValue().metricValue() instanceof Number v && Double.isFinite(v.doubleValue())) {
                waits += (long) v.doubleValue();
            }
        }
        long ended = lastClientWaits < 0 ? 0 : Math.max(0, waits - lastClientWaits);
        lastClientWaits = waits;
        if (lastMetricsNanos == 0) {
            return 0; // the first reading: no ratio yet, only the starting point
        }
        if (countedSince != Long.MIN_VALUE && countedSince != since) {
            // a wait counted while it lasted has ended: the client recorded all of it now (unless it timed out: then
            // nothing, and there is nothing to take off)
            ended -= Math.min(counted, ended);
            countedSince = Long.MIN_VALUE;
            counted = 0;
        }
        long open = 0;
        Thread t = loadThread;
        Thread.State state = t == null ? null : t.getState();
        if (since != Long.MIN_VALUE && now - since >= OPEN_WAIT_NANOS
                && (state == Thread.State.TIMED_WAITING || state == Thread.State.WAITING)) {
            open = now - Math.max(since, lastMetricsNanos);
            if (countedSince != since) {
                countedSince = since;
                counted = 0;
            }
            counted += open;
        }
        return ended + open;
    }

    /**
     * Nanoseconds waited in {@link #awaitRoom} up to now, the wait in progress included: the finished waits, and the
     * open one from its start (read under {@link #waitVersion}, so that a wait that ends meanwhile is counted once).
     */
    private long waitedNanos() {
        while (true) {
            int v = waitVersion;
            long waited = waitedNanos;
            long since = waitingSince;
            if ((v & 1) == 0 && v == waitVersion) {
                return since == Long.MIN_VALUE ? waited : waited + Math.max(0, clock.nanoTime() - since);
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void beginTransaction() {
        try {
            producer.beginTransaction();
        } catch (RuntimeException e) {
            throw new io.kbench.driver.DriverException("cannot begin a transaction: " + e.getMessage(), e, false);
        }
    }

    @Override
    public void commitTransaction() {
        try {
            producer.commitTransaction();
        } catch (RuntimeException e) {
            throw new io.kbench.driver.DriverException("transaction commit failed: " + e.getMessage(), e, false);
        }
    }

    @Override
    public void flush() {
        producer.flush();
    }

    @Override
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    /** One reusable send completion. HOT PATH: runs on the producer's sender thread. */
    static final class Completion implements Callback {
        private final ProducerListener listener;
        private final java.util.concurrent.atomic.AtomicLong done;
        private long intendedNanos;
        private long sendNanos;
        private int valueBytes;
        private long cost;
        /** Written last by the sender thread, read by the load thread before reuse. */
        volatile boolean inFlight;

        Completion(ProducerListener listener, java.util.concurrent.atomic.AtomicLong done) {
            this.listener = listener;
            this.done = done;
        }

        void arm(long intended, long sent, int bytes, long estimatedCost) {
            intendedNanos = intended;
            sendNanos = sent;
            valueBytes = bytes;
            cost = estimatedCost;
            inFlight = true;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            long intended = intendedNanos;
            long sent = sendNanos;
            int bytes = valueBytes;
            long c = cost;
            inFlight = false;
            done.getAndAdd(c);
            if (exception == null) {
                listener.onAck(intended, sent, bytes, metadata.partition());
            } else {
                listener.onError(intended, sent, exception);
            }
        }

        void failIfInFlight(RuntimeException e) {
            if (inFlight) {
                onCompletion(null, e);
            }
        }
    }
}
