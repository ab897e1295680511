package io.kbench.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.driver.ClusterFacts;
import io.kbench.driver.RecordShape;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.AbstractRecords;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

/**
 * The record sizes RecordLimits computes from a workload's sizes held against Kafka's own: the producer's upper bound
 * ({@code AbstractRecords.estimateSizeInBytesUpperBound}, what {@code KafkaProducer.send} compares with
 * {@code max.request.size}) and the batch one record really makes ({@code MemoryRecords}), for shapes with and without
 * keys, headers, null header values and kbench's stamp header — so that a Kafka release that changes its format fails
 * here, not in a user's run.
 */
class RecordLimitsTest {
    private static final List<RecordShape> SHAPES = List.of(
            new RecordShape(-1, 1024, 0, 0, 0, true, true),
            new RecordShape(-1, 1_048_576, 0, 0, 0, true, false),
            new RecordShape(-1, 10, 0, 0, 0, true, false), // the stamp in a header of 8 bytes
            new RecordShape(-1, 20, 0, 0, 0, true, true), // ... of 24 bytes
            new RecordShape(-1, 0, 0, 0, 0, false, false),
            new RecordShape(5, 100, 0, 0, 0, true, true),
            new RecordShape(300, 200_000, 3, 10, 70, true, false),
            new RecordShape(0, 1, 200, 1, -1, true, true),
            new RecordShape(-1, 5_000_000, 1, 2_000, 100_000, false, false));

    /** The record a producer of {@code s} sends: its key, value and headers, the stamp header included. */
    private static SimpleRecord record(RecordShape s) {
        List<Header> headers = new ArrayList<>();
        for (int i = 0; i < s.headers(); i++) {
            headers.add(new RecordHeader("k".repeat(s.headerKeyBytes()), s.headerValueBytes() < 0 ? null
                    : new byte[s.headerValueBytes()]));
        }
        int stamp = RecordLimits.stampHeaderBytes(s);
        if (stamp >= 0) {
            headers.add(new RecordHeader(Stamp.HEADER, new byte[stamp]));
        }
        return new SimpleRecord(1_700_000_000_000L, s.keyBytes() < 0 ? null : new byte[s.keyBytes()],
                new byte[s.valueBytes()], headers.toArray(Header[]::new));
    }

    @Test
    void shouldSizeARecordAsTheProducerDoes() {
        for (RecordShape s : SHAPES) {
            SimpleRecord r = record(s);
            assertEquals(AbstractRecords.estimateSizeInBytesUpperBound(RecordBatch.CURRENT_MAGIC_VALUE,
                    CompressionType.NONE, r.key(), r.value(), r.headers()), RecordLimits.producerEstimate(s), s.toString());
        }
    }

    @Test
    void shouldSizeTheSmallestBatchAsKafkaWritesIt() {
        for (RecordShape s : SHAPES) {
            assertEquals(MemoryRecords.withRecords(Compression.NONE, record(s)).sizeInBytes(), RecordLimits.smallestBatch(s),
                    s.toString());
        }
    }

    @Test
    void shouldRefuseAMebibyteValueWithKafkasDefaults() {
        RecordShape mib = new RecordShape(-1, 1_048_576, 0, 0, 0, true, true);
        String problem = RecordLimits.producerProblem(Map.of(), mib, "every record");
        assertEquals("the producer would refuse every record: 1,048,664 bytes as it sizes one (value, key, headers and "
                + "Kafka's batch header), above its max.request.size of 1,048,576 (Kafka's default); "
                + "set producer.max.request.size to at least 1,048,664, and the topics' "
                + "max.message.bytes (the brokers' message.max.bytes) to take it", problem);
        assertNull(RecordLimits.producerProblem(Map.of("max.request.size", "1048664"), mib, "every record"));
        assertTrue(RecordLimits.producerProblem(Map.of("max.request.size", "1048663"), mib, "every record")
                .contains("above its max.request.size of 1,048,663;"));
        // the largest value Kafka's defaults take
        assertNull(RecordLimits.producerProblem(Map.of(), mib.withValue(1_048_576 - 87), "every record"));
        assertTrue(RecordLimits.producerProblem(Map.of(), mib.withValue(1_048_576 - 86), "every record") != null);
    }

    @Test
    void shouldRefuseARecordAboveTheBufferMemory() {
        RecordShape big = new RecordShape(-1, 40_000_000, 0, 0, 0, false, false);
        String problem = RecordLimits.producerProblem(Map.of("max.request.size", "50000000"), big, "every record");
        assertTrue(problem.contains("above its buffer.memory of 33,554,432 (Kafka's default)"), problem);
        assertTrue(problem.endsWith("set producer.buffer.memory to at least 40,000,088"), problem);
        assertNull(RecordLimits.producerProblem(Map.of("max.request.size", "50000000", "buffer.memory", "67108864"), big,
                "every record"));
    }

    @Test
    void shouldRefuseRecordsTheTopicsWouldRefuseUncompressed() {
        RecordShape twoMb = new RecordShape(-1, 2_000_000, 0, 0, 0, true, true);
        long batch = RecordLimits.smallestBatch(twoMb);
        ClusterFacts cluster = cluster(Map.of("t0", "1048588", "t1", Long.toString(batch)));
        Map<String, String> settings = Map.of("max.request.size", "4194304");
        String problem = RecordLimits.brokerProblem(settings, cluster, twoMb);
        assertEquals("the brokers would refuse every record: topic t0 takes batches of at most 1,048,588 bytes (its "
                + "max.message.bytes; the brokers' message.max.bytes unless the topic sets it), and one record here is a "
                + "batch of at least 2,000,074 bytes uncompressed; set the topic's "
                + "max.message.bytes (topic.max.message.bytes in the profile, for the topics kbench creates) to at least "
                + "2,000,074, or compress (producer.compression.type)", problem);
        assertTrue(RecordLimits.brokerProblem(settings, cluster(Map.of("a", "1000", "b", "1000", "c", "1")), twoMb)
                .contains("topic a (and 2 more) takes"));
        // a batch of exactly the limit is taken; a compressed one is known only once sent; no configs read: no answer
        assertNull(RecordLimits.brokerProblem(settings, cluster(Map.of("t1", Long.toString(batch))), twoMb));
        assertNull(RecordLimits.brokerProblem(Map.of("compression.type", "lz4"), cluster, twoMb));
        assertNull(RecordLimits.brokerProblem(settings, cluster(Map.of()), twoMb));
        assertNull(RecordLimits.brokerProblem(settings, null, twoMb));
    }

    private static ClusterFacts cluster(Map<String, String> limits) {
        Map<String, ClusterFacts.Topic> topics = new java.util.HashMap<>();
        limits.forEach((t, limit) -> topics.put(t, new ClusterFacts.Topic(1, 1, Map.of("max.message.bytes", limit))));
        if (limits.isEmpty()) {
            topics.put("t", new ClusterFacts.Topic(1, 1, Map.of()));
        }
        return new ClusterFacts("id", Map.of(), List.of(), topics, "");
    }
}
