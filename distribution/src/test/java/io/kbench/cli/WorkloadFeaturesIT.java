package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.worker.Keys;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Workload features checked against what really lands in the topic (run in-process, real broker). */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WorkloadFeaturesIT {
    private static final int PARTITIONS = 6;
    private static final int KEYS = 12;
    private static final long RECORDS = 6_000;

    @TempDir
    Path dir;

    @Test
    void shouldSendExactlyNumRecordsWithRoundRobinKeysAndPayloadFileValuesVerbatim() throws Exception {
        Files.writeString(dir.resolve("values.txt"), "alpha|beta|{\"json\": true}|");
        Path workload = dir.resolve("keyed.yaml");
        Files.writeString(workload, """
                topics: 1
                partitionsPerTopic: %d
                producersPerTopic: 2
                subscriptionsPerTopic: 1
                keyDistribution: roundRobin
                keys: %d
                payloadFile: values.txt
                payloadDelimiter: "|"
                producerRate: -1
                numRecords: %d
                """.formatted(PARTITIONS, KEYS, RECORDS));
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            JsonNode result = InProcessRun.run(kafka, workload, dir.resolve("out"), "--keep-topics");
            assertEquals(RECORDS, result.get("summary").get("sent").asLong(), "numRecords stops exactly");
            assertEquals(RECORDS, result.get("summary").get("received").asLong());
            String topic = result.get("topics").get(0).asText();

            Map<Integer, Long> perPartition = new HashMap<>();
            Map<String, Long> perValue = new HashMap<>();
            Map<String, Long> perKey = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : readAll(kafka, topic)) {
                perPartition.merge(r.partition(), 1L, Long::sum);
                perValue.merge(new String(r.value(), StandardCharsets.UTF_8), 1L, Long::sum);
                perKey.merge(new String(r.key(), StandardCharsets.UTF_8), 1L, Long::sum);
            }
            // each of the 2 producers cycles the 12 keys over its 3,000 records: 250 + 250 per key
            Map<String, Long> wantKeys = new HashMap<>();
            Map<Integer, Long> wantPartitions = new HashMap<>();
            for (int k = 0; k < KEYS; k++) {
                byte[] key = Keys.name(k).getBytes(StandardCharsets.UTF_8);
                wantKeys.put(Keys.name(k), RECORDS / KEYS);
                wantPartitions.merge(Utils.toPositive(Utils.murmur2(key)) % PARTITIONS, RECORDS / KEYS, Long::sum);
            }
            assertEquals(wantKeys, perKey);
            assertEquals(wantPartitions, perPartition, "records per partition follow the keys' partitions");
            // the producers' own count per partition (result.json's partitions) is what the topic holds, every
            // partition listed, those without a record as 0
            JsonNode counted = result.get("partitions").get("acked").get(topic);
            assertEquals(PARTITIONS, counted.size(), counted.toString());
            for (int p = 0; p < PARTITIONS; p++) {
                assertEquals(perPartition.getOrDefault(p, 0L), counted.get(p).asLong(), "partition " + p);
            }
            JsonNode busiest = result.get("partitions").get("busiest");
            long most = perPartition.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertEquals(most, busiest.get("acked").asLong(), busiest.toString());
            assertEquals(most * PARTITIONS / (double) RECORDS, busiest.get("skew").asDouble(), 1e-9);
            assertEquals(Map.of("alpha", 2_000L, "beta", 2_000L, "{\"json\": true}", 2_000L), perValue,
                    "payload file values are sent verbatim, in turn");
        }
    }

    @Test
    void shouldEndAWarmupByCountWithTheIntervalInWhichItWasReached() throws Exception {
        Path workload = Files.writeString(dir.resolve("warm.yaml"), """
                partitionsPerTopic: 3
                messageSize: 100
                producerRate: 2000
                numRecords: 8000
                warmupRecords: 3000
                """);
        JsonNode r;
        InProcessRun.Outcome unwritten;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            r = InProcessRun.run(kafka, workload, dir.resolve("warm"));
            // the same broker: a run whose result.json cannot be written (a directory where its temporary file
            // goes, as a full disk fails it) ends non-zero, saying what was and was not written
            Path out = Files.createDirectories(dir.resolve("unwritable/result.json.tmp")).getParent();
            Path small = Files.writeString(dir.resolve("small.yaml"), "partitionsPerTopic: 1\nmessageSize: 100\n"
                    + "producerRate: 1000\nnumRecords: 500\n");
            unwritten = InProcessRun.execute("run", "--bootstrap-servers", kafka.bootstrapServers(), "--output",
                    out.toString(), small.toString());
        }
        assertEquals(1, unwritten.exitCode(), unwritten.stderr());
        org.junit.jupiter.api.Assertions.assertTrue(unwritten.stderr().strip().lines().anyMatch(l -> l.matches(
                "kbench: not written: result\\.json \\([^)]+\\); written: 4 histogram log\\(s\\), intervals\\.csv, "
                        + "report\\.html")), unwritten.stderr());
        org.junit.jupiter.api.Assertions.assertFalse(Files.exists(dir.resolve("unwritable/result.json")));
        JsonNode s = r.get("summary");
        assertEquals(8000, s.get("sent").asLong(), "numRecords includes the warm-up records");
        long ackedInWarmup = 0;
        long measuredStart = r.get("measureStartMillis").asLong();
        for (JsonNode i : r.get("intervals")) {
            boolean warm = i.get("warmup").asBoolean();
            assertEquals(i.get("startMillis").asLong() < measuredStart, warm, i.toString());
            if (warm) {
                ackedInWarmup += i.get("publish").get("acked").asLong();
            }
        }
        // the warm-up ends with the interval that reached 3,000 (2,000 msg/s: the second one)
        org.junit.jupiter.api.Assertions.assertTrue(ackedInWarmup >= 3000 && ackedInWarmup < 3000 + 2100,
                "acked in warm-up " + ackedInWarmup);
        assertEquals(8000 - ackedInWarmup, s.get("publishLatencyMicros").get("count").asLong(),
                "the summary's histograms leave the warm-up out");
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(EmbeddedKafka kafka, String topic) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        List<ConsumerRecord<byte[], byte[]>> all = new java.util.ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new java.util.ArrayList<>();
            for (int i = 0; i < PARTITIONS; i++) {
                tps.add(new TopicPartition(topic, i));
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (all.size() < RECORDS && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }
}
