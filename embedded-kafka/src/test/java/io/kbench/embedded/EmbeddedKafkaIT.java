package io.kbench.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 3, unit = TimeUnit.MINUTES)
class EmbeddedKafkaIT {

    @Test
    void shouldServeProduceAndFetchThenRemoveItsDataDir() throws Exception {
        Path dataDir;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            Properties common = new Properties();
            common.setProperty("bootstrap.servers", kafka.bootstrapServers());
            try (Admin admin = Admin.create(common)) {
                admin.createTopics(List.of(new NewTopic("t", 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            Properties pp = new Properties();
            pp.putAll(common);
            try (KafkaProducer<byte[], byte[]> producer =
                         new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < 100; i++) {
                    producer.send(new ProducerRecord<>("t", ("m" + i).getBytes(StandardCharsets.UTF_8)));
                }
                producer.flush();
            }
            Properties cp = new Properties();
            cp.putAll(common);
            int received = 0;
            try (KafkaConsumer<byte[], byte[]> consumer =
                         new KafkaConsumer<>(cp, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                consumer.assign(List.of(new TopicPartition("t", 0), new TopicPartition("t", 1), new TopicPartition("t", 2)));
                consumer.seekToBeginning(consumer.assignment());
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (received < 100 && System.nanoTime() < deadline) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                    received += records.count();
                }
            }
            assertEquals(100, received);
            assertNull(kafka.fault());
            dataDir = kafka.directory();
            assertTrue(Files.isDirectory(dataDir.resolve("node-1")));
        }
        assertFalse(Files.exists(dataDir), "data dir left behind: " + dataDir);
    }
}
