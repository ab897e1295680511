package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.embedded.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Producer sequences verified by the consumers, on a real broker: healthy runs, and a log with faults in it. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class VerificationIT {
    @TempDir
    Path dir;

    @Test
    void shouldFindNoLossDuplicateOrReorderingOnAHealthyClusterWithAcksAll() throws Exception {
        Path keyed = Files.writeString(dir.resolve("keyed.yaml"), """
                topics: 1
                partitionsPerTopic: 6
                producersPerTopic: 3
                subscriptionsPerTopic: 2
                consumersPerSubscription: 2
                keyDistribution: random
                keys: 500
                producerRate: 6000
                numRecords: 60000
                """);
        Path unkeyed = Files.writeString(dir.resolve("unkeyed.yaml"), """
                topics: 2
                partitionsPerTopic: 4
                producersPerTopic: 2
                subscriptionsPerTopic: 1
                producerRate: 6000
                numRecords: 60000
                """);
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            for (Path w : List.of(keyed, unkeyed)) {
                JsonNode r = InProcessRun.run(kafka, w, dir.resolve("out-" + w.getFileName()),
                        "--set", "producer.acks=all", "--set", "producer.enable.idempotence=true");
                JsonNode s = r.get("summary");
                assertEquals(60_000, s.get("acked").asLong(), w.toString());
                int subscriptions = w == keyed ? 2 : 1;
                assertEquals(60_000L * subscriptions, s.get("received").asLong());
                assertEquals(Map.of("lost", 0L, "duplicated", 0L, "outOfOrder", 0L), counts(s.get("verification")),
                        w.getFileName().toString());
                long perInterval = 0;
                for (JsonNode i : r.get("intervals")) {
                    JsonNode v = i.get("verification");
                    perInterval += v.get("lost").asLong() + v.get("duplicated").asLong() + v.get("outOfOrder").asLong();
                }
                assertEquals(0, perInterval, "every interval reports zero too");
            }
        }
    }

    @Test
    void shouldCountLostDuplicatedAndOutOfOrderMessagesThatAreReallyInTheLog() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("faulty", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            // one producer's stream to partition 0, as a faulty client or broker might leave it: 0..99 with
            // 40 missing, 70 written twice, and 90 written after 91
            List<Long> sequence = new java.util.ArrayList<>();
            for (long s = 0; s < 100; s++) {
                if (s != 40 && s != 90) {
                    sequence.add(s);
                }
                if (s == 70) {
                    sequence.add(70L);
                }
                if (s == 91) {
                    sequence.add(90L);
                }
            }
            long producerId = 7L << 32 | 3; // another run's producer 3
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                for (long s : sequence) {
                    byte[] stamp = ByteBuffer.allocate(24).putLong(System.currentTimeMillis() * 1000).putLong(producerId)
                            .putLong(s).array();
                    p.send(new ProducerRecord<>("faulty", 0, null, null, new byte[10],
                            List.of(new RecordHeader("kb.t", stamp)))).get();
                }
            }
            Path read = Files.writeString(dir.resolve("read.yaml"), """
                    topicNames: [faulty]
                    existingTopics: true
                    producersPerTopic: 0
                    subscriptionsPerTopic: 1
                    numRecords: %d
                    """.formatted(sequence.size()));
            JsonNode s = InProcessRun.run(kafka, read, dir.resolve("read")).get("summary");
            assertEquals(sequence.size(), s.get("received").asLong());
            assertEquals(Map.of("lost", 1L, "duplicated", 1L, "outOfOrder", 1L), counts(s.get("verification")));
            assertTrue(s.get("endToEndLatencyMicros").get("count").asLong() > 0, "the stamp is read as well");
        }
    }

    private static Map<String, Long> counts(JsonNode v) {
        return Map.of("lost", v.get("lost").asLong(), "duplicated", v.get("duplicated").asLong(),
                "outOfOrder", v.get("outOfOrder").asLong());
    }
}
