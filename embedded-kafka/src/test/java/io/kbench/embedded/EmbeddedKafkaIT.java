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
import java.util.Map;
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

    /**
     * Nodes in JVMs of their own: each answers with its own figures (its own registry: the brokers' bytes in add up to
     * what was produced, where brokers in one JVM share one meter), a stopped node's JVM is gone and says so, and
     * closing the cluster leaves no JVM behind.
     */
    @Test
    void shouldRunEachNodeInAJvmOfItsOwnWithItsOwnFigures() throws Exception {
        List<Long> pids;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(3).processPerNode(FiguresNodeMain.class.getName())
                .start()) {
            assertTrue(kafka.processPerNode());
            pids = kafka.nodePids();
            assertEquals(3, pids.size(), pids.toString());
            assertFalse(pids.contains(ProcessHandle.current().pid()));
            Properties common = new Properties();
            common.setProperty("bootstrap.servers", kafka.bootstrapServers());
            try (Admin admin = Admin.create(common)) {
                admin.createTopics(List.of(new NewTopic("spread", 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            double[] before = new double[3];
            for (int id = 1; id <= 3; id++) {
                Map<String, Double> f = kafka.figures(id, 5_000);
                assertEquals(pids.get(id - 1).doubleValue(), f.get("pid"), "node " + id + " answers from its own JVM");
                before[id - 1] = f.get("bytesIn.count");
            }
            Properties pp = new Properties();
            pp.putAll(common);
            try (KafkaProducer<byte[], byte[]> producer =
                         new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < 300; i++) {
                    producer.send(new ProducerRecord<>("spread", i % 3, null, new byte[1000]));
                }
                producer.flush();
            }
            double total = 0;
            for (int id = 1; id <= 3; id++) {
                double in = kafka.figures(id, 5_000).get("bytesIn.count") - before[id - 1];
                // one partition each, led by one node each (round robin): 100 records of 1,000 bytes and their headers
                assertTrue(in >= 100_000 && in < 110_000, "node " + id + "'s own bytes in: " + in);
                total += in;
            }
            assertTrue(total < 330_000, "the three nodes' bytes in add up to what was produced once: " + total);

            kafka.stopNode(3);
            assertFalse(ProcessHandle.of(pids.get(2)).map(ProcessHandle::isAlive).orElse(false), "node 3's JVM exited");
            java.io.IOException stopped = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> kafka.figures(3, 1_000));
            assertEquals("broker 3 is stopped", stopped.getMessage());
            assertNull(kafka.fault(), "a node stopped on purpose is no fault");

            long t0 = System.nanoTime();
            kafka.startNode(3);
            System.out.printf("node 3 started again in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            List<Long> again = kafka.nodePids();
            assertEquals(3, again.size(), again.toString());
            assertFalse(again.contains(pids.get(2)), "a new JVM");
            assertEquals(again.get(2).doubleValue(), kafka.figures(3, 5_000).get("pid"), "node 3 answers again");
            pids = new java.util.ArrayList<>(pids);
            pids.add(again.get(2));
        }
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "node JVM " + pid + " outlived the cluster");
        }
    }

    /** A node whose starter is gone (its standard input closed, as when the starting JVM is killed) stops by itself. */
    @Test
    void shouldStopANodeWhoseStarterIsGone() throws Exception {
        Path dir = Files.createTempDirectory("kbench-orphan-");
        try {
            int controller = freePort();
            Properties props = NodeConfigs.plaintext(dir.resolve("node-1"), "127.0.0.1", 1, freePort(), controller,
                    "1@127.0.0.1:" + controller, (short) 1);
            Path file = dir.resolve("node-1.properties");
            NodeConfigs.format(file, props, org.apache.kafka.common.Uuid.randomUuid().toString(), List.of());
            NodeChild child = NodeChild.start(1, file, NodeProcess.class.getName());
            try {
                child.awaitReady(60_000);
                assertTrue(child.alive());
                child.closeInput();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(NodeProcess.ORPHAN_STOP_MILLIS / 1000 + 10);
                while (child.alive() && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertFalse(child.alive(), "an orphaned node still runs");
            } finally {
                child.kill();
            }
        } finally {
            try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
