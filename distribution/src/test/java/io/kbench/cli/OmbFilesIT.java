package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unmodified OpenMessaging Benchmark workload and Kafka driver files (src/test/resources/omb) validate and run
 * as they are, from a working directory laid out as OMB's (payload files relative to it), each translated key
 * noted once on stderr; the run is checked against what the files say. kbench is run as a separate process so
 * that its working directory is that one.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class OmbFilesIT {
    private static final Path BASE = Path.of(System.getProperty("basedir", "."));
    private static final List<String> WORKLOADS = List.of("1-topic-1-partition-100b.yaml",
            "1-topic-1-partition-1kb-with-key.yaml", "max-rate-1-topic-1-partition-1p-1c-1kb.yaml");
    private static final List<String> DRIVERS = List.of("kafka-throughput.yaml", "kafka-latency.yaml");

    @TempDir
    Path cwd;

    private Commands.Result kbench(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-jar", BASE.resolve("target/kbench.jar").toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        return Commands.run(cmd, null, cwd, null, 180);
    }

    private void layOut() throws Exception {
        Path omb = BASE.resolve("src/test/resources/omb");
        for (String w : WORKLOADS) {
            Files.createDirectories(cwd.resolve("workloads"));
            Files.copy(omb.resolve("workloads").resolve(w), cwd.resolve("workloads").resolve(w));
        }
        for (String d : DRIVERS) {
            Files.createDirectories(cwd.resolve("driver-kafka"));
            Files.copy(omb.resolve("driver-kafka").resolve(d), cwd.resolve("driver-kafka").resolve(d));
        }
        Random r = new Random(1);
        byte[] b100 = new byte[100];
        byte[] b1k = new byte[1024];
        r.nextBytes(b100);
        r.nextBytes(b1k);
        Files.createDirectories(cwd.resolve("payload"));
        Files.write(cwd.resolve("payload/payload-100b.data"), b100);
        Files.write(cwd.resolve("payload/payload-1Kb.data"), b1k);
    }

    @Test
    void shouldValidateAndRunOmbFilesAsTheyAre() throws Exception {
        layOut();
        List<String> args = new ArrayList<>(List.of("validate"));
        WORKLOADS.forEach(w -> args.add("workloads/" + w));
        DRIVERS.forEach(d -> args.add("driver-kafka/" + d));
        Commands.Result v = kbench(args.toArray(new String[0]));
        assertEquals(0, v.exit(), v.output());
        assertEquals(5, v.output().lines().filter(l -> l.startsWith("ok: ")).count(), v.output());
        assertTrue(v.output().contains("ok: workloads/1-topic-1-partition-100b.yaml (workload 1-topic-1-partition-100b: "
                + "1 topic(s) x 1 partitions, 1 producer(s), 1 consumer(s), 50,000 msg/s, 900 s)"), v.output());
        assertTrue(v.output().contains("1-topic-1-partition-100b.yaml: OMB workload: consumerPerSubscription -> "
                + "consumersPerSubscription"), v.output());
        assertTrue(v.output().contains("OMB workload: testDurationMinutes: 15 -> durationSeconds: 900"), v.output());
        assertTrue(v.output().contains("OMB workload: keyDistributor: KEY_ROUND_ROBIN -> keyDistribution: roundRobin"),
                v.output());
        assertTrue(v.output().contains("kafka-throughput.yaml: OMB driver: producerConfig -> producer (3 properties)"),
                v.output());
        assertTrue(v.output().contains("ok: driver-kafka/kafka-latency.yaml (profile Kafka: localhost:9092, replication "
                + "factor 3)"), v.output());
        for (String once : List.of("1-topic-1-partition-100b.yaml: OMB workload: consumerPerSubscription",
                "kafka-throughput.yaml: OMB driver: driverClass")) {
            assertEquals(1, v.output().lines().filter(l -> l.startsWith(once)).count(), "noted once: " + once);
        }

        // a real run of an OMB workload with an OMB driver file, on a cluster of three brokers as the file's
        // replicationFactor: 3 and min.insync.replicas=2 want; only the cluster address and the length are given
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(3).start()) {
            Commands.Result run = kbench("run", "--driver", "driver-kafka/kafka-latency.yaml", "--bootstrap-servers",
                    kafka.bootstrapServers(), "--warmup", "1", "--duration", "4", "--output", "out",
                    "workloads/1-topic-1-partition-1kb-with-key.yaml");
            assertEquals(0, run.exit(), run.output());
            JsonNode result = new ObjectMapper().readTree(cwd.resolve("out/result.json").toFile());
            JsonNode w = result.get("workload");
            assertEquals("1-topic-1-partition-1Kb", w.get("name").asText());
            assertEquals(1024, w.get("messageSize").asInt());
            assertEquals("roundRobin", w.get("keyDistribution").asText());
            assertEquals(50, w.get("producerRate").asLong());
            assertEquals(4, w.get("durationSeconds").asInt());
            JsonNode p = result.get("profile");
            assertEquals(3, p.get("replicationFactor").asInt());
            assertEquals("all", p.get("producer").get("acks").asText());
            assertEquals("131072", p.get("producer").get("batch.size").asText());
            assertEquals("2", p.get("topic").get("min.insync.replicas").asText());
            assertEquals("COMPLETED", result.get("status").asText());
            long acked = result.get("summary").get("acked").asLong();
            assertTrue(acked >= 240 && acked <= 260, "about 50 msg/s for 5 s: " + acked);
            assertEquals(acked, result.get("summary").get("received").asLong());
            String topic = result.get("topics").get(0).asText();
            JsonNode described = result.get("provenance").get("cluster").get("topics").get(topic);
            assertEquals(3, described.get("replicationFactor").asInt(), described.toString());
        }
    }
}
