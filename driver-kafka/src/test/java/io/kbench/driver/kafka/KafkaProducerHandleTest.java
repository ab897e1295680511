package io.kbench.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kbench.driver.ManualNanoClock;
import io.kbench.driver.ProducerListener;
import io.kbench.driver.ProducerOptions;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The handle's own logic on Kafka's {@link MockProducer}: the broker's part is the integration tests'. */
class KafkaProducerHandleTest {
    private static final String TOPIC = "t";
    private static final int PARTITIONS = 6;

    /** Completions as the listener saw them: intended nanos → (sent nanos, bytes or -1 for an error). */
    static final class Seen implements ProducerListener {
        final Map<Long, long[]> acks = new HashMap<>();
        final List<Throwable> errors = new ArrayList<>();
        final List<Long> failedIntended = new ArrayList<>();

        @Override
        public synchronized void onAck(long intendedNanos, long sendNanos, int valueBytes, int partition) {
            assertTrue(partition >= 0, "message " + intendedNanos + " acknowledged in partition " + partition);
            long[] previous = acks.put(intendedNanos, new long[] {sendNanos, valueBytes});
            assertEquals(null, previous, "message " + intendedNanos + " acknowledged twice");
        }

        @Override
        public synchronized void onError(long intendedNanos, long sendNanos, Throwable error) {
            errors.add(error);
            failedIntended.add(intendedNanos);
        }
    }

    private static MockProducer<byte[], byte[]> producer(boolean autoComplete) {
        return new MockProducer<>(cluster(), autoComplete, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** One broker leading every partition of {@link #TOPIC}. */
    private static Cluster cluster() {
        Node node = new Node(0, "localhost", 9092);
        List<PartitionInfo> parts = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            parts.add(new PartitionInfo(TOPIC, p, node, new Node[] {node}, new Node[] {node}));
        }
        return new Cluster("c", List.of(node), parts, Set.of(), Set.of());
    }

    /** The stamp as the header would carry it (8 or 24 bytes), from the value's head or the header. */
    private static byte[] stampOf(ProducerRecord<byte[], byte[]> r) {
        byte[] v = r.value();
        if (v.length >= Stamp.IN_VALUE_STAMP_ONLY && Stamp.readInt(v, 0) == Stamp.MAGIC_STAMP) {
            assertEquals(0, r.headers().toArray().length, "a stamp in the value and no header");
            return java.util.Arrays.copyOfRange(v, 4, 4 + Stamp.STAMP_ONLY);
        }
        if (v.length >= Stamp.IN_VALUE_VERIFIED && Stamp.readInt(v, 0) == Stamp.MAGIC_VERIFIED) {
            assertEquals(0, r.headers().toArray().length, "a stamp in the value and no header");
            return java.util.Arrays.copyOfRange(v, 4, 4 + Stamp.VERIFIED);
        }
        return r.headers().lastHeader(Stamp.HEADER).value();
    }

    @Test
    void shouldStampEveryRecordWithItsIntendedTimeInEightBigEndianBytes() {
        MockProducer<byte[], byte[]> mock = producer(true);
        Seen seen = new Seen();
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, seen, ProducerOptions.NO_VERIFICATION, 16384);
        h.send(null, new byte[100], 1_700_000_000_123_456L, 11, 12);
        h.send("k".getBytes(StandardCharsets.UTF_8), new byte[7], -5, 21, 22);
        List<ProducerRecord<byte[], byte[]>> sent = mock.history();
        assertEquals(2, sent.size());
        // the header's array is reused: history keeps the record, so read the stamp of the last one only
        byte[] last = stampOf(sent.get(1));
        assertEquals(Stamp.STAMP_ONLY, last.length);
        assertEquals(-5, Stamp.read(last, 0));
        assertEquals(null, sent.get(0).partition(), "without verification Kafka's partitioner chooses");
        assertEquals(Map.of(11L, List.of(12L, 100L), 21L, List.of(22L, 7L)), asLists(seen.acks));
    }

    @Test
    void shouldCarryTheStampInTheValueHeadWhenTheValueHasRoomAndLeaveTheCallersArrayAlone() {
        MockProducer<byte[], byte[]> mock = producer(true);
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384);
        byte[] payload = new byte[100];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i + 1);
        }
        byte[] original = payload.clone();
        h.send(null, payload, 1_700_000_000_123_456L, 1, 1);
        ProducerRecord<byte[], byte[]> r = mock.history().get(0);
        assertEquals(0, r.headers().toArray().length, "no header: the broker parses nothing extra");
        assertEquals(100, r.value().length, "the value is as long as the workload asked");
        assertEquals(Stamp.MAGIC_STAMP, Stamp.readInt(r.value(), 0));
        assertEquals(1_700_000_000_123_456L, Stamp.read(r.value(), 4));
        assertTrue(java.util.Arrays.equals(original, 12, 100, r.value(), 12, 100), "the rest is the payload's");
        assertTrue(java.util.Arrays.equals(original, payload), "the caller's (shared) array is not written");
        assertTrue(r.value() != payload, "a scratch copy is sent");
    }

    @Test
    void shouldSendTheProducersOwnHeadersOnEveryRecordBeforeTheStampsAndCountThemInTheCost() {
        MockProducer<byte[], byte[]> mock = producer(true);
        List<io.kbench.driver.MessageHeader> own = List.of(new io.kbench.driver.MessageHeader("AAA", new byte[5]),
                new io.kbench.driver.MessageHeader("BB", null));
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384,
                true, 0, 0, io.kbench.driver.NanoClock.SYSTEM, own);
        h.send(null, new byte[100], 9, 1, 1); // the stamp in the value: the own headers alone
        h.send(null, new byte[2], 10, 2, 2); // too short: the stamp's header after them
        List<String> first = java.util.Arrays.stream(mock.history().get(0).headers().toArray()).map(x -> x.key()).toList();
        List<String> second = java.util.Arrays.stream(mock.history().get(1).headers().toArray()).map(x -> x.key()).toList();
        assertEquals(List.of("AAA", "BB"), first);
        assertEquals(List.of("AAA", "BB", Stamp.HEADER), second);
        assertEquals(null, mock.history().get(0).headers().lastHeader("BB").value(), "a null value stays null");
        assertEquals(10, Stamp.read(mock.history().get(1).headers().lastHeader(Stamp.HEADER).value(), 0));
        assertEquals(5 + 3 + 2, new io.kbench.driver.MessageHeader("AAA", new byte[5]).size()
                + new io.kbench.driver.MessageHeader("BB", null).size());
    }

    @Test
    void shouldFallBackToTheHeaderForAValueTooShortForTheStamp() {
        MockProducer<byte[], byte[]> mock = producer(true);
        KafkaProducerHandle plain = new KafkaProducerHandle(mock, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384);
        plain.send(null, new byte[Stamp.IN_VALUE_STAMP_ONLY - 1], 9, 1, 1);
        ProducerRecord<byte[], byte[]> r = mock.history().get(0);
        assertEquals(Stamp.IN_VALUE_STAMP_ONLY - 1, r.value().length);
        assertEquals(9, Stamp.read(r.headers().lastHeader(Stamp.HEADER).value(), 0));
        plain.send(null, new byte[Stamp.IN_VALUE_STAMP_ONLY], 10, 2, 2);
        assertEquals(0, mock.history().get(1).headers().toArray().length, "12 bytes: magic and stamp fit");

        KafkaProducerHandle verified = new KafkaProducerHandle(mock, TOPIC, new Seen(), 3, 16384);
        verified.send(null, new byte[Stamp.IN_VALUE_VERIFIED - 1], 11, 3, 3);
        r = mock.history().get(2);
        assertEquals(Stamp.VERIFIED, r.headers().lastHeader(Stamp.HEADER).value().length);
        assertTrue(Stamp.readInt(r.value(), 0) != Stamp.MAGIC_VERIFIED, "the short value is sent as it was");
        verified.send(null, new byte[Stamp.IN_VALUE_VERIFIED], 12, 4, 4);
        r = mock.history().get(3);
        assertEquals(Stamp.MAGIC_VERIFIED, Stamp.readInt(r.value(), 0));
        assertEquals(3, Stamp.read(r.value(), 12), "producer id");
    }

    @Test
    void shouldKeepEachValueLengthsContentsWhenLengthsShareAScratchSlotOrExceedTheCache() {
        MockProducer<byte[], byte[]> mock = producer(true);
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384);
        int[] lengths = {100, 100 + KafkaProducerHandle.SCRATCH_SLOTS, KafkaProducerHandle.SCRATCH_MAX_CACHED + 1,
                KafkaProducerHandle.SCRATCH_MAX_CACHED + 2, 100, KafkaProducerHandle.SCRATCH_MAX_CACHED + 1};
        for (int i = 0; i < lengths.length; i++) {
            byte[] payload = new byte[lengths[i]];
            java.util.Arrays.fill(payload, (byte) (i + 1));
            h.send(null, payload, 1000 + i, i, i);
            byte[] v = mock.history().get(i).value();
            assertEquals(lengths[i], v.length);
            assertEquals(1000 + i, Stamp.read(v, 4));
            for (int b = Stamp.IN_VALUE_STAMP_ONLY; b < v.length; b++) {
                assertEquals(i + 1, v[b], "byte " + b + " of send " + i);
            }
        }
    }

    @Test
    void shouldEstimateARecordsBatchBytesAsKafkaSizesItNeverLessAndAtMostOneByteMore() {
        int[] offsets = {0, 1, 63, 64, 8191, 8192, 100_000};
        int[] keys = {-1, 0, 10, 200};
        int[] values = {0, 12, 100, 1000, 20_000, 1 << 20};
        long[] timestampDeltas = {0, 5, 63, 64, 8191};
        for (int offset : offsets) {
            for (int key : keys) {
                for (int value : values) {
                    int estimate = KafkaProducerHandle.recordBytes(offset, key, value);
                    for (long ts : timestampDeltas) {
                        int actual = org.apache.kafka.common.record.internal.DefaultRecord.sizeInBytes(offset, ts,
                                key < 0 ? null : java.nio.ByteBuffer.allocate(key), java.nio.ByteBuffer.allocate(value),
                                new org.apache.kafka.common.header.Header[0]);
                        assertTrue(estimate >= actual && estimate - actual <= 1, "offset " + offset + ", key " + key
                                + ", value " + value + ", timestamp delta " + ts + ": estimate " + estimate
                                + ", Kafka " + actual);
                    }
                }
            }
        }
    }

    @Test
    void shouldStayOnAPartitionForAboutOneFullBatchAndThenMoveOn() {
        MockProducer<byte[], byte[]> mock = producer(true);
        int batchSize = 16384;
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), 9, batchSize);
        int n = 5_000;
        for (int i = 0; i < n; i++) {
            h.send(null, new byte[100], i, i, i);
        }
        List<Integer> stays = new ArrayList<>();
        int run = 0;
        Integer current = null;
        for (ProducerRecord<byte[], byte[]> r : mock.history()) {
            if (current != null && !current.equals(r.partition())) {
                stays.add(run);
                run = 0;
            }
            current = r.partition();
            run++;
        }
        assertTrue(stays.size() > 10, "it moves on: " + stays.size() + " stays");
        // a 100-byte value with its in-value stamp is a 108- or 109-byte record in a v2 batch
        int fullBatch = 0;
        int bytes = 0;
        while (true) {
            int next = org.apache.kafka.common.record.internal.DefaultRecord.sizeInBytes(fullBatch, 0,
                    (java.nio.ByteBuffer) null, java.nio.ByteBuffer.allocate(100), new org.apache.kafka.common.header.Header[0]);
            if (bytes + next > batchSize - KafkaProducerHandle.BATCH_OVERHEAD) {
                break;
            }
            bytes += next;
            fullBatch++;
        }
        for (int stay : stays) {
            assertTrue(stay <= fullBatch && stay >= fullBatch - 2, "a stay of " + stay + " records; a full batch holds "
                    + fullBatch);
        }
    }

    private static Map<Long, List<Long>> asLists(Map<Long, long[]> acks) {
        Map<Long, List<Long>> out = new HashMap<>();
        acks.forEach((k, v) -> out.put(k, List.of(v[0], v[1])));
        return out;
    }

    @Test
    void shouldWriteStampsBigEndianAndReadThemBack() {
        byte[] b = new byte[Stamp.VERIFIED];
        long[] values = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 0x0102030405060708L, 1_700_000_000_123_456L, 255, 256};
        for (long v : values) {
            Stamp.write(b, 8, v);
            assertEquals(v, Stamp.read(b, 8));
        }
        Stamp.write(b, 0, 0x0102030405060708L);
        assertEquals(1, b[0]);
        assertEquals(8, b[7]);
    }

    @Test
    void shouldPutAKeyedMessageWhereKafkasPartitionerWouldAndNumberItInItsPartition() {
        // 10 bytes: the stamp in a header; 100 bytes: in the value (every send rewrites the same scratch copy)
        for (int valueBytes : new int[] {10, 100}) {
            keyedAndNumbered(valueBytes);
        }
    }

    private static void keyedAndNumbered(int valueBytes) {
        MockProducer<byte[], byte[]> mock = producer(true);
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), 77, 16384);
        Map<Integer, Long> next = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            byte[] key = ("key-" + (i % 13)).getBytes(StandardCharsets.UTF_8);
            h.send(key, new byte[valueBytes], i, i, i);
            ProducerRecord<byte[], byte[]> r = mock.history().get(i);
            int expected = BuiltInPartitioner.partitionForKey(key, PARTITIONS);
            assertEquals(expected, r.partition(), "key " + new String(key, StandardCharsets.UTF_8));
            byte[] stamp = stampOf(r);
            assertEquals(Stamp.VERIFIED, stamp.length);
            assertEquals(i, Stamp.read(stamp, 0));
            assertEquals(77, Stamp.read(stamp, 8));
            long seq = next.merge(expected, 1L, Long::sum) - 1;
            assertEquals(seq, Stamp.read(stamp, 16), "sequence in partition " + expected);
        }
        assertTrue(next.size() > 1, "13 keys spread over several partitions");
    }

    @Test
    void shouldNotUseASequenceNumberWhenTheClientRefusesTheSendAndReportTheFailureOnce() {
        MockProducer<byte[], byte[]> mock = producer(true);
        Seen seen = new Seen();
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, seen, 5, 16384);
        byte[] key = "same".getBytes(StandardCharsets.UTF_8);
        h.send(key, new byte[1], 1, 1, 1);
        mock.sendException = new InterruptException("interrupted while blocked in send");
        h.send(key, new byte[1], 2, 2, 2);
        mock.sendException = null;
        h.send(key, new byte[1], 3, 3, 3);
        List<ProducerRecord<byte[], byte[]>> sent = mock.history();
        assertEquals(2, sent.size(), "the refused send never reached the client");
        assertEquals(1, Stamp.read(stampOf(sent.get(1)), 16), "the refused send's sequence number is reused");
        assertEquals(List.of(2L), seen.failedIntended);
        assertSame(InterruptException.class, seen.errors.get(0).getClass());
        assertEquals(Set.of(1L, 3L), seen.acks.keySet());
    }

    /** The ring holds about as many completions as sends are in flight, not its largest size for every producer. */
    @Test
    void shouldGrowTheRingOnlyToTheSendsInFlight() {
        MockProducer<byte[], byte[]> acked = producer(true); // each send completed as it is made
        KafkaProducerHandle few = new KafkaProducerHandle(acked, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384);
        for (int i = 0; i < 100_000; i++) {
            few.send(null, new byte[10], i, i, i); // stamp, intended, sent
        }
        assertEquals(KafkaProducerHandle.INITIAL_RING, few.ringSlots());
        MockProducer<byte[], byte[]> held = producer(false);
        Seen seen = new Seen();
        KafkaProducerHandle many = new KafkaProducerHandle(held, TOPIC, seen, ProducerOptions.NO_VERIFICATION, 16384);
        for (int round = 0; round < 3; round++) { // 1,000 in flight at a time
            for (int i = 0; i < 1_000; i++) {
                long n = round * 1_000L + i;
                many.send(null, new byte[10], n, n, n);
            }
            while (held.completeNext()) {
                // all of this round's
            }
        }
        assertEquals(1_024, many.ringSlots(), "the power of two above 1,000");
        assertEquals(3_000, seen.acks.size());
    }

    @Test
    void shouldKeepEveryCompletionItsOwnWhenMoreSendsAreInFlightThanTheRingHolds() {
        MockProducer<byte[], byte[]> mock = producer(false);
        Seen seen = new Seen();
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, seen, ProducerOptions.NO_VERIFICATION, 16384);
        int n = KafkaProducerHandle.RING_SIZE + 1000;
        for (int i = 0; i < n; i++) {
            h.send(null, new byte[i % 50], i, 1_000_000L + i, 2_000_000L + i); // intended, sent
        }
        int failed = 0;
        for (int i = 0; i < n; i++) {
            if (i % 1000 == 999) {
                mock.errorNext(new org.apache.kafka.common.errors.TimeoutException("expired"));
                failed++;
            } else {
                mock.completeNext();
            }
        }
        assertEquals(n - failed, seen.acks.size());
        assertEquals(failed, seen.errors.size());
        for (Map.Entry<Long, long[]> a : seen.acks.entrySet()) {
            long i = a.getKey() - 1_000_000L;
            assertEquals(2_000_000L + i, a.getValue()[0], "send time of message " + i);
            assertEquals(i % 50, a.getValue()[1], "bytes of message " + i);
        }
        Set<Long> all = new HashSet<>(seen.acks.keySet());
        all.addAll(seen.failedIntended);
        assertEquals(n, all.size(), "every message completed exactly once");
    }

    @Test
    void shouldMoveTheStickyPartitionOnWhenTheNextRecordWouldNotFitTheBatch() {
        MockProducer<byte[], byte[]> mock = producer(true);
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), 9, 1000);
        for (int i = 0; i < 40; i++) {
            h.send(null, new byte[100], i, i, i);
        }
        // a 100-byte value is a 108-byte record: 8 fit the 939 bytes a 1000-byte batch leaves for records
        List<Integer> parts = mock.history().stream().map(ProducerRecord::partition).toList();
        for (int batch = 0; batch < 5; batch++) {
            List<Integer> run = parts.subList(batch * 8, batch * 8 + 8);
            assertEquals(1, new HashSet<>(run).size(), "8 records stay in one partition: " + parts);
            if (batch > 0) {
                assertNotEquals(parts.get(batch * 8 - 1), run.get(0), "then move to another: " + parts);
            }
        }
    }

    /**
     * The oldest send still waiting for its completion, at each reading: its latency is in no histogram until it
     * completes (a partition the cluster does not serve), so the reading is what shows it.
     */
    @Test
    void shouldReportHowLongTheOldestSendStillInFlightHasWaited() {
        MockProducer<byte[], byte[]> mock = producer(false);
        ManualNanoClock clock = new ManualNanoClock(1_000_000_000L);
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384,
                false, 0, 0, clock, List.of());
        assertEquals(0.0, h.metrics().get(KafkaProducerHandle.UNACKED_AGE), "nothing sent: nothing waits");
        // 200 sends, 10 ms apart (more than the ring's first 64 slots: it grows), the first at 1 s
        for (int i = 0; i < 200; i++) {
            long now = clock.nanoTime();
            h.send(null, new byte[10], 0, now, now);
            clock.advance(10_000_000L);
        }
        // now 3 s: the first, sent at 1 s, has waited 2 s
        assertEquals(2_000.0, h.metrics().get(KafkaProducerHandle.UNACKED_AGE), 1e-9);
        assertTrue(mock.completeNext());
        assertEquals(1_990.0, h.metrics().get(KafkaProducerHandle.UNACKED_AGE), 1e-9, "the second is the oldest now");
        assertTrue(mock.errorNext(new RuntimeException("expired"))); // a failure completes it too
        assertEquals(1_980.0, h.metrics().get(KafkaProducerHandle.UNACKED_AGE), 1e-9);
        for (int i = 0; i < 197; i++) {
            assertTrue(mock.completeNext());
        }
        clock.advance(500_000_000L);
        assertEquals(510.0, h.metrics().get(KafkaProducerHandle.UNACKED_AGE), 1e-9, "the last one, sent at 2.99 s");
        assertTrue(mock.completeNext());
        assertEquals(0.0, h.metrics().get(KafkaProducerHandle.UNACKED_AGE), "all completed");
        // the ring's slots are used again: a new send is the oldest, not an old one that completed in its slot
        h.send(null, new byte[10], 0, clock.nanoTime(), clock.nanoTime());
        clock.advance(1_000_000L);
        assertEquals(1.0, h.metrics().get(KafkaProducerHandle.UNACKED_AGE), 1e-9);
    }

    @Test
    void shouldWaitForCompletionsOnceTheOutstandingBoundIsReachedInsteadOfFillingTheClientsBuffer() {
        MockProducer<byte[], byte[]> mock = producer(false);
        Seen seen = new Seen();
        ManualNanoClock clock = new ManualNanoClock(1_000_000_000L);
        long cost = 100 + KafkaProducerHandle.RECORD_OVERHEAD;
        // room for 3 records of 100 bytes; a wait of at most 10 s
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, seen, ProducerOptions.NO_VERIFICATION, 16384, false,
                3 * cost, 10_000, clock, List.of());
        assertEquals(null, h.metrics().get(KafkaProducerHandle.WAIT_RATIO), "no ratio before a first reading");
        for (int i = 0; i < 3; i++) {
            h.send(null, new byte[100], 0, i, i);
        }
        assertEquals(0, clock.parks(), "three fit: no wait");
        clock.advance(4_000_000); // 4 ms of sending
        // the fourth waits: the 50th look finds one completed, room for one more
        clock.onPark(nanos -> {
            assertEquals(3, mock.history().size(), "nothing sent while waiting");
            if (clock.parks() == 50) {
                assertTrue(mock.completeNext());
            }
        });
        h.send(null, new byte[100], 0, 3, 3);
        assertEquals(4, mock.history().size(), "the fourth went once one completed");
        assertEquals(50, clock.parks());
        // waited 50 x 20 us = 1 ms of the 5 ms since the first reading
        assertEquals(0.2, h.metrics().get(KafkaProducerHandle.WAIT_RATIO), 1e-9);
        clock.advance(1_000_000);
        assertEquals(0.0, h.metrics().get(KafkaProducerHandle.WAIT_RATIO), "no wait since the previous reading");
        // a failed send frees its room too: no wait
        assertTrue(mock.errorNext(new RuntimeException("broker said no")));
        h.send(null, new byte[100], 0, 4, 4);
        assertEquals(50, clock.parks());
        assertEquals(5, mock.history().size());
        assertEquals(1, seen.errors.size());
    }

    @Test
    void shouldCountAWaitStillInProgressInTheWaitRatio() {
        // a broker that stopped answering: the load thread waits for room, and the readings while it waits say so
        // (before, a wait counted only once it ended, in the interval it ended in)
        MockProducer<byte[], byte[]> mock = producer(false);
        ManualNanoClock clock = new ManualNanoClock(1_000_000_000L);
        long cost = 100 + KafkaProducerHandle.RECORD_OVERHEAD;
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384,
                false, cost, 60_000, clock, List.of());
        h.metrics(); // the first reading
        h.send(null, new byte[100], 0, 0, 0);
        java.util.List<Double> readings = new java.util.ArrayList<>();
        clock.onPark(nanos -> {
            if (clock.parks() % 25_000 == 0) { // every 0.5 s of waiting (parks of 20 us), as a snapshot thread would
                readings.add(h.metrics().get(KafkaProducerHandle.WAIT_RATIO));
            }
            if (clock.parks() == 100_000) { // the broker answers after 2 s
                assertTrue(mock.completeNext());
            }
        });
        h.send(null, new byte[100], 0, 1, 1);
        assertEquals(4, readings.size());
        for (double r : readings) {
            assertEquals(1.0, r, 1e-9, "waiting the whole time since the reading before: " + readings);
        }
        clock.advance(500_000_000L);
        assertEquals(0.0, h.metrics().get(KafkaProducerHandle.WAIT_RATIO), 1e-9, "counted once: not again when it ended");
    }

    /** A client whose send() holds the calling thread until released: parked (a wait), or spinning (runnable). */
    private static final class HoldingProducer extends MockProducer<byte[], byte[]> {
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final boolean park;
        volatile Thread sender;

        HoldingProducer(boolean park) {
            super(cluster(), true, null, new ByteArraySerializer(), new ByteArraySerializer());
            this.park = park;
        }

        @Override
        public synchronized java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> send(
                ProducerRecord<byte[], byte[]> record, org.apache.kafka.clients.producer.Callback callback) {
            sender = Thread.currentThread();
            while (release.getCount() > 0) {
                if (park) {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                } else {
                    Thread.onSpinWait();
                }
            }
            return super.send(record, callback);
        }

        /** What the client itself records of its metadata waits once they end. */
        void recordedMetadataWait(double nanos) {
            org.apache.kafka.common.MetricName name = new org.apache.kafka.common.MetricName("metadata-wait-time-ns-total",
                    "producer-metrics", "", java.util.Map.of("client-id", "p"));
            setMockMetrics(name, new org.apache.kafka.common.Metric() {
                @Override
                public org.apache.kafka.common.MetricName metricName() {
                    return name;
                }

                @Override
                public Object metricValue() {
                    return nanos;
                }
            });
        }
    }

    /** A handle without flow control over a {@link HoldingProducer}, a load thread inside its send() meanwhile. */
    private record Held(HoldingProducer client, ManualNanoClock clock, KafkaProducerHandle handle, Thread load) {
        /** Starts the send once the handle's metrics were read a first time; returns once the thread is in it. */
        static Held start(boolean park) {
            HoldingProducer client = new HoldingProducer(park);
            ManualNanoClock clock = new ManualNanoClock(1_000_000_000L);
            KafkaProducerHandle h = new KafkaProducerHandle(client, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION,
                    16384, false, 0, 60_000, clock, List.of());
            h.metrics();
            long at = clock.nanoTime();
            Thread t = new Thread(() -> h.send(null, new byte[100], 0, at, at), "load");
            t.start();
            while (client.sender == null || park && t.getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
            return new Held(client, clock, h, t);
        }

        double blockedRatio() {
            return handle.metrics().get(KafkaProducerHandle.SEND_BLOCKED_RATIO);
        }
    }

    @Test
    void shouldCountAWaitInsideTheClientsSendWhileItLastsAndOnceWhenTheClientRecordsIt() throws Exception {
        // no broker answering: the client's send() waits for metadata; the client records the wait only once it ends
        Held held = Held.start(true);
        held.clock().advance(1_000_000_000L);
        assertEquals(1.0, held.blockedRatio(), 1e-9, "waiting the whole second");
        held.clock().advance(500_000_000L);
        held.client().recordedMetadataWait(1_500_000_000d); // it ends: the client records all 1.5 s of it
        held.client().release.countDown();
        held.load().join();
        held.clock().advance(1_000_000_000L);
        assertEquals(0.5 / 1.5, held.blockedRatio(), 1e-9,
                "its last 0.5 s of the 1.5 s since, not again the second counted while it lasted");
        held.clock().advance(1_000_000_000L);
        assertEquals(0.0, held.blockedRatio(), 1e-9);
    }

    @Test
    void shouldNotCountALoadThreadThatIsRunnableInsideSendAsWaiting() throws Exception {
        // a load thread preempted (or busy) inside send() on a host short of cores is runnable, not waiting for the
        // cluster: 8 producers on 2 cores read 89% "blocked" when the time in send() alone was counted
        Held held = Held.start(false);
        held.clock().advance(1_000_000_000L);
        assertEquals(0.0, held.blockedRatio(), 1e-9);
        held.client().release.countDown();
        held.load().join();
    }

    @Test
    void shouldGiveUpWaitingAfterMaxBlockAndLetTheClientDecide() {
        MockProducer<byte[], byte[]> mock = producer(false);
        ManualNanoClock clock = new ManualNanoClock(1_000_000_000L);
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384,
                false, 1, 200, clock, List.of());
        h.send(null, new byte[100], 0, 0, 0); // alone above the bound: nothing outstanding, so it goes
        assertEquals(0, clock.parks());
        long start = clock.nanoTime();
        h.send(null, new byte[100], 0, 1, 1);
        assertEquals(2, mock.history().size(), "sent after the wait: the client's own max.block.ms decides now");
        // the first look past the 200-ms deadline gives up: 10,001 parks of 20 us
        assertEquals(200_020_000L, clock.nanoTime() - start);
        assertEquals(10_001, clock.parks());
    }

    @Test
    void shouldStopWaitingWhenTheLoadThreadIsInterrupted() {
        MockProducer<byte[], byte[]> mock = producer(false);
        ManualNanoClock clock = new ManualNanoClock(1_000_000_000L);
        KafkaProducerHandle h = new KafkaProducerHandle(mock, TOPIC, new Seen(), ProducerOptions.NO_VERIFICATION, 16384,
                false, 1, 60_000, clock, List.of());
        h.send(null, new byte[100], 0, 0, 0);
        clock.onPark(nanos -> {
            if (clock.parks() == 3) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            h.send(null, new byte[100], 0, 1, 1);
            assertEquals(3, clock.parks(), "the look after the interrupt returns");
        } finally {
            Thread.interrupted(); // the handle leaves the flag for the caller; clear it for the next test
        }
    }
}
