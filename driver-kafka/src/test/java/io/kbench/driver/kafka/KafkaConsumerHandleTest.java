package io.kbench.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kbench.driver.RecordListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** The handle's own logic on Kafka's {@link MockConsumer}: decoding stamps, holding, assignment state. */
class KafkaConsumerHandleTest {
    private static final String TOPIC = "t";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    record Got(int bytes, long stamp, int partition, long producer, long sequence) { }

    static final class Collect implements RecordListener {
        final List<Got> got = new ArrayList<>();
        int polls;

        @Override
        public void onPollReturned() {
            polls++;
        }

        @Override
        public void onRecord(int valueBytes, long stampMicros, int partition, long producerId, long sequence) {
            got.add(new Got(valueBytes, stampMicros, partition, producerId, sequence));
        }
    }

    private static ConsumerRecord<byte[], byte[]> record(TopicPartition tp, long offset, byte[] value, byte[] stamp) {
        RecordHeaders headers = new RecordHeaders();
        if (stamp != null) {
            headers.add(Stamp.HEADER, stamp);
        }
        return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, 0L, TimestampType.CREATE_TIME,
                -1, value.length, null, value, headers, Optional.empty());
    }

    private static byte[] stamp(long micros, Long producer, long sequence) {
        byte[] b = new byte[producer == null ? Stamp.STAMP_ONLY : Stamp.VERIFIED];
        Stamp.write(b, 0, micros);
        if (producer != null) {
            Stamp.write(b, 8, producer);
            Stamp.write(b, 16, sequence);
        }
        return b;
    }

    private static MockConsumer<byte[], byte[]> consumer() {
        MockConsumer<byte[], byte[]> c = new MockConsumer<>("earliest");
        c.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        c.updateEndOffsets(Map.of(P0, 10L, P1, 10L));
        return c;
    }

    @Test
    void shouldHandEachRecordsSizeStampAndSequenceToTheListener() {
        MockConsumer<byte[], byte[]> mock = consumer();
        KafkaConsumerHandle h = new KafkaConsumerHandle(mock, TOPIC);
        assertFalse(h.joined());
        mock.rebalance(List.of(P0, P1));
        h.onPartitionsAssigned(List.of(P0, P1));
        assertTrue(h.joined());
        assertEquals(2, h.assignedPartitions());
        mock.addRecord(record(P0, 0, new byte[100], stamp(1_700_000_000_000_001L, null, 0)));
        mock.addRecord(record(P1, 0, new byte[7], stamp(42, 3L, 9)));
        mock.addRecord(record(P1, 1, new byte[5], null));
        mock.addRecord(record(P0, 1, new byte[3], new byte[] {1, 2, 3})); // not a kbench stamp
        Collect c = new Collect();
        assertEquals(4, h.poll(Duration.ZERO, c));
        assertEquals(1, c.polls);
        assertTrue(c.got.contains(new Got(100, 1_700_000_000_000_001L, 0, RecordListener.NO_PRODUCER, 0)));
        assertTrue(c.got.contains(new Got(7, 42, 1, 3, 9)));
        assertTrue(c.got.contains(new Got(5, RecordListener.NO_STAMP, 1, RecordListener.NO_PRODUCER, 0)));
        assertTrue(c.got.contains(new Got(3, RecordListener.NO_STAMP, 0, RecordListener.NO_PRODUCER, 0)));
        assertEquals(0, h.poll(Duration.ZERO, c), "nothing more");
        assertEquals(1, c.polls, "an empty poll is not reported");
    }

    private static byte[] inValue(int length, int magic, long micros, long producer, long sequence) {
        byte[] v = new byte[length];
        java.util.Arrays.fill(v, (byte) 0x55);
        Stamp.writeInt(v, 0, magic);
        Stamp.write(v, 4, micros);
        if (magic == Stamp.MAGIC_VERIFIED && length >= Stamp.IN_VALUE_VERIFIED) {
            Stamp.write(v, 12, producer);
            Stamp.write(v, 20, sequence);
        }
        return v;
    }

    @Test
    void shouldReadTheStampFromTheValueHeadWhenItStartsWithTheMagicAndFromTheHeaderOtherwise() {
        MockConsumer<byte[], byte[]> mock = consumer();
        KafkaConsumerHandle h = new KafkaConsumerHandle(mock, TOPIC);
        mock.rebalance(List.of(P0, P1));
        h.onPartitionsAssigned(List.of(P0, P1));
        mock.addRecord(record(P0, 0, inValue(100, Stamp.MAGIC_STAMP, 1_700_000_000_000_002L, 0, 0), null));
        mock.addRecord(record(P0, 1, inValue(28, Stamp.MAGIC_VERIFIED, 43, 4, 10), null));
        mock.addRecord(record(P0, 2, inValue(12, Stamp.MAGIC_STAMP, 44, 0, 0), null));
        // the verified magic in a value too short for its sequence: not a stamped value; its header counts
        byte[] shortVerified = inValue(27, Stamp.MAGIC_VERIFIED, 45, 0, 0);
        mock.addRecord(record(P1, 0, shortVerified, stamp(46, null, 0)));
        // one byte off the magic: an ordinary value, which carries no stamp
        byte[] nearMiss = inValue(100, Stamp.MAGIC_STAMP, 47, 0, 0);
        nearMiss[3] = 0x03;
        mock.addRecord(record(P1, 1, nearMiss, null));
        mock.addRecord(record(P1, 2, new byte[11], null));
        // the value's stamp wins over a header (a record forwarded with another run's header)
        mock.addRecord(record(P1, 3, inValue(64, Stamp.MAGIC_STAMP, 48, 0, 0), stamp(49, null, 0)));
        Collect c = new Collect();
        assertEquals(7, h.poll(Duration.ZERO, c));
        assertEquals(List.of(new Got(100, 1_700_000_000_000_002L, 0, RecordListener.NO_PRODUCER, 0),
                new Got(28, 43, 0, 4, 10), new Got(12, 44, 0, RecordListener.NO_PRODUCER, 0)),
                c.got.stream().filter(g -> g.partition() == 0).toList());
        assertEquals(List.of(new Got(27, 46, 1, RecordListener.NO_PRODUCER, 0),
                new Got(100, RecordListener.NO_STAMP, 1, RecordListener.NO_PRODUCER, 0),
                new Got(11, RecordListener.NO_STAMP, 1, RecordListener.NO_PRODUCER, 0),
                new Got(64, 48, 1, RecordListener.NO_PRODUCER, 0)),
                c.got.stream().filter(g -> g.partition() == 1).toList());
    }

    @Test
    void shouldHoldAssignedPartitionsPausedUntilReleased() {
        MockConsumer<byte[], byte[]> mock = consumer();
        KafkaConsumerHandle h = new KafkaConsumerHandle(mock, TOPIC);
        h.hold(io.kbench.driver.ConsumerHandle.Start.BEGINNING);
        mock.rebalance(List.of(P0));
        h.onPartitionsAssigned(List.of(P0));
        assertEquals(java.util.Set.of(P0), mock.paused(), "held: paused");
        mock.addRecord(record(P0, 0, new byte[1], stamp(1, null, 0)));
        Collect c = new Collect();
        assertEquals(0, h.poll(Duration.ZERO, c), "a held consumer reads nothing");
        h.release();
        assertEquals(1, h.poll(Duration.ZERO, c), "released: it reads");
        assertTrue(mock.paused().isEmpty());
    }

    @Test
    void shouldCountPartitionsRevokedAndLost() {
        MockConsumer<byte[], byte[]> mock = consumer();
        KafkaConsumerHandle h = new KafkaConsumerHandle(mock, TOPIC);
        mock.rebalance(List.of(P0, P1));
        h.onPartitionsAssigned(List.of(P0, P1));
        h.onPartitionsRevoked(List.of(P1));
        assertEquals(1, h.assignedPartitions());
        h.onPartitionsLost(List.of(P0, P1));
        assertEquals(0, h.assignedPartitions());
    }
}
