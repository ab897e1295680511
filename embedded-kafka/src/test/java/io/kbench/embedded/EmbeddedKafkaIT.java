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

    /**
     * A freshly started node runs its log manager's periodic tasks from its first seconds, as a long-running broker
     * does: Kafka's 30-s initial delay would keep a flush setting from doing anything in a short run's window.
     */
    @Test
    void shouldFlushOnItsScheduleFromTheStart() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().config("log.flush.scheduler.interval.ms", "100").start()) {
            Properties common = new Properties();
            common.setProperty("bootstrap.servers", kafka.bootstrapServers());
            try (Admin admin = Admin.create(common)) {
                admin.createTopics(List.of(new NewTopic("flushed", 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            javax.management.MBeanServer jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            javax.management.ObjectName flushes = new javax.management.ObjectName(
                    "kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs");
            Properties pp = new Properties();
            pp.putAll(common);
            pp.setProperty("linger.ms", "0");
            try (KafkaProducer<byte[], byte[]> producer =
                         new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>("flushed", new byte[10])).get(30, TimeUnit.SECONDS);
                long before = (Long) jmx.getAttribute(flushes, "Count");
                // 2 s of records to all three partitions: each is dirty at every 100-ms check and flushed at every
                // check or every other one (due when 100 ms have passed since its last flush), 30 to 60 flushes; the
                // metadata log alone flushes about twice a second (4 in all with Kafka's 30-s delay before the flusher)
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                for (int i = 0; System.nanoTime() < end; i++) {
                    producer.send(new ProducerRecord<>("flushed", i % 3, null, new byte[10])).get(30, TimeUnit.SECONDS);
                    Thread.sleep(5);
                }
                long flushed = (Long) jmx.getAttribute(flushes, "Count") - before;
                assertTrue(flushed >= 15, "log flushes in 2 s with a 100-ms schedule, 3 partitions written: " + flushed);
            }
        }
    }
}
