package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.Versions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A result says where its figures came from — the build, the exact command line, the hosts, and the cluster
 * as the Admin API describes it (a setting given with --set shows up in the topic's configs) — and
 * {@code kbench run --repeat} runs the same workload and profile again from it.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ProvenanceIT {
    @TempDir
    Path dir;

    @Test
    void shouldRecordWhereTheFiguresCameFromAndRepeatTheRunFromIt() throws Exception {
        Path workload = Files.writeString(dir.resolve("traced.yaml"), """
                name: traced
                topics: 1
                partitionsPerTopic: 2
                messageSize: 100
                producersPerTopic: 1
                subscriptionsPerTopic: 1
                consumersPerSubscription: 1
                producerRate: 500
                warmupSeconds: 1
                durationSeconds: 3
                keyDistribution: roundRobin
                keys: 10
                """);
        ObjectMapper json = new ObjectMapper();
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            List<String> args = List.of("run", "--bootstrap-servers", kafka.bootstrapServers(), "--set",
                    "topic.retention.ms=3600000", "--set", "producer.linger.ms=7", "--output",
                    dir.resolve("first").toString(), workload.toString());
            assertEquals(0, Main.execute(args.toArray(new String[0])));
            JsonNode first = json.readTree(dir.resolve("first/result.json").toFile());
            assertEquals(io.kbench.coordinator.report.result.ResultFile.SCHEMA_VERSION, first.get("schemaVersion").asInt());
            JsonNode p = first.get("provenance");
            List<String> recorded = new ArrayList<>();
            p.get("commandLine").forEach(a -> recorded.add(a.asText()));
            assertEquals(args, recorded, "the exact command line");
            assertEquals(Versions.commit(), p.get("kbenchCommit").asText());
            assertTrue(p.get("coordinator").get("cores").asInt() >= 1, p.toString());
            assertTrue(p.get("coordinator").get("jvm").asText().startsWith(Runtime.version().feature() + "."), p.toString());
            JsonNode worker = p.get("workers").get(0);
            assertEquals("kafka-clients " + org.apache.kafka.common.utils.AppInfoParser.getVersion(),
                    worker.get("drivers").get("kafka").asText());
            assertTrue(worker.get("host").get("memoryBytes").asLong() > 0, worker.toString());

            JsonNode cluster = p.get("cluster");
            assertFalse(cluster.get("embedded").asBoolean(), "a cluster given with --bootstrap-servers");
            assertTrue(cluster.get("error").isNull(), cluster.toString());
            assertFalse(cluster.get("clusterId").asText().isEmpty(), cluster.toString());
            assertTrue(cluster.get("features").get("metadata.version").asInt() > 0, cluster.toString());
            assertEquals(1, cluster.get("brokers").size());
            JsonNode broker = cluster.get("brokers").get(0);
            assertEquals(kafka.bootstrapServers(), broker.get("endpoint").asText());
            assertTrue(broker.get("configs").has("num.io.threads") && broker.get("configs").has("min.insync.replicas"),
                    broker.toString());
            String topic = first.get("topics").get(0).asText();
            JsonNode t = cluster.get("topics").get(topic);
            assertEquals(2, t.get("partitions").asInt());
            assertEquals(1, t.get("replicationFactor").asInt());
            assertEquals("3600000", t.get("configs").get("retention.ms").asText(), "the --set topic config, as the "
                    + "broker reports it: " + t);

            // a cluster on loopback given with --bootstrap-servers: the consumers' buffer left to the OS, recorded
            assertEquals("-1", first.get("profile").get("consumer").get("receive.buffer.bytes").asText(),
                    first.get("profile").toString());

            // the same run again, from nothing but its result
            Path again = dir.resolve("again");
            assertEquals(0, Main.execute("run", "--repeat", dir.resolve("first/result.json").toString(), "--output",
                    again.toString()));
            JsonNode second = json.readTree(again.resolve("result.json").toFile());
            assertEquals("COMPLETED", second.get("status").asText());
            assertEquals(first.get("workload"), second.get("workload"), "the same resolved workload");
            assertEquals(first.get("profile"), second.get("profile"), "the same resolved profile and cluster");
            assertEquals("--repeat", second.get("provenance").get("commandLine").get(1).asText());
            assertEquals("3600000", second.get("provenance").get("cluster").get("topics")
                    .get(second.get("topics").get(0).asText()).get("configs").get("retention.ms").asText());
        }
    }
}
